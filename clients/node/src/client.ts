// The library's entry: connect() and the Sbx object, whose methods are the
// protocol's requests in child_process's shape (run, attach, sandboxes,
// approvals, events, queries).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Connection, type Msg, type Op } from "./connection.js";
import { ConnectError, SbxError } from "./errors.js";
import { EventStream, type EventsOptions } from "./events.js";
import {
  IoMode,
  WindowSizeSchema,
  type Capabilities,
  type DescribeReply,
  type PolicyExplainReply,
  type RunRequestSchema,
  type SandboxInfo,
  type SessionInfo,
  type StatusReply,
} from "./gen/sbx_pb.js";
import { RunHandle, answerApproval, signalNumber, type ApprovalHandler } from "./run.js";
import { findDaemon, findSocket, startDaemon } from "./socket.js";

export interface ConnectOptions {
  /** The daemon's socket (default: $SBX_SOCKET, then the usual places). */
  socket?: string;
  /** Start sbxd when none listens (default true). */
  autostart?: boolean;
  /** The sbxd to start (default: $SBXD, then sbxd in $PATH). */
  sbxd?: string;
  /** Hello.client_name: approvers are told who answered by this name. */
  clientName?: string;
  /** How long to wait for the daemon's HelloReply (default 5000 ms). */
  connectTimeout?: number;
}

/** The request's policy layer: it can only narrow the other layers. */
export interface PolicyOptions {
  allowDomains?: string[];
  denyRead?: string[];
  allowWrite?: string[];
  /** A policy document (the text of `sbxctl run --policy FILE`). */
  json?: string | object;
  /** Where json came from, for messages. */
  file?: string;
}

export interface RunOptions {
  /** Absolute; default process.cwd(). */
  cwd?: string;
  /** The writable root of the sandbox; default: the cwd. */
  workspace?: string;
  /** The environment offered to the command (default process.env); the
   * policy decides which names get through. */
  env?: Record<string, string | undefined>;
  /** Variables set as given, not filtered (sbxctl run -e). */
  setEnv?: Record<string, string>;
  tty?: boolean;
  cols?: number;
  rows?: number;
  /** Milliseconds: SIGTERM, then SIGKILL killGrace later. */
  timeout?: number;
  killGrace?: number;
  policy?: PolicyOptions;
  umask?: number;
  /** Keep the session when this client goes (detach(), attach()); a
   * number is the grace in ms before an unattached session is killed. A
   * kept run has a connection of its own. */
  keep?: boolean | number;
  /** Answers this run's approval requests (else sbx.onApproval's handler,
   * or another approver, or the daemon's timeout denies). */
  onApproval?: ApprovalHandler;
}

export type SandboxOptions = Pick<RunOptions, "cwd" | "workspace" | "env" | "setEnv" | "policy" | "umask"> & {
  /** No command running this long: destroyed (default 15 minutes). */
  idleTimeout?: number;
  /** Destroyed this long after creation (default: never). */
  lifetime?: number;
};

export type ExplainTarget = { workspace?: string } & (
  | { path: string; write?: boolean }
  | { host: string }
  | { env: string; value?: string }
  | { limit: string }
);

function envList(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
}

function overrides(p?: PolicyOptions): MessageInitShape<typeof RunRequestSchema>["overrides"] {
  if (!p) return undefined;
  return {
    allowDomains: p.allowDomains ?? [],
    denyRead: p.denyRead ?? [],
    allowWrite: p.allowWrite ?? [],
    policyJson: p.json === undefined ? "" : typeof p.json === "string" ? p.json : JSON.stringify(p.json),
    policyFile: p.file ?? "",
  };
}

function baseRequest(o: RunOptions | SandboxOptions): MessageInitShape<typeof RunRequestSchema> {
  const cwd = o.cwd ?? process.cwd();
  return {
    cwd,
    workspace: o.workspace ?? "",
    env: envList(o.env ?? process.env),
    setEnv: envList(o.setEnv ?? {}),
    overrides: overrides(o.policy),
    umask: o.umask ?? 0,
    umaskSet: o.umask !== undefined,
    ioMode: IoMode.STREAMING,
  };
}

export class Sbx {
  /** The daemon's socket. */
  readonly socket: string;
  private conn: Connection;
  private opts: ConnectOptions;
  private approver?: ApprovalHandler;
  private approverReady?: Promise<void>;
  private others = new Set<Connection>();

  constructor(conn: Connection, socket: string, opts: ConnectOptions) {
    this.conn = conn;
    this.socket = socket;
    this.opts = opts;
  }

  /** Features the daemon has, by name (docs/protocol.md). */
  get features(): ReadonlySet<string> {
    return this.conn.features;
  }
  get daemonVersion(): string {
    return this.conn.hello.daemonVersion;
  }
  /** What this host enforces; caps.degraded lists what is weaker. */
  get caps(): Capabilities | undefined {
    return this.conn.hello.caps;
  }

  /**
   * Runs argv in a sandbox of its own, streaming its stdio. Errors (an
   * invalid request, a sandbox that could not be built) reject `exit`.
   */
  run(argv: string[], opts: RunOptions = {}): RunHandle {
    return this.startRun(argv, opts, 0n);
  }

  /** Takes up a session kept with {keep: true}, from any connection. */
  attach(sessionId: bigint | number, opts: { onApproval?: ApprovalHandler } = {}): RunHandle {
    return new RunHandle(
      this.conn,
      (credit) => ({ case: "attach", value: { sessionId: BigInt(sessionId), stdinCredit: credit } }),
      { onApproval: opts.onApproval },
    );
  }

  readonly sandbox = {
    /** A long-lived sandbox for many commands (docs/protocol.md). */
    create: async (opts: SandboxOptions = {}): Promise<SandboxInfo> => {
      const r = await this.conn.query(
        {
          case: "createSandbox",
          value: {
            spec: baseRequest(opts),
            idleTimeoutMs: opts.idleTimeout ?? 0,
            lifetimeMs: BigInt(opts.lifetime ?? 0),
          },
        },
        "sandboxCreated",
      );
      return r.sandbox!;
    },
    /** Runs argv in the sandbox; cwd is a path inside it. */
    exec: (sandboxId: bigint | number, argv: string[], opts: Omit<RunOptions, "policy"> = {}): RunHandle =>
      this.startRun(argv, opts, BigInt(sandboxId)),
    destroy: async (sandboxId: bigint | number): Promise<void> => {
      await this.conn.query({ case: "destroySandbox", value: { sandboxId: BigInt(sandboxId) } }, "ack");
    },
    list: async (): Promise<SandboxInfo[]> =>
      (await this.conn.query({ case: "listSandboxes", value: {} }, "sandboxList")).sandboxes,
  };

  readonly policy = {
    /** What the effective policy of a workspace says about one target. */
    explain: (t: ExplainTarget): Promise<PolicyExplainReply> =>
      this.conn.query(
        {
          case: "policyExplain",
          value: {
            workspace: t.workspace ?? process.cwd(),
            path: "path" in t ? t.path : "",
            write: "path" in t ? (t.write ?? false) : false,
            host: "host" in t ? t.host : "",
            env: "env" in t ? t.env : "",
            envValue: "env" in t ? (t.value ?? "") : "",
            limit: "limit" in t ? t.limit : "",
          },
        },
        "policyExplainReply",
      ),
    /** The effective policy of a workspace, every rule with its origin. */
    show: async (opts: { workspace?: string } = {}): Promise<unknown> =>
      JSON.parse(
        (await this.conn.query({ case: "policyShow", value: { workspace: opts.workspace ?? process.cwd() } }, "policyShowReply"))
          .json,
      ),
  };

  /** What a sandbox of the workspace allows, as text for a tool's
   * description and as a parsed document. */
  async describe(opts: { workspace?: string; env?: Record<string, string | undefined> } = {}): Promise<{ text: string; json: unknown; reply: DescribeReply }> {
    const r = await this.conn.query(
      { case: "describe", value: { workspace: opts.workspace ?? process.cwd(), env: envList(opts.env ?? process.env) } },
      "describeReply",
    );
    return { text: r.text, json: r.json ? JSON.parse(r.json) : undefined, reply: r };
  }

  status(): Promise<StatusReply> {
    return this.conn.query({ case: "status", value: {} }, "statusReply");
  }

  async sessions(): Promise<SessionInfo[]> {
    return (await this.conn.query({ case: "listSessions", value: {} }, "sessionList")).sessions;
  }

  async killSession(sessionId: bigint | number, sig: NodeJS.Signals | number = "SIGTERM"): Promise<void> {
    await this.conn.query({ case: "killSession", value: { sessionId: BigInt(sessionId), signo: signalNumber(sig) } }, "ack");
  }

  /** Stops the daemon (its sessions get SIGTERM); resolves once it is gone. */
  async shutdown(): Promise<void> {
    const gone = new Promise<void>((r) => (this.conn.closed ? r() : this.conn.socket.once("close", () => r())));
    await this.conn.query({ case: "shutdown", value: {} }, "ack");
    await gone;
  }

  /**
   * Answers approval requests of every session of the user (the approvals
   * broker: first answer wins). Resolves once subscribed; a second call
   * replaces the handler.
   */
  onApproval(handler: ApprovalHandler): Promise<void> {
    this.approver = handler;
    if (this.approverReady) return this.approverReady;
    const conn = this.conn;
    this.approverReady = new Promise((resolve, reject) => {
      const id = conn.allocId();
      const op: Op = {
        frame: (env) => {
          const m = env.msg;
          if (m.case === "ack") resolve();
          else if (m.case === "approvalRequest" && this.approver)
            void answerApproval(conn, id, m.value, this.approver);
          else if (m.case === "error" && m.value.approvalRequestId === 0n) {
            conn.release(id, op);
            this.approverReady = undefined;
            reject(new SbxError(m.value.code, m.value.message));
          }
        },
        closed: reject,
      };
      conn.register(id, op);
      conn.send({ case: "subscribe", value: { approver: true } }, id);
    });
    return this.approverReady;
  }

  /** Violations and the events asked for, until the iterator is left. */
  events(opts: EventsOptions = {}): EventStream {
    return new EventStream(this.extraConnection(), opts);
  }

  /** Closes the connection (and those of kept runs and events): runs of
   * this client that were not kept are killed. */
  close(): void {
    this.conn.destroy();
    for (const c of this.others) c.destroy();
  }

  /** Half-closes: no more requests; resolves once the daemon has answered
   * everything in flight and closed. */
  end(): Promise<void> {
    return new Promise((resolve) => {
      if (this.conn.closed) return resolve();
      this.conn.socket.once("close", () => resolve());
      this.conn.end();
    });
  }

  private extraConnection(): Promise<Connection> {
    const p = Connection.open(this.socket, this.opts.clientName ?? "sbx-node", this.opts.connectTimeout ?? 5000);
    return p.then((c) => {
      this.others.add(c);
      c.socket.once("close", () => this.others.delete(c));
      return c;
    });
  }

  private startRun(argv: string[], opts: RunOptions, sandboxId: bigint): RunHandle {
    const keep = opts.keep !== undefined && opts.keep !== false;
    const request = (credit: boolean): Msg => ({
        case: "run",
        value: {
          ...baseRequest(opts),
          argv,
          tty: opts.tty ?? false,
          winsize: opts.tty ? create(WindowSizeSchema, { rows: opts.rows ?? 0, cols: opts.cols ?? 0 }) : undefined,
          timeoutMs: opts.timeout ?? 0,
          killGraceMs: opts.killGrace ?? 0,
          keepOnDisconnect: keep,
          detachGraceMs: typeof opts.keep === "number" ? opts.keep : 0,
          stdinCredit: credit,
          sandboxId,
        },
      });
    // A kept run gets a connection of its own: detaching is closing it.
    return new RunHandle(keep ? this.extraConnection() : this.conn, request, {
      onApproval: opts.onApproval,
      keep,
      ownsConnection: keep,
    });
  }
}

function connError(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/**
 * Connects to the user's sbxd (finding its socket as docs/protocol.md
 * says), starting it when none listens and autostart is not false.
 */
export async function connect(opts: ConnectOptions = {}): Promise<Sbx> {
  const socket = opts.socket ?? findSocket();
  const name = opts.clientName ?? "sbx-node";
  const timeout = opts.connectTimeout ?? 5000;
  try {
    return new Sbx(await Connection.open(socket, name, timeout), socket, opts);
  } catch (e) {
    const code = connError(e);
    if (opts.autostart === false || (code !== "ENOENT" && code !== "ECONNREFUSED")) {
      if (e instanceof SbxError) throw e;
      throw new ConnectError(socket, `cannot connect to sbxd at ${socket}: ${(e as Error).message}`);
    }
  }
  await startDaemon(socket, findDaemon(opts.sbxd));
  return new Sbx(await Connection.open(socket, name, timeout), socket, opts);
}
