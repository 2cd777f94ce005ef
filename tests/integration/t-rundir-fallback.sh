#!/bin/bash
# Without XDG_RUNTIME_DIR and /run/user/UID the runtime dir is /tmp/sbx-UID,
# a name anyone can take first. Taken by another user (root here, or a
# stranger with a socket of theirs in it), sbxd refuses it with a fix line
# and sbxctl neither connects to what is there nor starts a daemon.
. "$(dirname "$0")/lib.sh"
fails() { ! "$@"; }
[ "$(id -u)" -eq 0 ] || skip "needs root to act as another uid"
# A uid of nobody's, so /tmp/sbx-UID is not a path another test uses.
u=61000
while getent passwd "$u" >/dev/null || [ -e "/run/user/$u" ] ||
	[ -e "/tmp/sbx-$u" ] || [ -L "/tmp/sbx-$u" ]; do
	u=$((u + 1))
done
fb="/tmp/sbx-$u"
trap 'rm -rf "$fb"; cleanup' EXIT
mkdir -m 700 "$T/home" "$T/state2"
chown "$u:$u" "$T/home" "$T/state2" "$WS"
asu() {
	setpriv --reuid="$u" --regid="$u" --clear-groups env -u XDG_RUNTIME_DIR \
		-u SBX_SOCKET XDG_STATE_HOME="$T/state2" HOME="$T/home" "$@"
}
# sbxctl's autostart runs this sbxd (the uid has no passwd entry: --home).
printf '#!/bin/sh\nexec "%s/sbxd" --home "%s" "$@"\n' "$BIN" "$T/home" >"$T/bin/sbxd"
chmod 755 "$T/bin/sbxd"

mkdir -m 755 "$fb"
snap() { stat -c '%u:%g %a' "$fb"; ls -A "$fb"; }
before=$(snap)
err=$(asu "$BIN/sbxd" --home "$T/home" 2>&1 </dev/null)
rc=$?
echo "$err"
check "sbxd refuses a /tmp/sbx-UID of root's" test "$rc" -ne 0
check "  naming it and whose it is" grep -q "^sbxd: $fb .*not yours" <<<"$err"
check "  with a fix line" grep -q "^fix: .*XDG_RUNTIME_DIR" <<<"$err"
expect_eq "  in two lines" "$(wc -l <<<"$err")" 2
expect_eq "  and leaves it as it was" "$(snap)" "$before"
cd "$WS"
err=$(asu SBXD="$T/bin/sbxd" timeout -s KILL 10 "$BIN/sbxctl" run -q -- echo ran 2>&1 </dev/null)
rc=$?
echo "$err"
check "sbxctl refuses it too" test "$rc" -ne 0
check "  with the same message" grep -q "$fb .*not yours" <<<"$err"
check "  and the fix line" grep -q "^fix: .*XDG_RUNTIME_DIR" <<<"$err"
check "  and ran nothing" fails grep -q ran <<<"$err"
expect_eq "  and started no daemon in it" "$(snap)" "$before"
rmdir "$fb"

# Worse: a stranger's world-writable dir with a listener of theirs at the
# socket's name. sbxctl must not talk to it.
mkdir -m 777 "$fb"
mkfifo "$T/lready" "$T/lgo"
"$PY" -c '
import os, socket, sys
path, ready, go = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
os.chmod(path, 0o777)
s.listen(8)
open(ready, "w").write("ready\n")
open(go).read()
s.setblocking(False)
try:
    c, _ = s.accept()
    print("connected")
except BlockingIOError:
    print("none")
' "$fb/sbxd.sock" "$T/lready" "$T/lgo" >"$T/lout" &
lpid=$!
read -r line <"$T/lready"
# (Into a file: whatever it connected to, nothing it left behind holds
# up the test.)
asu SBXD="$T/bin/sbxd" timeout -s KILL 10 "$BIN/sbxctl" run -q -- echo ran \
	</dev/null >"$T/err" 2>&1
rc=$?
err=$(cat "$T/err")
echo "$err"
echo go >"$T/lgo"
wait "$lpid"
check "sbxctl refuses a stranger's dir with a socket in it" test "$rc" -ne 0
expect_eq "  and never connected to the stranger's socket" "$(cat "$T/lout")" none
check "  with the fix line" grep -q "^fix: " <<<"$err"
done_test
