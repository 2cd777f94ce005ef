// One connection to sbxd: the handshake, request ids, and the routing of
// every frame to the operation whose id it carries (docs/protocol.md,
// "Request ids" and "The connection").
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { connect as netConnect, type Socket } from "node:net";
import {
  EnvelopeSchema,
  ProtocolVersion,
  type Envelope,
  type HelloReply,
} from "./gen/sbx_pb.js";
import { ConnectionClosedError, SbxError } from "./errors.js";
import { FrameDecoder, encodeFrame } from "./wire.js";

export type Msg = MessageInitShape<typeof EnvelopeSchema>["msg"];

/** An operation in flight: a query, a run, an attach, a subscription. */
export interface Op {
  frame(env: Envelope): void;
  closed(err: Error): void;
}

export class Connection {
  readonly socket: Socket;
  hello!: HelloReply;
  features = new Set<string>();
  private decoder = new FrameDecoder();
  private ops = new Map<bigint, Op>();
  private nextId = 1n;
  private paused = new Set<object>();
  private lastError?: Error;
  private isClosed = false;
  private greeted?: (env: Envelope) => void;

  private constructor(socket: Socket) {
    this.socket = socket;
  }

  /** Connects and greets; rejects with the socket's error (code ENOENT...). */
  static open(path: string, clientName: string, timeoutMs: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = netConnect(path);
      const conn = new Connection(socket);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ConnectionClosedError(`no HelloReply from sbxd at ${path} within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (e: Error): void => {
        clearTimeout(timer);
        reject(e);
      };
      socket.once("error", fail);
      socket.once("connect", () => {
        conn.greeted = (env) => {
          clearTimeout(timer);
          socket.off("error", fail);
          conn.greeted = undefined;
          if (env.msg.case === "helloReply") {
            conn.hello = env.msg.value;
            conn.features = new Set(env.msg.value.features);
            // Every frame is routed by its request id: a daemon that does
            // not echo them (protocol 1) would have replies misrouted.
            if (!conn.features.has("request-id") || !conn.features.has("multiplex")) {
              socket.destroy();
              reject(new ConnectionClosedError(`sbxd ${conn.hello.daemonVersion || "(unknown version)"} at ${path} is too old for this client (no request ids): update sbx`));
              return;
            }
            resolve(conn);
          } else {
            socket.destroy();
            if (env.msg.case === "error") reject(new SbxError(env.msg.value.code, env.msg.value.message));
            else reject(new ConnectionClosedError(`sbxd answered Hello with ${env.msg.case}`));
          }
        };
        conn.send({ case: "hello", value: { protocolVersion: ProtocolVersion.PROTOCOL_VERSION, clientName } }, 0n);
      });
      socket.on("data", (d: Buffer) => conn.onData(d));
      socket.on("error", (e) => (conn.lastError ??= e));
      socket.on("close", () => {
        clearTimeout(timer);
        if (conn.greeted) reject(conn.lastError ?? new ConnectionClosedError());
        conn.onClose();
      });
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** An id no operation in flight has. */
  allocId(): bigint {
    while (this.ops.has(this.nextId)) this.nextId++;
    return this.nextId++;
  }

  register(id: bigint, op: Op): void {
    if (this.isClosed) {
      queueMicrotask(() => op.closed(this.lastError ?? new ConnectionClosedError()));
      return;
    }
    this.ops.set(id, op);
  }

  release(id: bigint, op: Op): void {
    if (this.ops.get(id) === op) this.ops.delete(id);
  }

  /** Sends one frame; false when the socket's buffer is full (see drained). */
  send(msg: Msg, requestId: bigint): boolean {
    if (this.isClosed) return true;
    return this.socket.write(encodeFrame(create(EnvelopeSchema, { msg, requestId })));
  }

  drained(): Promise<void> {
    if (this.isClosed || !this.socket.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.socket.off("drain", done);
        this.socket.off("close", done);
        resolve();
      };
      this.socket.on("drain", done);
      this.socket.on("close", done);
    });
  }

  /** A query: one reply (or an Error) under a fresh id. */
  query<C extends NonNullable<Envelope["msg"]["case"]>>(
    msg: Msg,
    reply: C,
  ): Promise<Extract<Envelope["msg"], { case: C }>["value"]> {
    return new Promise((resolve, reject) => {
      const id = this.allocId();
      const op: Op = {
        frame: (env) => {
          this.release(id, op);
          if (env.msg.case === reply) resolve(env.msg.value as never);
          else if (env.msg.case === "error")
            reject(new SbxError(env.msg.value.code, env.msg.value.message));
          else reject(new SbxError(0, `unexpected ${env.msg.case} for ${msg?.case}`));
        },
        closed: reject,
      };
      this.register(id, op);
      this.send(msg, id);
    });
  }

  /** A stream a reader lags on: stop reading the socket (the daemon then
   * paces the command, docs/protocol.md "Flow control"). */
  pause(key: object): void {
    this.paused.add(key);
    this.socket.pause();
  }

  resume(key: object): void {
    if (this.paused.delete(key) && this.paused.size === 0 && !this.isClosed)
      this.socket.resume();
  }

  /** Half-close: the end of our requests and of every run's stdin. */
  end(): void {
    if (!this.isClosed) this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(d: Buffer): void {
    let frames: Envelope[];
    try {
      frames = this.decoder.push(d);
    } catch (e) {
      this.lastError = new SbxError(1, (e as Error).message);
      this.socket.destroy();
      return;
    }
    for (const env of frames) {
      if (this.greeted) {
        this.greeted(env);
        continue;
      }
      const op = this.ops.get(env.requestId);
      if (env.msg.case === "error") {
        const e = env.msg.value;
        const err = new SbxError(e.code, e.message, e.approvalRequestId);
        // The connection's own error: the daemon closes after it, and
        // every operation ends with it.
        if (err.endsConnection) {
          this.lastError = err;
          continue;
        }
      }
      op?.frame(env);
    }
  }

  private onClose(): void {
    this.isClosed = true;
    const err = this.lastError ?? new ConnectionClosedError();
    const ops = [...this.ops.values()];
    this.ops.clear();
    for (const op of ops) op.closed(err);
  }
}
