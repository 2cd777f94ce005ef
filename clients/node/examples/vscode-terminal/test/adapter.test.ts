// The terminal adapter with a fake run handle: what VS Code would see.
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { constants } from "node:os";
import { test } from "node:test";
import type { ExitResult } from "sbx-client" with { "resolution-mode": "import" };
import { SandboxPty, answerFor, approvalPrompt, type RunLike, type Size } from "../src/adapter.js";

class FakeRun implements RunLike {
  stdout = new EventEmitter();
  stderr = new EventEmitter();
  input: string[] = [];
  calls: string[] = [];
  stdin = { write: (d: string) => this.input.push(d), end: () => this.calls.push("end") };
  exit: Promise<ExitResult>;
  settle!: (r: ExitResult) => void;
  reject!: (e: Error) => void;
  constructor() {
    this.exit = new Promise((res, rej) => ((this.settle = res), (this.reject = rej)));
  }
  resize(cols: number, rows: number): void {
    this.calls.push(`resize ${cols}x${rows}`);
  }
  signal(sig: string, target?: string): void {
    this.calls.push(`signal ${sig} ${target}`);
  }
}

function status(p: Partial<ExitResult>): ExitResult {
  return { sessionId: 1n, code: 0, signal: null, timedOut: false, execError: "", summaryLines: [], violations: 0, status: {} as ExitResult["status"], ...p };
}

function setup(): { run: FakeRun; pty: SandboxPty; writes: string[]; closes: number[]; sizes: (Size | undefined)[] } {
  const run = new FakeRun();
  const writes: string[] = [];
  const closes: number[] = [];
  const sizes: (Size | undefined)[] = [];
  const pty = new SandboxPty(
    (s) => {
      sizes.push(s);
      return run;
    },
    { write: (d) => writes.push(d), close: (c) => closes.push(c) },
    constants.signals,
  );
  return { run, pty, writes, closes, sizes };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test("the run starts at the terminal's size; input and resizes go to it", () => {
  const { run, pty, sizes } = setup();
  pty.open({ cols: 132, rows: 43 });
  assert.deepEqual(sizes, [{ cols: 132, rows: 43 }]);
  pty.input("ls\r");
  pty.resize(100, 30);
  assert.deepEqual(run.input, ["ls\r"]);
  assert.deepEqual(run.calls, ["resize 100x30"]);
});

test("a character split across two frames is written whole", () => {
  const { run, pty, writes } = setup();
  pty.open();
  const euro = Buffer.from("a€b");
  run.stdout.emit("data", euro.subarray(0, 2));
  run.stdout.emit("data", euro.subarray(2));
  assert.equal(writes.join(""), "a€b");
  assert.ok(!writes.some((w) => w.includes("\ufffd")));
});

test("at the exit: the daemon's summary, the status, then close with the code", async () => {
  const { run, pty, writes, closes } = setup();
  pty.open();
  run.settle(status({ code: 3, summaryLines: ["sbx: blocked network: example.com:443"] }));
  await tick();
  assert.equal(writes.join(""), "\r\nsbx: blocked network: example.com:443\r\n[sandboxed command exited with code 3]\r\n");
  assert.deepEqual(closes, [3]);
});

test("a signal's exit is 128 + its number", async () => {
  const { run, pty, closes } = setup();
  pty.open();
  run.settle(status({ code: null, signal: "SIGINT" }));
  await tick();
  assert.deepEqual(closes, [130]);
});

test("a run that could not start: the reason, then close with 1", async () => {
  const { run, pty, writes, closes } = setup();
  pty.open();
  run.reject(new Error("SANDBOX: mount failed\nsecond line"));
  await tick();
  assert.equal(writes.join(""), "\r\nsbx: SANDBOX: mount failed\r\nsecond line\r\n");
  assert.deepEqual(closes, [1]);
});

test("closing the terminal hangs up the sandbox; nothing is written after", async () => {
  const { run, pty, writes, closes } = setup();
  pty.open();
  pty.close();
  pty.close();
  assert.deepEqual(run.calls, ["signal SIGHUP session"]);
  run.stdout.emit("data", Buffer.from("late"));
  pty.input("x");
  run.settle(status({ code: null, signal: "SIGHUP" }));
  await tick();
  assert.deepEqual(writes, []);
  assert.deepEqual(closes, []);
  assert.deepEqual(run.input, []);
});

test("approval prompts: the host, the refusal note, and the answers", () => {
  const p = approvalPrompt({ host: "registry.npmjs.org", port: 443, protocol: "connect", refused: "" });
  assert.equal(p.message, "A sandboxed command wants to reach registry.npmjs.org:443 (connect). Allow it?");
  assert.deepEqual(p.choices.map(answerFor), ["once", "session", "always", "deny"]);
  assert.equal(answerFor(undefined), "deny", "a dismissed prompt denies");
  const r = approvalPrompt({ host: "intra.test", port: 80, protocol: "http", refused: "resolves to 10.0.0.1 (private)" });
  assert.match(r.message, /Note: resolves to 10\.0\.0\.1 \(private\)$/);
});
