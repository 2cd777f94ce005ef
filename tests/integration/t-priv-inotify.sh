#!/bin/bash
# Privileged mode: the template's inotify watches on the user's workspace,
# one per directory, are charged to the user, not to root: the user's
# directories must not use up fs.inotify.max_user_watches (or instances)
# for every root process on the host (systemd, udev, ...). The kernel
# charges an instance and its watches to the euid that made the instance:
# with all of the user's instances taken, the template gets none (and the
# daemon says so in its degraded list), where root's would hold a watch
# per directory of the user's.
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
N=300
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
as "$PY" -c 'import os
for i in range(int(os.sys.argv[1])): os.mkdir("d%d" % i)' "$N"
# inotify watches held by the daemon's descendants (an instance shared by
# a fork is counted once: sort -u). (The daemon's own, on the policy
# files' directories, are a few per workspace.)
watches() {
	local p
	for p in $(pstree -p "$DPID" | grep -o '([0-9]*)' | tr -d '()'); do
		[ "$p" = "$DPID" ] && continue
		grep -h '^inotify wd:' /proc/"$p"/fdinfo/* 2>/dev/null
	done | sort -u | wc -l
}
mkfifo "$T/go"
# As the user: every inotify instance the user may still make, held until
# the run is over (a few seconds: the user's other processes cannot make
# one meanwhile).
exec 5< <(as "$PY" -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fds = []
while len(fds) < 4096:
    fd = libc.inotify_init1(os.O_CLOEXEC)
    if fd < 0:
        break
    fds.append(fd)
print(len(fds), ctypes.get_errno(), flush=True)
sys.stdin.readline()
' < <(read -r _ <"$T/go"; echo))
read -r held err <&5
echo "the user holds $held inotify instances (then errno $err)"
expect_eq "the user's instances are used up (EMFILE)" "$err" 24
as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- true
got=$(watches)
st=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" status 2>&1)
echo >"$T/go"
exec 5<&-
echo "inotify watches of the template for $N user directories: $got"
expect_eq "the template's instance is the user's: none left, no watch" \
	"$got" 0
check "status says directories are not watched" \
	grep -q "not watched for new files" <<<"$st"
# With the user's instances back, a template watches with one of them:
# a file made after its build is masked for the next run.
W2=$T/ws2
mkdir -p "$W2/sub"
echo '*.pem' >"$W2/.sbxignore"
chown -R "$user": "$W2"
cd "$W2"
as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- true
check "the new template watches the user's directories" \
	test "$(watches)" -ge 2
as sh -c 'echo k >sub/new.pem'
expect_eq "a file made after the build is masked (the user's watch works)" \
	"$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- \
		"$BIN/sbx-probe" read sub/new.pem)" EACCES
done_test
