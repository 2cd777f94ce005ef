#!/bin/bash
# Privileged mode: in a directory of the user's that the user cannot read
# (mode 000) the walk still follows no link as root: DIR/.git/commondir, a
# link to a file only root may read (or a device: /dev/watchdog, a tape, a
# serial line), must not be opened by root. Nothing the user cannot open
# may be opened for it.
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
# Root's file in root's 0700 directory: the user can open neither.
mkdir -m 700 "$T/rootonly"
echo "ROOT-SECRET-$$" >"$T/rootonly/secret"
chmod 600 "$T/rootonly/secret"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
as mkdir -p d/.git d/sub e
as ln -s "$T/rootonly/secret" d/.git/commondir
# A repository in the workspace that only root can reach, which a .git
# link of the user's names (realpath'd by root, it was made read-only: a
# mount naming it).
mkdir -m 700 "$WS/rootown"
mkdir -p "$WS/rootown/repo/objects" "$WS/rootown/repo/refs"
echo "ref: refs/heads/main" >"$WS/rootown/repo/HEAD"
as ln -s "$WS/rootown/repo" e/.git
# What the walk must still do there: the user's ignore files hold.
as sh -c 'echo "*.pem" >d/.sbxignore; echo k >d/sub/k.pem'
as chmod 000 d e
expect_eq "the user cannot open the decoy" \
	"$(as "$BIN/sbx-probe" read "$T/rootonly/secret")" EACCES
mkfifo "$T/go"
# IN_OPEN on the decoy, armed before the run; read once the run is over
# (the template's walk is done before its command starts).
exec 5< <("$PY" -c '
import ctypes, os, select, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x20)  # IN_OPEN
print("armed", flush=True)
sys.stdin.readline()
r, _, _ = select.select([fd], [], [], 0)
print("opened" if r else "untouched", flush=True)
' "$T/rootonly/secret" < <(read -r _ <"$T/go"; echo))
read -r armed <&5
mi=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- \
	cat /proc/self/mountinfo)
echo >"$T/go"
read -r got <&5
expect_eq "root opened nothing behind the user's link" "$got" untouched
check "no mount names the repository behind root's directory" \
	test "$(grep -c "rootown" <<<"$mi")" = 0
check "a file the user's ignore file names in its mode-000 directory is masked" \
	test "$(grep -c " $WS/d/sub/k.pem " <<<"$mi")" = 1
done_test
