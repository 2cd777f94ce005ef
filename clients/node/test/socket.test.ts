// Where the client looks for sbxd (docs/protocol.md, "Finding the
// socket"), on the environment alone: no daemon needed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { existsSync } from "node:fs";
import { ConnectError } from "../src/errors.js";
import { findSocket } from "../src/socket.js";

const uid = process.getuid!();
const priv = `/run/sbx/${uid}/sbxd.sock`;

test("$SBX_SOCKET first", () => {
  assert.equal(findSocket({ SBX_SOCKET: "/x/y.sock", XDG_RUNTIME_DIR: "/run/user/1" }), "/x/y.sock");
});

test("then $XDG_RUNTIME_DIR/sbx when absolute", { skip: existsSync(priv) && "a root daemon serves this user here" }, () => {
  assert.equal(findSocket({ XDG_RUNTIME_DIR: "/r/u" }), "/r/u/sbx/sbxd.sock");
  // A relative one is not used: /run/user/UID, else /tmp/sbx-UID (or a
  // refusal, when that is not this user's directory).
  let rel: string;
  try {
    rel = findSocket({ XDG_RUNTIME_DIR: "relative" });
  } catch (e) {
    assert.ok(e instanceof ConnectError && e.socket === `/tmp/sbx-${uid}/sbxd.sock`, String(e));
    assert.match(e.message, /is not yours/);
    return;
  }
  assert.ok(rel === `/run/user/${uid}/sbx/sbxd.sock` || rel === `/tmp/sbx-${uid}/sbxd.sock`, rel);
});
