// Streaming runs against a real sbxd: 50 MB through cat byte for byte,
// stdout and stderr apart, exit codes, and stdin paced by credit (a
// command that does not read leaves the client waiting, not the
// connection stuck).
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { connect, type Sbx } from "../src/index.js";
import { readAll, startDaemon, waitFor, type Daemon } from "./daemon.js";

let d: Daemon;
let sbx: Sbx;
before(async () => {
  d = await startDaemon("stream");
  sbx = await connect({ socket: d.socket, autostart: false, clientName: "node-test" });
});
after(async () => {
  sbx.close();
  assert.equal(await d.stop(), 0, "sbxd exits 0 on SIGTERM");
  d.cleanup();
});

const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

test("50 MB through cat come back byte for byte", async () => {
  const data = randomBytes(50 * 1024 * 1024);
  const h = sbx.run(["cat"], { cwd: d.ws });
  const out = readAll(h.stdout);
  h.stdin.end(data);
  const got = await out;
  const st = await h.exit;
  assert.equal(st.code, 0);
  assert.equal(got.length, data.length);
  assert.equal(sha(got), sha(data));
});

test("stdout and stderr stay apart; the exit code comes back", async () => {
  const h = sbx.run(["sh", "-c", "echo out; echo err >&2; exit 3"], { cwd: d.ws });
  const [out, err, st] = await Promise.all([readAll(h.stdout), readAll(h.stderr), h.exit]);
  assert.equal(out.toString(), "out\n");
  assert.equal(err.toString(), "err\n");
  assert.equal(st.code, 3);
  assert.equal(st.signal, null);
  assert.ok(st.sessionId > 0n);
});

test("the workspace is writable and the file lands on the host", async () => {
  const h = sbx.run(["sh", "-c", "echo made >made.txt"], { cwd: d.ws });
  assert.equal((await h.exit).code, 0);
  const { readFileSync } = await import("node:fs");
  assert.equal(readFileSync(`${d.ws}/made.txt`, "utf8"), "made\n");
});

test("stdin beyond the credit waits in the client; other requests still pass", async () => {
  assert.ok(sbx.features.has("stdin-credit"));
  // The command never reads stdin. Without credit the daemon would stop
  // reading the connection past 4 MiB and the status query below would
  // never be answered.
  const h = sbx.run(["sh", "-c", "echo ready; exec sleep 60"], { cwd: d.ws });
  await waitFor(h.stdout, "ready");
  let written = false;
  h.stdin.write(Buffer.alloc(8 * 1024 * 1024, 0x61), () => (written = true));
  const st = await sbx.status();
  assert.ok(st.sessions >= 1);
  assert.equal(written, false, "8 MiB cannot have been sent on a 1 MiB credit");
  h.kill("SIGKILL");
  const ex = await h.exit;
  assert.equal(ex.signal, "SIGKILL");
});

test("a timeout ends the command with SIGTERM and says so", async () => {
  const h = sbx.run(["sleep", "60"], { cwd: d.ws, timeout: 200 });
  const st = await h.exit;
  assert.equal(st.timedOut, true);
  assert.equal(st.signal, "SIGTERM");
});

test("many runs at once on one connection", async () => {
  const hs = Array.from({ length: 8 }, (_, i) => sbx.run(["sh", "-c", `echo ${i}`], { cwd: d.ws }));
  const outs = await Promise.all(hs.map((h) => readAll(h.stdout)));
  assert.deepEqual(outs.map((o) => o.toString()), hs.map((_, i) => `${i}\n`));
  for (const h of hs) assert.equal((await h.exit).code, 0);
});

test("a stream destroyed unread does not stall the connection", { timeout: 30000 }, async () => {
  const h = sbx.run(["head", "-c", "16777216", "/dev/zero"], { cwd: d.ws });
  h.stdout.destroy();
  const err = readAll(h.stderr);
  const st = await h.exit;
  assert.equal(st.code, 0);
  assert.equal((await err).length, 0);
  assert.ok((await sbx.status()).pid > 0);
});
