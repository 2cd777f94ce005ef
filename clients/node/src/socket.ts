// Where sbxd listens and how to start it when nobody does
// (docs/protocol.md, "Finding the socket" and "Starting sbxd when none
// listens"); the same rules as proto/rundir.c and client/autostart.c.
import { spawn } from "node:child_process";
import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConnectError } from "./errors.js";

const SOCKET_NAME = "sbxd.sock";
const PRIV_ROOT = "/run/sbx";

function uid(): number {
  return process.getuid ? process.getuid() : 0;
}

/** A directory of root's nobody else may write to. */
function roots(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

/**
 * The socket a client of this user uses: $SBX_SOCKET, a root daemon
 * serving this user, $XDG_RUNTIME_DIR/sbx, /run/user/UID/sbx, /tmp/sbx-UID.
 * Throws when the last is taken by someone else.
 */
export function findSocket(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SBX_SOCKET) return env.SBX_SOCKET;
  const u = uid();
  const priv = `${PRIV_ROOT}/${u}`;
  if (roots(PRIV_ROOT) && roots(priv) && isSocket(join(priv, SOCKET_NAME)))
    return join(priv, SOCKET_NAME);
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && xdg.startsWith("/")) return join(xdg, "sbx", SOCKET_NAME);
  const run = `/run/user/${u}`;
  try {
    const st = statSync(run);
    if (st.isDirectory() && st.uid === u) return join(run, "sbx", SOCKET_NAME);
  } catch {
    /* not there: the fallback below */
  }
  const tmp = `/tmp/sbx-${u}`;
  let st;
  try {
    st = lstatSync(tmp);
  } catch {
    return join(tmp, SOCKET_NAME);
  }
  // Anyone may take this name first: never use another user's (or a link).
  if (!st.isDirectory() || st.uid !== u) {
    const who = st.isDirectory() ? `owned by uid ${st.uid}` : "a link";
    throw new ConnectError(
      join(tmp, SOCKET_NAME),
      `${tmp} is not yours (${who}): refusing to use it as the runtime ` +
        `directory\nfix: set XDG_RUNTIME_DIR to a directory of yours ` +
        `(mode 0700), or have root remove ${tmp}`,
    );
  }
  return join(tmp, SOCKET_NAME);
}

/** The sbxd to start: the option, then $SBXD, then $PATH. */
export function findDaemon(opt?: string): string {
  return opt || process.env.SBXD || "sbxd";
}

/**
 * Starts sbxd on `socket` and resolves once it says READY (or lost a start
 * race to another client, which the caller sees by connecting). The daemon
 * runs in a session of its own (setsid) and is unref'd: it outlives us.
 */
export function startDaemon(socket: string, sbxd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // setsid (detached), then sh starts sbxd in the background and exits:
    // the daemon is nobody's child, as client/autostart.c's double fork
    // leaves it. Its stderr and fd 3 are our pipes until READY.
    const child = spawn(
      "/bin/sh",
      ["-c", '"$0" "$@" </dev/null & exit 0', sbxd, "--socket", socket, "--ready-fd", "3", "--log-stderr-after-ready"],
      { detached: true, stdio: ["ignore", "ignore", "pipe", "pipe"] },
    );
    let said = "";
    let ready = false;
    let open = 2;
    const done = (): void => {
      if (--open > 0) return;
      child.unref();
      if (ready || said.includes("another sbxd is running")) resolve();
      else
        reject(
          new ConnectError(
            socket,
            `could not start sbxd (${sbxd}):\n${said || "(no output)\n"}`,
          ),
        );
    };
    const ready3 = child.stdio[3] as NodeJS.ReadableStream;
    ready3.setEncoding("utf8");
    ready3.on("data", (s: string) => {
      said += s;
      if (said.includes("READY\n")) ready = true;
    });
    ready3.on("end", done);
    ready3.on("error", done);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (s: string) => (said += s));
    child.stderr!.on("end", done);
    child.stderr!.on("error", done);
    child.on("error", (e) => {
      said += `cannot execute /bin/sh: ${e.message}\n`;
    });
  });
}

