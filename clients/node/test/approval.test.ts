// Approvals: a host no rule decides is held by the proxy until a client
// answers. A run's own handler answers its requests; sbx.onApproval (the
// broker) answers those of runs other clients started, and the answer is
// what the host sees: one request through when allowed, none when denied.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { connect, type Sbx, type SbxEvent } from "../src/index.js";
import { readAll, startDaemon, type Daemon } from "./daemon.js";

let d: Daemon;
let server: Server;
let port = 0;
let hits = 0;
before(async () => {
  d = await startDaemon("approval", { network: { unknownHosts: "ask" } }, ["--ask-timeout", "20"]);
  server = createServer((_req, res) => {
    hits++;
    res.end("hello\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.close();
  assert.equal(await d.stop(), 0);
  d.cleanup();
});

// curl through the sandbox's proxy (loopback is exempt unless told not to
// be), printing the body or the status code.
const curl = (): string[] => ["curl", "-sS", "--noproxy", "", "-w", "%{http_code}\n", `http://127.0.0.1:${port}/`];

async function runCurl(sbx: Sbx, opts = {}): Promise<string> {
  const h = sbx.run(curl(), { cwd: d.ws, ...opts });
  const out = (await readAll(h.stdout)).toString();
  await h.exit;
  return out;
}

test("a run's own handler denies: 403 and the host saw nothing", async () => {
  const sbx = await connect({ socket: d.socket, autostart: false });
  const asked: string[] = [];
  const before = hits;
  const out = await runCurl(sbx, {
    onApproval: (req: { host: string; port: number }) => {
      asked.push(`${req.host}:${req.port}`);
      return "deny";
    },
  });
  assert.deepEqual(asked, [`127.0.0.1:${port}`]);
  assert.match(out, /403\n$/);
  assert.equal(hits, before, "the server got no request");
  sbx.close();
});

test("the broker answers a run another client started; events tell who", async () => {
  const ide = await connect({ socket: d.socket, autostart: false, clientName: "ide" });
  const asked: string[] = [];
  await ide.onApproval((req) => {
    asked.push(`${req.host}:${req.port} ${req.protocol}`);
    return "once";
  });
  const watcher = await connect({ socket: d.socket, autostart: false });
  const events = watcher.events({ kinds: ["approvals"] });
  await events.ready;

  const harness = await connect({ socket: d.socket, autostart: false, clientName: "harness" });
  const before = hits;
  const out = await runCurl(harness);
  assert.equal(out, "hello\n200\n");
  assert.equal(hits, before + 1, "allowed once: one request reached the server");
  assert.equal(asked.length, 1);
  assert.match(asked[0], new RegExp(`^127\\.0\\.0\\.1:${port} `));

  const seen: SbxEvent[] = [];
  for await (const e of events) {
    seen.push(e);
    if (e.type === "approvalAnswered") break;
  }
  const a = seen.find((e) => e.type === "approvalAsked");
  const b = seen.find((e) => e.type === "approvalAnswered");
  assert.ok(a && a.type === "approvalAsked" && a.value.port === port);
  assert.ok(b && b.type === "approvalAnswered");
  assert.equal(b.value.answeredBy, "ide");
  assert.equal(b.value.answer, 1);
  for (const c of [ide, watcher, harness]) c.close();
});

test("a handler that throws denies", async () => {
  const sbx = await connect({ socket: d.socket, autostart: false });
  const before = hits;
  const out = await runCurl(sbx, {
    onApproval: () => {
      throw new Error("no user here");
    },
  });
  assert.match(out, /403\n$/);
  assert.equal(hits, before);
  sbx.close();
});
