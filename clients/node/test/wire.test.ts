// Framing on bytes alone: the example of docs/protocol.md, frames split at
// every byte, and a length over the limit refused before buffering.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { EnvelopeSchema } from "../src/gen/sbx_pb.js";
import { FRAME_MAX, FrameDecoder, encodeFrame } from "../src/wire.js";

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ""), "hex");

test("decodes docs/protocol.md's frames, fed a byte at a time", () => {
  const bytes = Buffer.concat([
    hex("00 00 00 0b  5a 06 08 81 08 10 92 21  c0 0c 01"),
    hex("00 00 00 0c  72 07 08 01 12 03 68 69 0a  c0 0c 01"),
  ]);
  const d = new FrameDecoder();
  const got = [];
  for (const b of bytes) got.push(...d.push(Buffer.from([b])));
  assert.equal(got.length, 2);
  assert.equal(got[0].msg.case, "runStarted");
  assert.equal(got[0].requestId, 1n);
  if (got[0].msg.case === "runStarted") {
    assert.equal(got[0].msg.value.sessionId, 1025n);
    assert.equal(got[0].msg.value.pid, 4242);
  }
  assert.equal(got[1].msg.case, "output");
  if (got[1].msg.case === "output") assert.equal(Buffer.from(got[1].msg.value.data).toString(), "hi\n");
  assert.equal(d.pending, 0);
});

test("encodes as docs/protocol.md shows", () => {
  const env = create(EnvelopeSchema, {
    msg: { case: "listSessions", value: {} },
    requestId: 2n,
  });
  assert.deepEqual(encodeFrame(env), hex("00 00 00 06  92 01 00  c0 0c 02"));
});

test("a length over 1 MiB is refused before its body arrives", () => {
  const d = new FrameDecoder();
  const head = Buffer.alloc(4);
  head.writeUInt32BE(FRAME_MAX + 1);
  assert.throws(() => d.push(head), RangeError);
  head.writeUInt32BE(FRAME_MAX);
  assert.deepEqual(new FrameDecoder().push(head), []);
});

test("several frames in one chunk", () => {
  const one = encodeFrame(create(EnvelopeSchema, { msg: { case: "ack", value: {} }, requestId: 7n }));
  const got = new FrameDecoder().push(Buffer.concat([one, one, one.subarray(0, 3)]));
  assert.deepEqual(got.map((e) => e.requestId), [7n, 7n]);
});
