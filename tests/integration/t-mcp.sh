#!/bin/bash
# sbxctl mcp against a real daemon, driven over pipes by a conformance-style
# client (mcp-conform.c), in both eras (2025-11-25's initialize, and
# 2026-07-28's per-request _meta): the lifecycle and version negotiation, bad input
# answered with JSON-RPC errors (never a crash), tools/list with the
# describe text, each tool, cancellation; then on the host: what the
# command wrote in the workspace is there, its write outside is not, and the
# end of stdin ends the session's sandbox with every process in it.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/sbx-mcp-conform" ] || skip "sbx-mcp-conform not built"
start_daemon
OUTSIDE="$T/outside"
mkdir "$OUTSIDE"
chmod 777 "$OUTSIDE"
export OUTSIDE
cd "$WS"
conform() { # conform [--modern]: the client's run, its pids in $T/out
	"$BIN/sbx-mcp-conform" "$@" -- "$BIN/sbxctl" --no-autostart \
		--socket "$SOCK" mcp --workspace "$WS" >"$T/out" 2>>"$T/err"
	local rc=$?
	cat "$T/out" >&2
	expect_eq "the conformance client passed ($*)" "$rc" 0
}
# The stateless revision first (server/discover, _meta on each request),
# then a session of 2025-11-25: the host checks below are the second's.
conform --modern
rm -f "$WS/made.txt"
conform
expect_eq "what run_command wrote is in the workspace" "$(cat "$WS/made.txt")" made
check "its write outside the workspace left nothing" test ! -e "$OUTSIDE/escaped"
for name in started left; do
	pid=$(awk -v n="$name" '$1 == "PID" && $2 == n { print $3 }' "$T/out")
	case $pid in ''|*[!0-9]*) fail "no pid for $name"; continue ;; esac
	check "the $name command is gone (pid $pid)" wait_exit "$pid" 20
done
expect_eq "no sandbox is left" "$(sbx --json sandbox ls | "$PY" -c \
	'import json,sys; print(len(json.load(sys.stdin)))')" 0
check "sbxctl mcp said nothing on stderr" test ! -s "$T/err"
stop_daemon
done_test
