// sbx.events(): a subscription as an async iterator, on a connection of its
// own so that leaving the loop ends it (a subscription lasts as long as
// its connection).
import type { Connection, Op } from "./connection.js";
import { ConnectionClosedError, SbxError } from "./errors.js";
import {
  EventKind,
  type ApprovalAnswered,
  type ApprovalRequest,
  type Envelope,
  type Event,
  type PolicyChanged,
  type ViolationEvent,
} from "./gen/sbx_pb.js";

export type EventKindName = "sessions" | "approvals" | "policy" | "sandboxes";
export const KINDS: Record<EventKindName, EventKind> = {
  sessions: EventKind.SESSIONS,
  approvals: EventKind.APPROVALS,
  policy: EventKind.POLICY,
  sandboxes: EventKind.SANDBOXES,
};

export interface EventsOptions {
  /** Only this session's events (default: every session of the user). */
  sessionId?: bigint | number;
  /** Lifecycle events wanted besides violations. */
  kinds?: EventKindName[];
  /** A read-only copy of this session's output. */
  mirrorOutput?: bigint | number;
}

type Lifecycle = NonNullable<Event["kind"]["case"]>;
type LifecycleValue<C extends Lifecycle> = Extract<Event["kind"], { case: C }>["value"];

/** One thing a subscription saw. Lifecycle events carry the daemon's time. */
export type SbxEvent =
  | { type: "violation"; value: ViolationEvent }
  | { type: "policyChanged"; value: PolicyChanged }
  | { type: "output"; value: { stream: number; data: Uint8Array } }
  | { type: "approvalRequest"; value: ApprovalRequest }
  | { type: "approvalAnswered"; value: ApprovalAnswered }
  | { [C in Lifecycle]: { type: C; value: LifecycleValue<C>; timeUnixMs: bigint } }[Lifecycle];

export function toEvent(env: Envelope): SbxEvent | undefined {
  const m = env.msg;
  switch (m.case) {
    case "violation":
    case "policyChanged":
    case "approvalRequest":
    case "approvalAnswered":
      return { type: m.case, value: m.value } as SbxEvent;
    case "output":
      return { type: "output", value: { stream: m.value.stream, data: m.value.data } };
    case "event":
      if (!m.value.kind.case) return undefined;
      return { type: m.value.kind.case, value: m.value.kind.value, timeUnixMs: m.value.timeUnixMs } as SbxEvent;
    default:
      return undefined;
  }
}

/** The iterator sbx.events() returns; `ready` resolves once subscribed. */
export class EventStream implements AsyncIterableIterator<SbxEvent> {
  readonly ready: Promise<void>;
  private queue: SbxEvent[] = [];
  private waiting?: (r: IteratorResult<SbxEvent>) => void;
  private failWaiting?: (e: Error) => void;
  private ended = false;
  private error?: Error;
  private conn?: Connection;

  constructor(conn: Promise<Connection>, opts: EventsOptions) {
    this.ready = conn.then(
      (c) =>
        new Promise<void>((resolve, reject) => {
          this.conn = c;
          const id = c.allocId();
          let acked = false;
          const op: Op = {
            frame: (env) => {
              if (!acked && env.msg.case === "ack") {
                acked = true;
                resolve();
                return;
              }
              if (env.msg.case === "error" && env.msg.value.approvalRequestId === 0n) {
                const e = new SbxError(env.msg.value.code, env.msg.value.message);
                reject(e);
                this.stop(e);
                c.destroy();
                return;
              }
              const ev = toEvent(env);
              if (ev) this.put(ev);
            },
            closed: (e) => {
              reject(e);
              this.stop(e instanceof ConnectionClosedError ? undefined : e);
            },
          };
          c.register(id, op);
          c.send(
            {
              case: "subscribe",
              value: {
                sessionId: BigInt(opts.sessionId ?? 0),
                kinds: (opts.kinds ?? []).map((k) => KINDS[k]),
                mirrorOutput: BigInt(opts.mirrorOutput ?? 0),
              },
            },
            id,
          );
        }),
    );
    this.ready.catch((e) => this.stop(e));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<SbxEvent>> {
    const ev = this.queue.shift();
    if (ev) return Promise.resolve({ value: ev, done: false });
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  async return(): Promise<IteratorResult<SbxEvent>> {
    this.close();
    return { value: undefined, done: true };
  }

  /** Ends the subscription (and its connection). */
  close(): void {
    this.stop();
    this.conn?.destroy();
  }

  private put(ev: SbxEvent): void {
    const w = this.waiting;
    if (w) {
      this.waiting = this.failWaiting = undefined;
      w({ value: ev, done: false });
    } else this.queue.push(ev);
  }

  private stop(err?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.error = err;
    const w = this.waiting, f = this.failWaiting;
    this.waiting = this.failWaiting = undefined;
    if (err && f) f(err);
    else w?.({ value: undefined, done: true });
  }
}
