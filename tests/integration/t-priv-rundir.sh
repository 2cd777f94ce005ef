#!/bin/bash
# Privileged mode's runtime directory is root's all the way down: the served
# user can neither make root chown a directory of their choosing (by
# swapping a runtime directory for a symbolic link) nor swap the per-
# workspace /tmp for another directory before the template mounts it.
. "$(dirname "$0")/lib.sh"
fails() { ! "$@"; }
need_served_user
uid=$(id -u "$user")
# sbxctl as the user finds the daemon on its own (no SBX_SOCKET).
usbx() {
	as env -u SBX_SOCKET XDG_RUNTIME_DIR="/run/user/$uid" \
		"$BIN/sbxctl" --no-autostart "$@"
}
mkdir "$T/ws2" "$T/ws3"
chown "$user": "$WS" "$T/ws2" "$T/ws3"
# The user's /run/user/UID, as logind makes it: the user owns it and may
# rename anything in it.
made_run=
if [ ! -d "/run/user/$uid" ]; then
	mkdir -p /run/user
	mkdir -m 700 "/run/user/$uid"
	chown "$user": "/run/user/$uid"
	made_run=1
fi
trap '[ -n "$made_run" ] && rm -rf "/run/user/$uid"; cleanup' EXIT
# Decoys: $T/var stands in for /var (its tmp/ is a sticky 1777 /var/tmp),
# $T/secret for a directory only root may change.
mkdir -m 755 "$T/var" "$T/secret"
mkdir -m 1777 "$T/var/tmp"
echo s3cret >"$T/secret/decoy"
chmod 644 "$T/secret/decoy"
snap() {
	stat -c '%n %u:%g %a' "$T/var" "$T/var/tmp" "$T/secret" "$T/secret/decoy"
	ls -A "$T/var" "$T/var/tmp" "$T/secret"
	cat "$T/secret/decoy"
}
before=$(snap)

# The default socket: root's /run/sbx/UID, found by the user's sbxctl.
mkfifo "$T/ready"
"$BIN/sbxd" --user "$user" --state-dir "$T/state" --ready-fd 3 \
	${SBXD_ARGS:-} 3>"$T/ready" 2>>"$T/sbxd.log" &
DPID=$!
read -r line <"$T/ready" || true
rm -f "$T/ready"
[ "$line" = READY ] || { cat "$T/sbxd.log" >&2; echo "FAIL: sbxd did not start" >&2; exit 1; }
cd "$WS"
out=$(usbx run -q -- echo ok 2>&1)
expect_eq "the user's sbxctl finds the root daemon's socket" "$out" ok
expect_eq "/run/sbx is root's, 0711" "$(stat -c %u:%a /run/sbx 2>&1)" 0:711
expect_eq "/run/sbx/UID is root's, 0711" "$(stat -c %u:%a "/run/sbx/$uid" 2>&1)" 0:711
expect_eq "the socket is the user's, 0600" \
	"$(stat -c %u:%a "/run/sbx/$uid/sbxd.sock" 2>&1)" "$uid:600"
expect_eq "tmp/ is root's, 0700" "$(stat -c %u:%a "/run/sbx/$uid/tmp" 2>&1)" 0:700
check "the user cannot write to the runtime dirs" \
	as test -d "/run/sbx/$uid" -a ! -w /run/sbx -a ! -w "/run/sbx/$uid"
check "  (mv as the user fails)" fails as mv "/run/sbx/$uid" /run/sbx/x 2>/dev/null
check "  (nor its tmp/)" fails as mv "/run/sbx/$uid/tmp" "/run/sbx/$uid/t" 2>/dev/null
check "  (nor the socket)" fails as mv "/run/sbx/$uid/sbxd.sock" "/run/sbx/$uid/s" 2>/dev/null
check "  (nor add a link)" fails as ln -s /var "/run/sbx/$uid/x" 2>/dev/null
check "  (nor list tmp/)" fails as ls "/run/sbx/$uid/tmp" 2>/dev/null
stop_daemon
check "the socket is gone" test ! -e "/run/sbx/$uid/sbxd.sock"

start_daemon --user "$user"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- echo ok 2>&1)
expect_eq "a first run" "$out" ok

# The per-workspace /tmp swapped for a link to a root-only directory the
# moment the daemon has checked it (an inotify watch as the user: wherever
# the user can reach the parent, the swap beats the template's mount).
ws3=$(realpath "$T/ws3")
hash=$(printf %s "$ws3" | sha256sum | cut -c1-16)
# Where the user could reach the temp dirs' parent: in an older layout by
# putting a directory of their own in the place of /run/user/UID/sbx.
if [ -d "/run/sbx/$uid" ]; then
	par="/run/sbx/$uid/tmp"
else
	par="/run/user/$uid/sbx/tmp"
	as sh -c "mv /run/user/$uid/sbx /run/user/$uid/sbx.old; mkdir -p $par"
fi
mkfifo -m 666 "$T/wready"
as "$PY" -c '
import ctypes, os, struct, sys
par, name, decoy, ready = sys.argv[1:5]
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_CLOEXEC)
wd = libc.inotify_add_watch(fd, par.encode(), 0x10)  # IN_CLOSE_NOWRITE
with open(ready, "w") as f:
    f.write("watching\n" if wd >= 0 else "nowatch\n")
if wd < 0:
    sys.exit(0)
while True:
    buf = os.read(fd, 4096)
    off = 0
    while off < len(buf):
        _, mask, _, n = struct.unpack_from("iIII", buf, off)
        got = buf[off + 16:off + 16 + n].rstrip(b"\0").decode()
        off += 16 + n
        if got == name:
            p = os.path.join(par, name)
            os.rename(p, p + ".old")
            os.symlink(decoy, p)
            sys.exit(0)
' "$par" "$hash" "$T/secret" "$T/wready" &
wpid=$!
read -r watched <"$T/wready"
echo "watcher: $watched ($par)"
cd "$T/ws3"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- \
	sh -c 'stat -c %u /tmp; cat /tmp/decoy 2>/dev/null || echo unreadable' 2>&1)
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
expect_eq "the sandbox's /tmp is the user's own, not the swapped-in one" \
	"$out" "$uid
unreadable"
check "the user could not watch the temp dirs" test "$watched" = nowatch

# The user's old runtime dir swapped for a link to "/var": a run in a new
# workspace must chown nothing there.
as sh -c "rm -rf /run/user/$uid/sbx.2; mv /run/user/$uid/sbx /run/user/$uid/sbx.2;
	ln -s '$T/var' /run/user/$uid/sbx" 2>/dev/null
check "the user replaced /run/user/UID/sbx by a link" test -L "/run/user/$uid/sbx"
cd "$T/ws2"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- echo ok 2>&1)
expect_eq "a run in a new workspace still works" "$out" ok
expect_eq "the decoys are unchanged (owner, mode, entries, content)" \
	"$(snap)" "$before"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" status 2>&1)
check "the daemon still answers" grep -q "privileged mode" <<<"$out"
stop_daemon
done_test
