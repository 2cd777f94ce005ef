#!/usr/bin/python3
"""Times commands in alternation, one run of each per round (the order
flipped every round), so a busy machine's drift lands on all of them
alike; writes hyperfine's --export-json form for hf-median.py. CPU time
too, which a loaded machine disturbs less than wall time: each run's
client (its rusage) and, for a command given as NAME::PID::COMMAND, the
process tree of PID (a daemon: itself, its templates and the sandboxes
they reaped), over all the runs, per run (off-path work after a run
counts for it).

  alternate.py OUT.json RUNS WARMUP NAME[::PID]::COMMAND...
"""
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(pid):
    """Seconds of CPU of pid and its descendants, and what they reaped."""
    kids, cpu = {}, {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                s = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(s[1]), []).append(int(p))
        cpu[int(p)] = sum(int(x) for x in s[11:15]) / TICK
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo += kids.get(p, [])
    return total


def parse(spec):
    name, rest = spec.split("::", 1)
    pid = None
    head, _, tail = rest.partition("::")
    if tail and head.isdigit():
        pid, rest = int(head), tail
    return name, pid, shlex.split(rest)


def main():
    out, runs, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    cmds = [parse(s) for s in sys.argv[4:]]
    times = {name: [] for name, _, _ in cmds}
    client = {name: 0.0 for name, _, _ in cmds}
    start = {}
    for i in range(warmup + runs):
        if i == warmup:
            start = {name: tree_cpu(pid) for name, pid, _ in cmds if pid}
        order = cmds if i % 2 == 0 else cmds[::-1]
        for name, _, argv in order:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            if i >= warmup:
                times[name].append(time.perf_counter() - t)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                client[name] += (r1.ru_utime - r0.ru_utime +
                                 r1.ru_stime - r0.ru_stime)
    end = {name: tree_cpu(pid) for name, pid, _ in cmds if pid}
    res = [{"command": name, "times": times[name],
            "mean": statistics.mean(times[name]),
            "stddev": statistics.stdev(times[name]) if runs > 1 else None,
            "min": min(times[name]), "max": max(times[name]),
            "client_cpu": client[name] / runs,
            "daemon_cpu": (end[name] - start[name]) / runs
            if name in end else None}
           for name, _, _ in cmds]
    with open(out, "w") as f:
        json.dump({"results": res}, f)


main()
