// Typed errors: every Error frame becomes an SbxError carrying the
// protocol's code (docs/protocol.md, "Errors and what they end").
import { ErrorCode } from "./gen/sbx_pb.js";

export { ErrorCode };

/** Codes after which the daemon closes the connection. */
const ENDS_CONNECTION = new Set<ErrorCode>([
  ErrorCode.BAD_FRAME,
  ErrorCode.UNKNOWN_MESSAGE,
  ErrorCode.BAD_ORDER,
  ErrorCode.BAD_VERSION,
]);

export function codeName(code: ErrorCode): string {
  return ErrorCode[code] ?? `CODE_${code}`;
}

export class SbxError extends Error {
  /** The protocol's code (ErrorCode.NOT_FOUND, ...). */
  readonly code: ErrorCode;
  /** Its name: "NOT_FOUND", "INVALID", ... */
  readonly codeName: string;
  /** Set when the error is about one ApprovalDecision (it ends nothing). */
  readonly approvalRequestId: bigint;

  constructor(code: ErrorCode, message: string, approvalRequestId = 0n) {
    super(`${codeName(code)}: ${message}`);
    this.name = "SbxError";
    this.code = code;
    this.codeName = codeName(code);
    this.approvalRequestId = approvalRequestId;
  }

  /** True when the daemon closes the connection after this error. */
  get endsConnection(): boolean {
    return this.approvalRequestId === 0n && ENDS_CONNECTION.has(this.code);
  }
}

/** The connection went (the daemon stopped, a network error, close()). */
export class ConnectionClosedError extends SbxError {
  constructor(message = "connection to sbxd closed") {
    super(ErrorCode.UNSPECIFIED, message);
    this.name = "ConnectionClosedError";
  }
}

/** No daemon could be reached or started. */
export class ConnectError extends Error {
  readonly socket: string;
  constructor(socket: string, message: string) {
    super(message);
    this.name = "ConnectError";
    this.socket = socket;
  }
}

/** exit of a handle that was detached: the session goes on without it. */
export class DetachedError extends Error {
  readonly sessionId: bigint;
  constructor(sessionId: bigint) {
    super(`session ${sessionId} detached`);
    this.name = "DetachedError";
    this.sessionId = sessionId;
  }
}
