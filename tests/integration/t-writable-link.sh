#!/bin/bash
# A writable path (filesystem.allowWrite) below another one, the
# workspace here, that does not exist yet: a sandboxed command can make it
# a symlink (or replace it by one), and the next sandbox's Landlock rules
# must not follow that link and grant writes where it points (a directory
# of the user's outside every writable path). Landlock-only mode has no
# mounts to stop the write; in the namespace modes the link's target is
# read-only. Asserted on the host: nothing new there.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
V=$T/victim
mkdir -p "$V"
echo key >"$V/keep"
cat >"$T/policy.json" <<JSON
{"filesystem": {"allowWrite": [".", "$WS/out"]}}
JSON
attempt() { # attempt MODE WANT: link out to victim, then write through it
	expect_eq "$1: victim not writable" "$(sbx run -- "$P" write "$V/x" 2>/dev/null)" "$2"
	expect_eq "$1: out made a link to victim" \
		"$(sbx run -- sh -c "ln -s $V out && echo linked")" linked
	sbx run -- "$P" write "$V/x" >/dev/null 2>&1
	sbx run -- "$P" write "$WS/out/y" >/dev/null 2>&1
	expect_eq "$1: nothing new in victim on the host" "$(ls "$V")" keep
	expect_eq "$1: its file unchanged" "$(cat "$V/keep")" key
	rm -f "$WS/out"
}
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only --policy "$T/policy.json"
	cd "$WS"
	attempt landlock-only EACCES
	# A writable path that is a real directory below the workspace
	# still is one.
	mkdir "$WS/out"
	expect_eq "landlock-only: out writable" "$(sbx run -- "$P" write "$WS/out/z")" ok
	check "z is in out on the host" test -f "$WS/out/z"
	rm -rf "$WS/out"
	cd /
	stop_daemon
fi
start_daemon --policy "$T/policy.json"
cd "$WS"
attempt namespaces EROFS
# The link there when a template is built: its mounts must not bind the
# link's target writable (only Landlock would stand in the way, and a
# host may have none).
ln -s "$V" out
sbx run -- true
expect_eq "namespaces: the link's target not mounted in the sandbox" \
	"$(sbx run -- cat /proc/self/mountinfo | awk -v v="$V" '$5 == v' | wc -l)" 0
sbx run -- "$P" write "$WS/out/y" >/dev/null 2>&1
expect_eq "namespaces: nothing new in victim on the host" "$(ls "$V")" keep
rm -f "$WS/out"
cd /
stop_daemon
done_test
