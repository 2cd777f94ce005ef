#!/bin/bash
# Privileged mode: the template's inotify watches on the user's workspace
# are charged to root (the uid that made the inotify instance), one per
# directory, up to the walk's million entries: the user's directories can
# use up fs.inotify.max_user_watches for every root process on the host
# (systemd, udev, ...). A watch per user directory must not be root's.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "privileged mode needs root"
user=${SBX_TEST_USER:-sbxtest}
id "$user" >/dev/null 2>&1 || skip "no user $user"
H=$T/home
N=3000
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
setpriv --reuid="$user" --regid="$user" --init-groups \
	"$PY" -c 'import os
for i in range(int(os.sys.argv[1])): os.mkdir("d%d" % i)' "$N"
setpriv --reuid="$user" --regid="$user" --init-groups \
	"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- true
# inotify watches held by the daemon and its descendants, by their
# instance's owner (the uid of the process holding the inotify fd).
watches_of_root() {
	# (an instance shared by a fork is counted once: sort -u)
	local p
	for p in $(pstree -p "$DPID" | grep -o '([0-9]*)' | tr -d '()'); do
		[ "$(stat -c %u "/proc/$p" 2>/dev/null)" = 0 ] || continue
		grep -h '^inotify wd:' /proc/"$p"/fdinfo/* 2>/dev/null
	done | sort -u | wc -l
}
got=$(watches_of_root)
echo "root-owned inotify watches for $N user directories: $got"
check "root holds no watch per user directory (got $got)" test "$got" -lt "$N"
done_test
