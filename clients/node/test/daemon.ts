// A private sbxd for one test file, as tests/integration/lib.sh starts one:
// its own socket, state and workspace under $SBX_TEST_TMP (outside /tmp,
// which sandboxes have a private one of), readiness read from --ready-fd,
// never a sleep.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Daemon {
  dir: string;
  socket: string;
  ws: string;
  bin: string;
  policyFile: string;
  proc: ChildProcess;
  log(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  cleanup(): void;
}

export function scratch(name: string): string {
  const root = process.env.SBX_TEST_TMP;
  if (!root) throw new Error("set SBX_TEST_TMP to a directory outside /tmp and /var/tmp");
  const dir = mkdtempSync(join(root, `node-${name}.`));
  chmodSync(dir, 0o755);
  return dir;
}

export function sbxBin(): string {
  const b = process.env.SBX_BIN;
  if (!b) throw new Error("set SBX_BIN to the directory of sbxd and sbxctl");
  return b;
}

function rmTree(dir: string): void {
  // Overlayfs leaves a mode 000 directory in its work dir.
  spawn("chmod", ["-R", "u+rwX", dir], { stdio: "ignore" }).on("exit", () =>
    rmSync(dir, { recursive: true, force: true }),
  );
}

/**
 * A daemon the caller started (SBX_DAEMON_SOCKET): t-node-client-priv's
 * root sbxd serving this user. Only the files that need no daemon options
 * of their own run against it.
 */
export const external = process.env.SBX_DAEMON_SOCKET;

function externalDaemon(name: string): Daemon {
  const dir = scratch(name);
  mkdirSync(join(dir, "ws"));
  return {
    dir,
    socket: external!,
    ws: join(dir, "ws"),
    bin: sbxBin(),
    policyFile: "",
    proc: undefined as unknown as ChildProcess,
    log: () => "",
    stop: () => Promise.resolve(0), // the caller stops it, and checks
    cleanup: () => rmTree(dir),
  };
}

export function startDaemon(name: string, policy: object = {}, args: string[] = []): Promise<Daemon> {
  if (external) {
    if (Object.keys(policy).length || args.length)
      return Promise.reject(new Error(`${name}: needs a daemon of its own (skip it with SBX_DAEMON_SOCKET)`));
    return Promise.resolve(externalDaemon(name));
  }
  const dir = scratch(name);
  const bin = sbxBin();
  mkdirSync(join(dir, "run"), { mode: 0o700 });
  mkdirSync(join(dir, "ws"));
  const policyFile = join(dir, "policy.json");
  writeFileSync(policyFile, JSON.stringify(policy) + "\n");
  const socket = join(dir, "run", "sbxd.sock");
  const logFile = join(dir, "sbxd.log");
  const extra = (process.env.SBXD_ARGS ?? "").split(/\s+/).filter(Boolean);
  const proc = spawn(
    join(bin, "sbxd"),
    ["--socket", socket, "--state-dir", join(dir, "state"), "--ready-fd", "3", "--policy", policyFile, ...extra, ...args],
    {
      stdio: ["ignore", "ignore", openSync(logFile, "a"), "pipe"],
      env: { ...process.env, XDG_RUNTIME_DIR: join(dir, "run"), XDG_STATE_HOME: join(dir, "state") },
    },
  );
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  const d: Daemon = {
    dir,
    socket,
    ws: join(dir, "ws"),
    bin,
    policyFile,
    proc,
    log: () => readFileSync(logFile, "utf8"),
    stop: () => {
      proc.kill("SIGTERM");
      return exited;
    },
    cleanup: () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      rmTree(dir);
    },
  };
  return new Promise((resolve, reject) => {
    let said = "";
    const ready = proc.stdio[3] as NodeJS.ReadableStream;
    ready.setEncoding("utf8");
    ready.on("data", (s: string) => {
      said += s;
      if (said === "READY\n") resolve(d);
    });
    ready.on("end", () => {
      if (said !== "READY\n") {
        reject(new Error(`sbxd did not start:\n${d.log()}`));
        d.cleanup();
      }
    });
  });
}

/** Reads a stream to its end. */
export async function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Resolves with what s has produced once it contains `text`. */
export function waitFor(s: NodeJS.ReadableStream, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (c: Buffer): void => {
      seen += c.toString("utf8");
      if (seen.includes(text)) {
        s.off("data", onData);
        s.off("end", onEnd);
        resolve(seen);
      }
    };
    const onEnd = (): void => reject(new Error(`stream ended before ${JSON.stringify(text)}; saw ${JSON.stringify(seen)}`));
    s.on("data", onData);
    s.on("end", onEnd);
  });
}
