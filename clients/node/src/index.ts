// sbx-client: run commands in sbx sandboxes from Node, as child_process
// runs them on the host.
export { connect, Sbx } from "./client.js";
export type { ConnectOptions, RunOptions, SandboxOptions, PolicyOptions, ExplainTarget } from "./client.js";
export { RunHandle } from "./run.js";
export type { Answer, ApprovalHandler, ExitResult, Started, SignalTargetName } from "./run.js";
export { EventStream } from "./events.js";
export type { EventsOptions, EventKindName, SbxEvent } from "./events.js";
export { SbxError, ConnectionClosedError, ConnectError, DetachedError, ErrorCode } from "./errors.js";
export { findSocket } from "./socket.js";
export { FrameDecoder, encodeFrame, FRAME_MAX } from "./wire.js";
export * as proto from "./gen/sbx_pb.js";
