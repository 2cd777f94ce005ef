// A kept session outlives the connection that started it: detach() closes
// that connection, and a client of its own takes it up with attach():
// output replayed, stdin delivered, the exit status at the end.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect, DetachedError, ErrorCode, SbxError } from "../src/index.js";
import { readAll, startDaemon, waitFor, type Daemon } from "./daemon.js";

let d: Daemon;
before(async () => {
  d = await startDaemon("attach");
});
after(async () => {
  assert.equal(await d.stop(), 0);
  d.cleanup();
});

test("attach after the first connection closed", async () => {
  const first = await connect({ socket: d.socket, autostart: false });
  const h = first.run(["sh", "-c", "echo first; read x; echo got $x"], { cwd: d.ws, keep: 30000 });
  await waitFor(h.stdout, "first\n");
  const id = await h.detach();
  await assert.rejects(h.exit, DetachedError);
  first.close();

  // The session is still there, for a client that never saw it.
  const second = await connect({ socket: d.socket, autostart: false });
  const sessions = await second.sessions();
  assert.ok(sessions.some((s) => s.id === id), "the kept session is listed");
  const a = second.attach(id);
  const started = await a.started;
  assert.equal(started.sessionId, id);
  assert.equal(started.attached?.outputReplayed, 6n, "the ring replays 'first\\n'");
  const out = readAll(a.stdout);
  a.stdin.write("hello\n");
  const st = await a.exit;
  assert.equal(st.code, 0);
  assert.equal((await out).toString(), "first\ngot hello\n");
  second.close();
});

test("attach to a session someone holds is BUSY; an unknown one NOT_FOUND", async () => {
  const sbx = await connect({ socket: d.socket, autostart: false });
  const h = sbx.run(["sh", "-c", "echo up; exec sleep 60"], { cwd: d.ws, keep: true });
  await waitFor(h.stdout, "up");
  const { sessionId } = await h.started;
  const other = await connect({ socket: d.socket, autostart: false });
  const busy = other.attach(sessionId);
  await assert.rejects(busy.exit, (e: unknown) => e instanceof SbxError && e.code === ErrorCode.BUSY);
  const none = other.attach(987654321n);
  await assert.rejects(none.exit, (e: unknown) => e instanceof SbxError && e.code === ErrorCode.NOT_FOUND);
  h.kill("SIGKILL");
  assert.equal((await h.exit).signal, "SIGKILL");
  other.close();
  sbx.close();
});
