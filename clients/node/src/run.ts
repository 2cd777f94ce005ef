// A session seen from the client, as child_process shows a child: stdin,
// stdout and stderr as streams, signals, resize, and the exit status (with
// the daemon's words on what was blocked) as a promise.
import { EventEmitter } from "node:events";
import { constants } from "node:os";
import { Readable, Writable } from "node:stream";
import type { Connection, Msg, Op } from "./connection.js";
import { DetachedError, SbxError } from "./errors.js";
import {
  ApprovalAnswer,
  SignalTarget,
  type ApprovalAnswered,
  type ApprovalRequest,
  type Attached,
  type Envelope,
  type ExitStatus,
  type ViolationEvent,
} from "./gen/sbx_pb.js";
import { STDIN_CHUNK } from "./wire.js";

/** How an approval is answered: a word, or the protocol's value. */
export type Answer = "once" | "session" | "sandbox" | "always" | "deny" | ApprovalAnswer;
export type ApprovalHandler = (req: ApprovalRequest) => Answer | { answer: Answer; reason?: string } | Promise<Answer | { answer: Answer; reason?: string }>;

const ANSWERS: Record<string, ApprovalAnswer> = {
  once: ApprovalAnswer.ALLOW_ONCE,
  session: ApprovalAnswer.ALLOW_SESSION,
  sandbox: ApprovalAnswer.ALLOW_SANDBOX,
  always: ApprovalAnswer.ALLOW_ALWAYS,
  deny: ApprovalAnswer.DENY,
};

/** Asks handler and sends the ApprovalDecision under id; a handler that
 * throws denies, with its message as the reason. */
export async function answerApproval(conn: Connection, id: bigint, req: ApprovalRequest, handler: ApprovalHandler): Promise<void> {
  let answer: ApprovalAnswer = ApprovalAnswer.DENY;
  let reason = "";
  try {
    const r = await handler(req);
    const a = typeof r === "object" ? r : { answer: r };
    answer = typeof a.answer === "number" ? a.answer : (ANSWERS[a.answer] ?? ApprovalAnswer.DENY);
    reason = "reason" in a && a.reason ? a.reason : "";
  } catch (e) {
    reason = `approval handler failed: ${(e as Error).message}`;
  }
  conn.send({ case: "approvalDecision", value: { requestId: req.requestId, answer, reason } }, id);
}

export function signalNumber(sig: NodeJS.Signals | number): number {
  if (typeof sig === "number") return sig;
  const n = (constants.signals as Record<string, number>)[sig];
  if (n === undefined) throw new TypeError(`unknown signal ${sig}`);
  return n;
}

function signalName(n: number): NodeJS.Signals | null {
  for (const [k, v] of Object.entries(constants.signals)) if (v === n) return k as NodeJS.Signals;
  return null;
}

export interface ExitResult {
  sessionId: bigint;
  /** The exit code, or null when a signal ended the command. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Why exec failed (code is then 126 or 127). */
  execError: string;
  /** What sbxctl prints after a run ("sbx: ..."): what was blocked and why. */
  summaryLines: string[];
  /** Denials observed. */
  violations: number;
  /** The whole ExitStatus, for a client that renders its own words. */
  status: ExitStatus;
}

export interface Started {
  sessionId: bigint;
  /** Host pid of the sandbox's init (or of the command, in a sandbox). */
  pid: number;
  /** For an attach: what the daemon said about the session. */
  attached?: Attached;
}

export type SignalTargetName = "command" | "foreground" | "session";
const TARGETS: Record<SignalTargetName, SignalTarget> = {
  command: SignalTarget.COMMAND,
  foreground: SignalTarget.FOREGROUND,
  session: SignalTarget.SESSION,
};

/** Output a reader has not taken past this pauses the connection. */
const OUTPUT_HWM = 1 << 20;

function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

export interface HandleOptions {
  onApproval?: ApprovalHandler;
  /** The handle owns conn (a kept run's connection): closed at the end. */
  ownsConnection?: boolean;
  /** Detachable: the session was started with keep_on_disconnect. */
  keep?: boolean;
}

/**
 * A run or an attach. Events: "spawn" (Started), "violation"
 * (ViolationEvent), "approval" (ApprovalRequest), "approvalAnswered".
 */
export class RunHandle extends EventEmitter {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves once the sandbox runs (RunStarted, or Attached). */
  readonly started: Promise<Started>;
  /** Resolves with the exit status; rejects with an SbxError (INVALID,
   * SANDBOX, ...) when the run could not start, ConnectionClosedError when
   * the daemon went, DetachedError after detach(). */
  readonly exit: Promise<ExitResult>;
  sessionId?: bigint;
  pid?: number;

  private conn?: Connection;
  private ready: Promise<Connection>;
  private id = 0n;
  private credit = 0n;
  private useCredit = false;
  private creditWaiter?: () => void;
  private done = false;
  private opts: HandleOptions;
  private resolveStarted!: (s: Started) => void;
  private rejectStarted!: (e: Error) => void;
  private resolveExit!: (r: ExitResult) => void;
  private rejectExit!: (e: Error) => void;
  private op: Op;

  /** conn, or the promise of a connection of its own (a kept run). */
  constructor(conn: Connection | Promise<Connection>, request: (credit: boolean) => Msg, opts: HandleOptions = {}) {
    super();
    this.opts = opts;
    this.started = handled(new Promise((res, rej) => ((this.resolveStarted = res), (this.rejectStarted = rej))));
    this.exit = handled(new Promise((res, rej) => ((this.resolveExit = res), (this.rejectExit = rej))));
    this.stdout = new Readable({ highWaterMark: OUTPUT_HWM, read: () => this.conn?.resume(this.stdout) });
    this.stderr = new Readable({ highWaterMark: OUTPUT_HWM, read: () => this.conn?.resume(this.stderr) });
    for (const s of [this.stdout, this.stderr]) s.on("close", () => this.conn?.resume(s));
    this.stdin = new Writable({
      highWaterMark: STDIN_CHUNK,
      write: (chunk: Buffer, _enc, cb) => this.writeStdin(chunk).then(() => cb(), cb),
      final: (cb) => {
        this.sendWhenReady({ case: "stdinClose", value: {} });
        cb();
      },
    });
    // A command that exits without reading its stdin: writes are dropped,
    // as a pipe's reader going away would have them, not an error.
    this.stdin.on("error", () => {});
    this.op = { frame: (env) => this.onFrame(env), closed: (e) => this.fail(e) };
    const start = (c: Connection): Connection => {
      this.conn = c;
      this.id = c.allocId();
      this.useCredit = c.features.has("stdin-credit");
      c.register(this.id, this.op);
      c.send(request(this.useCredit), this.id);
      return c;
    };
    if ("then" in conn) {
      this.ready = handled(conn.then(start));
      this.ready.catch((e) => this.fail(e));
    } else {
      this.ready = Promise.resolve(start(conn));
    }
  }

  /** Resizes the session's terminal (tty runs). */
  resize(cols: number, rows: number): void {
    this.sendWhenReady({ case: "resize", value: { winsize: { rows, cols } } });
  }

  /** Sends a signal: to the command's process group (default), the
   * terminal's foreground group, or every process of the sandbox. */
  signal(sig: NodeJS.Signals | number, target: SignalTargetName = "command"): void {
    this.sendWhenReady({ case: "signal", value: { signo: signalNumber(sig), target: TARGETS[target] } });
  }

  /** As ChildProcess.kill: SIGTERM by default; SIGKILL ends the whole sandbox. */
  kill(sig: NodeJS.Signals | number = "SIGTERM"): void {
    this.signal(sig);
  }

  /** Answers an approval request of this session. */
  answer(req: ApprovalRequest, answer: Answer, reason = ""): void {
    void this.ready.then((c) => answerApproval(c, this.id, req, () => ({ answer, reason })));
  }

  /**
   * Leaves the session running (it was started with `keep`): its output
   * goes to the daemon's ring until sbx.attach(id) takes it up, from any
   * connection. Resolves with the session id; exit then rejects with a
   * DetachedError.
   */
  async detach(): Promise<bigint> {
    if (!this.opts.keep) throw new TypeError("detach() needs a run started with {keep: true}");
    const s = await this.started;
    if (!this.done) {
      this.finish();
      this.rejectExit(new DetachedError(s.sessionId));
      this.conn?.destroy();
    }
    return s.sessionId;
  }

  private sendWhenReady(msg: Msg): void {
    if (this.done) return;
    if (this.conn) this.conn.send(msg, this.id);
    else void this.ready.then((c) => !this.done && c.send(msg, this.id));
  }

  private async writeStdin(buf: Buffer): Promise<void> {
    const c = await this.ready;
    let off = 0;
    while (off < buf.length && !this.done) {
      if (this.useCredit && this.credit === 0n) {
        await new Promise<void>((r) => (this.creditWaiter = r));
        continue;
      }
      let n = Math.min(buf.length - off, STDIN_CHUNK);
      if (this.useCredit && BigInt(n) > this.credit) n = Number(this.credit);
      const ok = c.send({ case: "stdinData", value: { data: buf.subarray(off, off + n) } }, this.id);
      if (this.useCredit) this.credit -= BigInt(n);
      off += n;
      if (!ok) await c.drained();
    }
  }

  private wake(): void {
    const w = this.creditWaiter;
    this.creditWaiter = undefined;
    w?.();
  }

  private onFrame(env: Envelope): void {
    const m = env.msg;
    switch (m.case) {
      case "runStarted":
        this.sessionId = m.value.sessionId;
        this.pid = m.value.pid;
        this.resolveStarted({ sessionId: m.value.sessionId, pid: m.value.pid });
        this.emit("spawn", { sessionId: this.sessionId, pid: this.pid });
        break;
      case "attached": {
        const s = m.value.session;
        this.sessionId = s?.id ?? 0n;
        this.pid = s?.pid ?? 0;
        this.resolveStarted({ sessionId: this.sessionId, pid: this.pid, attached: m.value });
        this.emit("spawn", { sessionId: this.sessionId, pid: this.pid, attached: m.value });
        break;
      }
      case "stdinCredit":
        this.credit += m.value.bytes;
        this.wake();
        break;
      case "output": {
        const s = m.value.stream === 2 ? this.stderr : this.stdout;
        // A stream its reader destroyed: its output is dropped, never a
        // reason to stop reading the connection.
        if (s.destroyed) break;
        if (!s.push(Buffer.from(m.value.data.buffer, m.value.data.byteOffset, m.value.data.byteLength)))
          this.conn?.pause(s);
        break;
      }
      case "violation":
        this.emit("violation", m.value as ViolationEvent);
        break;
      case "approvalRequest":
        this.emit("approval", m.value as ApprovalRequest);
        if (this.opts.onApproval && this.conn)
          void answerApproval(this.conn, this.id, m.value, this.opts.onApproval);
        break;
      case "approvalAnswered":
        this.emit("approvalAnswered", m.value as ApprovalAnswered);
        break;
      case "exitStatus":
        this.onExit(m.value);
        break;
      case "error":
        // About one ApprovalDecision (answered already, timed out): it ends
        // nothing.
        if (m.value.approvalRequestId !== 0n) {
          this.emit("approvalError", new SbxError(m.value.code, m.value.message, m.value.approvalRequestId));
          break;
        }
        this.fail(new SbxError(m.value.code, m.value.message));
        break;
      default:
        break; // a message this client does not know: ignored
    }
  }

  private onExit(st: ExitStatus): void {
    if (this.done) return;
    this.finish();
    this.resolveExit({
      sessionId: st.sessionId,
      code: st.exited ? st.code : null,
      signal: st.exited ? null : signalName(st.signal),
      timedOut: st.timedOut,
      execError: st.execError,
      summaryLines: st.summaryLines,
      violations: st.violations,
      status: st,
    });
  }

  private fail(e: Error): void {
    if (this.done) return;
    this.finish();
    this.rejectStarted(e);
    this.rejectExit(e);
  }

  private finish(): void {
    this.done = true;
    this.wake();
    if (this.conn) {
      this.conn.release(this.id, this.op);
      this.conn.resume(this.stdout);
      this.conn.resume(this.stderr);
      if (this.opts.ownsConnection) this.conn.end();
    }
    if (!this.stdout.destroyed) this.stdout.push(null);
    if (!this.stderr.destroyed) this.stderr.push(null);
  }
}
