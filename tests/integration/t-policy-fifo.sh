#!/bin/bash
# A FIFO, a socket or a device where a policy file or an ignore file is
# expected (the user's policy, ~/.srt-settings.json, the workspace's
# .sbx/policy.json, .sbxignore, .cursorignore, an org file) is refused,
# named with its reason by `sbxctl status` or the run's error; the daemon
# never blocks on it, and works again once it is gone. As root, in
# privileged mode serving the test user (who makes the files); as a user,
# in user mode.
. "$(dirname "$0")/lib.sh"
H=$T/home
ORG=$T/org
mkdir -p "$H/.config/sbx" "$ORG"
chmod 755 "$T" "$ORG"
if [ "$(id -u)" -eq 0 ]; then
	user=${SBX_TEST_USER:-sbxtest}
	id "$user" >/dev/null 2>&1 || skip "no user $user"
	chown -R "$user": "$H" "$WS"
	as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
	start_daemon --user "$user" --home "$H" --org-dir "$ORG"
	chmod 755 "$XDG_RUNTIME_DIR"
else
	as() { "$@"; }
	start_daemon --home "$H" --org-dir "$ORG"
fi
ctl() { as timeout 20 "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
cd "$WS"
mkdir .sbx
chown --reference="$WS" .sbx
sock() { as "$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"; }

# bad KIND PATH [OWNER]: PATH made a KIND (fifo, socket, device); status
# and a run answer, the one or the other names PATH; once PATH is gone a
# run works again.
bad() {
	local kind=$1 path=$2 by=${3:-user} out rc
	case $kind in
	fifo) if [ "$by" = root ]; then mkfifo "$path"; else as mkfifo "$path"; fi ;;
	socket) sock "$path" ;;
	device) mknod "$path" c 1 3 ;;
	esac
	out=$(ctl status 2>&1)
	rc=$?
	check "status answers with a $kind at $path (rc $rc)" test "$rc" -ne 124
	out="$out
$(ctl run -q -- echo ran 2>&1)"
	rc=$?
	check "a run answers with a $kind at $path (rc $rc)" test "$rc" -ne 124
	check "the $kind is named: not a regular file ($out)" \
		grep -qF "$path: not a regular file" <<<"$out"
	rm -f "$path"
	expect_eq "a run works once the $kind is gone" "$(ctl run -q -- echo ran 2>&1)" ran
}

bad fifo "$H/.config/sbx/policy.json"
bad socket "$H/.config/sbx/policy.json"
bad fifo "$H/.srt-settings.json"
bad fifo "$WS/.sbx/policy.json"
bad socket "$WS/.sbx/policy.json"
bad fifo "$WS/.sbxignore"
bad socket "$WS/.cursorignore"
bad fifo "$ORG/org.json" root
if [ "$(id -u)" -eq 0 ]; then
	bad device "$WS/.sbxignore"
	bad device "$H/.config/sbx/policy.json"
fi
# An ignore file that is a link is not followed, and refused.
ln -s /etc/hostname "$WS/.sbxignore"
out=$(ctl run -q -- echo ran 2>&1)
check "a linked ignore file is refused ($out)" \
	grep -qF "$WS/.sbxignore: a symbolic link (not followed)" <<<"$out"
rm "$WS/.sbxignore"
expect_eq "the daemon still answers" "$(ctl run -q -- echo ran 2>&1)" ran
stop_daemon
done_test
