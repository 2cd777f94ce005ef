#!/bin/bash
# The Node client against a privileged-mode daemon (root's sbxd --user
# NAME), the client running as NAME: the same node --test files as
# t-node-client (less those that need a daemon with options of their own),
# here against one daemon this script starts.
. "$(dirname "$0")/lib.sh"
need_served_user
command -v node >/dev/null || skip "node not installed (tests/deps.sh installs it)"
nd=$PWD/clients/node
if [ ! -f "$nd/dist/test/stream.test.js" ]; then
	fail "clients/node is not built (make node)"
	done_test
fi
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
rc=$?
grep -E '^(not )?ok ' "$T/node.log"
grep -q '^ok ' "$T/node.log" || fail "node --test ran nothing"
if [ $rc -ne 0 ]; then
	fail "node --test: $(grep -c '^not ok' "$T/node.log") failed"
	grep -A25 '^not ok' "$T/node.log"
fi
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" --json status)
check "the daemon was in privileged mode" grep -q '"run_mode": "privileged"' <<<"$out"
stop_daemon
done_test
