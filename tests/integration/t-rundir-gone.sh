#!/bin/bash
# The runtime dir removed under a running daemon (logind does it at logout):
# the daemon, unreachable from then on, stops its sandboxes and exits 0,
# and the next sbxctl starts a fresh one instead of a second one racing it.
. "$(dirname "$0")/lib.sh"
cd "$WS"
unset SBX_SOCKET
rt="$XDG_RUNTIME_DIR/sbx"
mkdir -m 700 "$rt"
SOCK="$rt/sbxd.sock"
start_daemon
sbx() { "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
mkfifo "$WS/started"
sbx run -q -- sh -c 'echo up > '"$WS/started"'; exec sleep 1000' &
cpid=$!
read -r line <"$WS/started"
expect_eq "a session runs" "$line" up
inner=$(daemon_procs sleep)
check "its command is a descendant of the daemon" test -n "$inner"
rm -rf "$XDG_RUNTIME_DIR"
check "the daemon exits once its socket is gone" wait_exit "$DPID" 20
if kill -0 "$DPID" 2>/dev/null; then
	kill -KILL "$DPID"
fi
wait "$DPID"
expect_eq "  with status 0" "$?" 0
DPID=
check "the session's command is gone" wait_exit "$inner" 10
wait "$cpid" 2>/dev/null
# The runtime dir back (the next login): sbxctl autostarts a daemon.
mkdir -m 700 "$XDG_RUNTIME_DIR"
out=$("$BIN/sbxctl" run -q -- echo again 2>&1)
expect_eq "the next sbxctl starts a fresh daemon" "$out" again
DPID=$("$BIN/sbxctl" --json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
kill -TERM "$DPID"
check "the new daemon stops on SIGTERM" wait_exit "$DPID"
DPID=
done_test
