// A terminal session: tty names a pty, the window size is what was asked
// and follows resize(), and ^C written to the terminal interrupts the
// foreground command.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect, type Sbx } from "../src/index.js";
import { readAll, startDaemon, waitFor, type Daemon } from "./daemon.js";

let d: Daemon;
let sbx: Sbx;
before(async () => {
  d = await startDaemon("pty");
  sbx = await connect({ socket: d.socket, autostart: false });
});
after(async () => {
  sbx.close();
  assert.equal(await d.stop(), 0);
  d.cleanup();
});

test("tty prints a pty; stderr is the terminal too", async () => {
  const h = sbx.run(["sh", "-c", "tty; echo err >&2"], { cwd: d.ws, tty: true });
  const [out, err, st] = await Promise.all([readAll(h.stdout), readAll(h.stderr), h.exit]);
  assert.match(out.toString(), /^\/dev\/pts\/\d+\r\nerr\r\n$/);
  assert.equal(err.length, 0);
  assert.equal(st.code, 0);
});

test("stty size sees the size asked, then the resize", async () => {
  const h = sbx.run(["sh", "-c", "stty size; read x; stty size"], { cwd: d.ws, tty: true, cols: 100, rows: 30 });
  await waitFor(h.stdout, "30 100\r\n");
  h.resize(120, 40);
  h.stdin.write("\n");
  const rest = await waitFor(h.stdout, "40 120\r\n");
  assert.match(rest, /40 120\r\n$/);
  assert.equal((await h.exit).code, 0);
});

test("^C on the terminal interrupts the foreground command", async () => {
  const h = sbx.run(["sh", "-c", "echo ready; exec cat"], { cwd: d.ws, tty: true });
  await waitFor(h.stdout, "ready\r\n");
  h.stdin.write("\x03");
  const st = await h.exit;
  assert.equal(st.signal, "SIGINT");
  assert.equal(st.code, null);
});

test("signal() to the foreground group, as ^C would", async () => {
  // The kernel's TIOCSIG takes SIGINT, SIGQUIT and SIGTSTP only.
  const h = sbx.run(["sh", "-c", "echo ready; exec sleep 60"], { cwd: d.ws, tty: true });
  await waitFor(h.stdout, "ready\r\n");
  h.signal("SIGINT", "foreground");
  assert.equal((await h.exit).signal, "SIGINT");
});
