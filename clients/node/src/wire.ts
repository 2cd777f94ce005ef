// Framing (docs/protocol.md, "Framing"): a 4-byte big-endian length, then
// one Envelope. Pure: no sockets here, so the decoder is tested on bytes.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { EnvelopeSchema, type Envelope } from "./gen/sbx_pb.js";

export const HEADER = 4;
/** Largest Envelope the daemon accepts or sends (proto/wire.h). */
export const FRAME_MAX = 1 << 20;
/** StdinData chunk: well under FRAME_MAX with the Envelope around it. */
export const STDIN_CHUNK = 64 * 1024;

export function encodeFrame(env: Envelope): Buffer {
  const body = toBinary(EnvelopeSchema, env);
  if (body.length > FRAME_MAX)
    throw new RangeError(`frame of ${body.length} bytes exceeds ${FRAME_MAX}`);
  const out = Buffer.allocUnsafe(HEADER + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, HEADER);
  return out;
}

/**
 * Splits a byte stream into Envelopes. A length over FRAME_MAX is refused
 * before anything is buffered for it, as the daemon does.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private have = 0;

  push(data: Buffer): Envelope[] {
    this.chunks.push(data);
    this.have += data.length;
    const out: Envelope[] = [];
    for (;;) {
      if (this.have < HEADER) break;
      const head = this.peek(HEADER);
      const n = head.readUInt32BE(0);
      if (n > FRAME_MAX)
        throw new RangeError(`frame length ${n} exceeds ${FRAME_MAX}`);
      if (this.have < HEADER + n) break;
      const frame = this.take(HEADER + n);
      out.push(fromBinary(EnvelopeSchema, frame.subarray(HEADER)));
    }
    return out;
  }

  /** Bytes of a frame begun and not complete. */
  get pending(): number {
    return this.have;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  private take(n: number): Buffer {
    const first = this.peek(n);
    const frame = first.subarray(0, n);
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.have -= n;
    return frame;
  }
}
