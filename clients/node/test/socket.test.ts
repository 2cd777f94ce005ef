// Where the client looks for sbxd (docs/protocol.md, "Finding the
// socket"), on the environment alone: no daemon needed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { existsSync } from "node:fs";
import { findSocket } from "../src/socket.js";

const uid = process.getuid!();
const priv = `/run/sbx/${uid}/sbxd.sock`;

test("$SBX_SOCKET first", () => {
  assert.equal(findSocket({ SBX_SOCKET: "/x/y.sock", XDG_RUNTIME_DIR: "/run/user/1" }), "/x/y.sock");
});

test("then $XDG_RUNTIME_DIR/sbx when absolute", { skip: existsSync(priv) && "a root daemon serves this user here" }, () => {
  assert.equal(findSocket({ XDG_RUNTIME_DIR: "/r/u" }), "/r/u/sbx/sbxd.sock");
  const rel = findSocket({ XDG_RUNTIME_DIR: "relative" });
  assert.notEqual(rel, "relative/sbx/sbxd.sock", "a relative XDG_RUNTIME_DIR is not used");
  assert.ok(rel === `/run/user/${uid}/sbx/sbxd.sock` || rel === `/tmp/sbx-${uid}/sbxd.sock`, rel);
});
