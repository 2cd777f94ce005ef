#!/bin/bash
# The Node client against a privileged-mode daemon (root's sbxd --user
# NAME), the client running as NAME: the same node --test files as
# t-node-client (less those that need a daemon with options of their own),
# here against one daemon this script starts.
. "$(dirname "$0")/lib.sh"
need_served_user
. "$HERE/node-lib.sh"
chmod 755 "$T"
mkdir "$T/user"
chown "$user": "$T/user"
start_daemon --user "$user"
chmod 755 "$XDG_RUNTIME_DIR"
files=()
for f in "$nd"/dist/test/*.test.js; do
	case $f in */approval.test.js) ;; *) files+=("$f") ;; esac
done
as env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T/user" LANG=C.UTF-8 \
	SBX_DAEMON_SOCKET="$SOCK" SBX_TEST_TMP="$T/user" SBX_BIN="$BIN" \
	XDG_RUNTIME_DIR="$T/user" node --test --test-concurrency=2 \
	"${files[@]}" >"$T/node.log" 2>&1
node_result $?
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" --json status)
check "the daemon was in privileged mode" grep -q '"run_mode": "privileged"' <<<"$out"
stop_daemon
done_test
