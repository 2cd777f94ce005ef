#!/usr/bin/env python3
"""Spawn latency through sbx's clients, interleaved round by round so every
row sees the same machine (tests/bench/clients.sh). Each argument after the
counts is one row, NAME|KIND|COMMAND (COMMAND split by the shell's rules):

  exec  COMMAND runs once per iteration (bare `true`, `sbxctl run true`);
  mcp   COMMAND is an MCP server on stdio, started once: each iteration is
        one tools/call run_command {"argv": ["true"]} over that session;
  lines COMMAND is a helper started once: each iteration writes a newline
        to it and waits for one line back (a client library's loop).

Prints a markdown table of milliseconds per iteration (p50, p90, mean).
"""
import json, shlex, statistics, subprocess, sys, time


class Exec:
    def __init__(self, cmd):
        self.cmd = cmd

    def one(self):
        subprocess.run(self.cmd, check=True, stdout=subprocess.DEVNULL)

    def close(self):
        pass


class Lines:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)

    def one(self):
        self.p.stdin.write(b"\n")
        self.p.stdin.flush()
        if not self.p.stdout.readline():
            raise SystemExit("helper %s ended" % self.p.args)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


class Mcp(Lines):
    def __init__(self, cmd):
        super().__init__(cmd)
        self.n = 0
        self.rpc("initialize", {"protocolVersion": "2025-11-25",
                                "capabilities": {},
                                "clientInfo": {"name": "bench",
                                               "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, m):
        self.p.stdin.write((json.dumps(m) + "\n").encode())
        self.p.stdin.flush()

    def rpc(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method,
                   "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("sbxctl mcp ended")
            m = json.loads(line)
            if m.get("id") == self.n:
                if "error" in m or m["result"].get("isError"):
                    raise SystemExit("mcp: %s" % line)
                return m

    def one(self):
        r = self.rpc("tools/call", {"name": "run_command",
                                    "arguments": {"argv": ["true"]}})
        if r["result"]["structuredContent"]["exitCode"] != 0:
            raise SystemExit("mcp: true failed: %s" % r)


KINDS = {"exec": Exec, "mcp": Mcp, "lines": Lines}


def main():
    rounds, warmup = int(sys.argv[1]), int(sys.argv[2])
    rows = []
    for spec in sys.argv[3:]:
        name, kind, cmd = spec.split("|", 2)
        rows.append((name, KINDS[kind](shlex.split(cmd)), []))
    for i in range(warmup + rounds):
        for name, row, times in rows:
            t0 = time.perf_counter()
            row.one()
            if i >= warmup:
                times.append((time.perf_counter() - t0) * 1000)
    for _, row, _ in rows:
        row.close()
    print("| client | p50 ms | p90 ms | mean ms |")
    print("|---|---|---|---|")
    for name, _, t in rows:
        t.sort()
        print("| %s | %.2f | %.2f | %.2f |" % (
            name, statistics.median(t), t[int(len(t) * 0.9) - 1],
            statistics.mean(t)))


main()
