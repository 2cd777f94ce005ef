// The handshake against fake daemons (a Unix socket server in this
// process): a daemon too old to echo request ids, one that refuses the
// Hello, one that never answers. No sbxd needed.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { connect, ConnectionClosedError, ErrorCode, SbxError } from "../src/index.js";
import { EnvelopeSchema, type Envelope } from "../src/gen/sbx_pb.js";
import { FrameDecoder, encodeFrame } from "../src/wire.js";

const dir = mkdtempSync(join(tmpdir(), "sbx-node-hello."));
const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A server answering the first frame with reply(hello). */
function fake(name: string, reply: (hello: Envelope) => Envelope | undefined): Promise<string> {
  const path = join(dir, name);
  const srv = createServer((c: Socket) => {
    const d = new FrameDecoder();
    c.on("data", (b: Buffer) => {
      for (const env of d.push(b)) {
        const r = reply(env);
        if (r) c.write(encodeFrame(r));
      }
    });
    c.on("error", () => {});
  });
  servers.push(srv);
  return new Promise((resolve) => srv.listen(path, () => resolve(path)));
}

test("Hello says protocol 2 and the client's name", async () => {
  let seen: Envelope | undefined;
  const socket = await fake("name", (h) => {
    seen = h;
    return create(EnvelopeSchema, { msg: { case: "helloReply", value: { protocolVersion: 2, features: ["request-id", "multiplex"] } } });
  });
  const sbx = await connect({ socket, autostart: false, clientName: "my-ide" });
  assert.ok(seen && seen.msg.case === "hello");
  if (seen?.msg.case === "hello") {
    assert.equal(seen.msg.value.protocolVersion, 2);
    assert.equal(seen.msg.value.clientName, "my-ide");
  }
  sbx.close();
});

test("a daemon without request ids is refused, saying why", async () => {
  const socket = await fake("old", () =>
    create(EnvelopeSchema, { msg: { case: "helloReply", value: { protocolVersion: 1, daemonVersion: "0.1" } } }),
  );
  await assert.rejects(connect({ socket, autostart: false }), (e: unknown) =>
    e instanceof ConnectionClosedError && /sbxd 0\.1 .* too old/.test(e.message));
});

test("an Error for the Hello: an SbxError with its code", async () => {
  const socket = await fake("refuse", () =>
    create(EnvelopeSchema, { msg: { case: "error", value: { code: ErrorCode.PERMISSION, message: "uid 1234 is not served" } } }),
  );
  await assert.rejects(connect({ socket, autostart: false }), (e: unknown) =>
    e instanceof SbxError && e.code === ErrorCode.PERMISSION && /not served/.test(e.message));
});

test("no HelloReply within connectTimeout", async () => {
  const socket = await fake("mute", () => undefined);
  const t0 = Date.now();
  await assert.rejects(connect({ socket, autostart: false, connectTimeout: 300 }), /no HelloReply .* within 300 ms/);
  assert.ok(Date.now() - t0 >= 290);
});
