// The rest of the API against a real sbxd: typed errors (and a connection
// that goes on after a request's error), lifecycle events, describe,
// policy explain and show, status, long-lived sandboxes, and autostart.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { connect, ConnectError, ErrorCode, SbxError, type Sbx } from "../src/index.js";
import { readAll, scratch, startDaemon, type Daemon } from "./daemon.js";

let d: Daemon;
let sbx: Sbx;
before(async () => {
  d = await startDaemon("api");
  sbx = await connect({ socket: d.socket, autostart: false });
});
after(async () => {
  sbx.close();
  assert.equal(await d.stop(), 0);
  d.cleanup();
});

const isCode = (code: ErrorCode) => (e: unknown) => e instanceof SbxError && e.code === code && !e.endsConnection;

test("errors carry the protocol's codes and end only their request", async () => {
  await assert.rejects(sbx.run([], { cwd: d.ws }).exit, isCode(ErrorCode.INVALID));
  await assert.rejects(sbx.run(["true"], { cwd: "relative" }).exit, isCode(ErrorCode.INVALID));
  await assert.rejects(sbx.run(["true"], { cwd: d.ws, workspace: "/" }).exit, isCode(ErrorCode.INVALID));
  await assert.rejects(sbx.killSession(987654321), isCode(ErrorCode.NOT_FOUND));
  await assert.rejects(sbx.sandbox.destroy(987654321), isCode(ErrorCode.NOT_FOUND));
  const e = await sbx.run([], { cwd: d.ws }).exit.catch((x: SbxError) => x);
  assert.equal((e as SbxError).codeName, "INVALID");
  // The connection still works.
  const st = await sbx.status();
  assert.ok(st.pid > 0);
  assert.equal(st.socket, d.socket);
});

test("a command that does not exist: exit 127 with the reason", async () => {
  const st = await sbx.run(["/nonexistent/cmd"], { cwd: d.ws }).exit;
  assert.equal(st.code, 127);
  assert.match(st.execError, /not found/);
});

test("events: a run's start and end, in order, with its id", async () => {
  const events = sbx.events({ kinds: ["sessions"] });
  await events.ready;
  const h = sbx.run(["true"], { cwd: d.ws });
  const { sessionId } = await h.started;
  await h.exit;
  const types: string[] = [];
  for await (const e of events) {
    if ((e.type === "sessionStarted" && e.value.sessionId === sessionId) ||
        (e.type === "sessionExited" && e.value.sessionId === sessionId)) {
      types.push(e.type);
      if (e.type === "sessionExited") {
        assert.equal(e.value.code, 0);
        break;
      }
    }
  }
  assert.deepEqual(types, ["sessionStarted", "sessionExited"]);
});

test("a violation reaches the run's handle and the summary", async () => {
  // No rule allows this host: the proxy refuses it and says so, live and
  // in the words after the run.
  const h = sbx.run(["curl", "-sS", "--noproxy", "", "-o", "/dev/null", "-w", "%{http_code}\n", "http://blocked.test/"], { cwd: d.ws });
  const seen: string[] = [];
  h.on("violation", (v: { kind: string; target: string }) => seen.push(`${v.kind} ${v.target}`));
  const out = readAll(h.stdout);
  const st = await h.exit;
  assert.equal((await out).toString(), "403\n");
  assert.deepEqual(seen, ["network blocked.test:80"]);
  assert.ok(st.violations >= 1);
  assert.ok(st.summaryLines.some((l) => l.includes("blocked.test")), st.summaryLines.join("\n"));
});

test("events(): violations of every session, from another connection", async () => {
  const events = sbx.events();
  await events.ready;
  const h = sbx.run(["curl", "-sS", "--noproxy", "", "-o", "/dev/null", "http://watched.test/"], { cwd: d.ws });
  const { sessionId } = await h.started;
  await h.exit;
  for await (const e of events) {
    if (e.type === "violation" && e.value.sessionId === sessionId) {
      assert.equal(e.value.kind, "network");
      assert.equal(e.value.target, "watched.test:80");
      break;
    }
  }
});

test("run options: the request's policy narrows, setEnv sets, env is offered", async () => {
  writeFileSync(join(d.ws, "secret.txt"), "s3cret\n");
  const open = sbx.run(["cat", "secret.txt"], { cwd: d.ws });
  assert.equal((await readAll(open.stdout)).toString(), "s3cret\n");
  const masked = sbx.run(["cat", "secret.txt"], { cwd: d.ws, policy: { denyRead: [join(d.ws, "secret.txt")] } });
  const [out, st] = await Promise.all([readAll(masked.stdout), masked.exit]);
  assert.notEqual(st.code, 0);
  assert.equal(out.length, 0, "denyRead from the request's policy masks the file");
  const env = sbx.run(["sh", "-c", "echo $NODE_TEST_A $NODE_TEST_B"], { cwd: d.ws, env: { PATH: "/usr/bin:/bin", NODE_TEST_A: "offered" }, setEnv: { NODE_TEST_B: "set" } });
  assert.equal((await readAll(env.stdout)).toString(), "offered set\n");
});

test("half-close (sbx.end()): stdin ends, output and exit still come, then the daemon closes", async () => {
  const c = await connect({ socket: d.socket, autostart: false });
  const h = c.run(["sh", "-c", "cat; echo done"], { cwd: d.ws });
  const out = readAll(h.stdout);
  h.stdin.write("before end\n");
  await h.started;
  const closed = c.end();
  assert.equal((await h.exit).code, 0);
  assert.equal((await out).toString(), "before end\ndone\n");
  await closed;
});

test("describe, policy explain and show, status", async () => {
  const desc = await sbx.describe({ workspace: d.ws });
  assert.match(desc.text, new RegExp(d.ws.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.equal(typeof desc.json, "object");
  const ex = await sbx.policy.explain({ workspace: d.ws, path: join(d.ws, "f"), write: true });
  assert.equal(ex.verdict, "allow");
  const out = await sbx.policy.explain({ workspace: d.ws, path: "/etc/passwd", write: true });
  assert.equal(out.verdict, "deny");
  const shown = (await sbx.policy.show({ workspace: d.ws })) as Record<string, unknown>;
  assert.ok("filesystem" in shown);
  const st = await sbx.status();
  assert.ok(st.version.length > 0);
});

test("a long-lived sandbox: create, exec twice (state kept), destroy", async () => {
  if (!sbx.features.has("sandboxes")) return;
  const info = await sbx.sandbox.create({ cwd: d.ws, workspace: d.ws });
  assert.ok(info.id > 0n);
  const a = sbx.sandbox.exec(info.id, ["sh", "-c", "echo kept >/tmp/state"], { cwd: d.ws });
  assert.equal((await a.exit).code, 0);
  const b = sbx.sandbox.exec(info.id, ["cat", "/tmp/state"], { cwd: d.ws });
  const [out, st] = await Promise.all([readAll(b.stdout), b.exit]);
  assert.equal(out.toString(), "kept\n", "the sandbox's /tmp lives between commands");
  assert.equal(st.code, 0);
  assert.ok((await sbx.sandbox.list()).some((s) => s.id === info.id));
  await sbx.sandbox.destroy(info.id);
  assert.ok(!(await sbx.sandbox.list()).some((s) => s.id === info.id));
  await assert.rejects(sbx.sandbox.exec(info.id, ["true"], { cwd: d.ws }).exit, isCode(ErrorCode.NOT_FOUND));
});

test("no daemon and no autostart: a ConnectError naming the socket", async () => {
  const dir = scratch("nodaemon");
  const socket = join(dir, "none.sock");
  await assert.rejects(connect({ socket, autostart: false }), (e: unknown) => e instanceof ConnectError && e.socket === socket);
});

test("autostart: connect() starts sbxd when none listens", async () => {
  const dir = scratch("autostart");
  mkdirSync(join(dir, "run"), { mode: 0o700 });
  const socket = join(dir, "run", "sbxd.sock");
  const started = await connect({ socket, sbxd: join(d.bin, "sbxd") });
  try {
    const st = await started.status();
    assert.equal(st.socket, socket);
    const stat = (pid: number | string): string[] => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    assert.notEqual(Number(stat(st.pid)[1]), process.pid, "the daemon is not our child");
    assert.notEqual(stat(st.pid)[3], stat("self")[3], "it is in a session of its own");
  } finally {
    await started.shutdown();
  }
});
