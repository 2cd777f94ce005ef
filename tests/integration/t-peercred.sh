#!/bin/bash
# A client of another uid is refused by SO_PEERCRED even when the socket
# file would let it connect.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to act as a second uid"
other=${SBX_TEST_USER:-sbxtest}
id "$other" >/dev/null 2>&1 || skip "no user $other"
start_daemon
chmod 711 "$T" "$XDG_RUNTIME_DIR"
chmod 666 "$SOCK"
out=$(setpriv --reuid="$other" --regid="$other" --clear-groups \
	"$PY" "$HERE/rawclient.py" "$SOCK" hello-only 2>&1)
expect_eq "other uid gets a permission error" "$out" "reply 3"
out=$(setpriv --reuid="$other" --regid="$other" --clear-groups \
	"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- true 2>&1); rc=$?
expect_eq "other uid's run exits 125" "$rc" 125
check "refusal names the uids" grep -q "may not use the sbxd of uid 0" <<<"$out"
expect_eq "owner still served" "$(sbx run -- echo yes)" yes
stop_daemon
done_test
