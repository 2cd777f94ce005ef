#!/bin/bash
# Every way of spelling a path reaches the same check: a protected name
# that does not exist yet is refused (EPERM, nothing on the host) and an
# ordinary one is made, whether the path is relative, absolute and deep,
# has "." and "//" in it, goes through "..", a symlinked directory, a
# symlink to /proc/self/cwd, /proc/self/cwd or /proc/thread-self/cwd, or
# ends in a slash. The supervisor resolves plain directories in one lookup
# and walks the rest one component at a time (linux/resolve.c): both
# must give the kernel's answer.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
cd "$WS"
mkdir -p "$WS/a/b/c/d" "$WS/real/x"
ln -s real "$WS/lnk"
ln -s /proc/self/cwd "$WS/selfcwd"
start_daemon
has_protect_new ||
	skip "kernel cannot refuse new protected paths (see sbxctl status)"

n=0
# try FORM PATH-BEFORE-NAME WHERE: PATH.mcp.json refused, PATHok-N made
# (WHERE: the directory both land in, relative to the workspace).
try() {
	n=$((n + 1))
	expect_eq "$1: create .mcp.json" "$(probe create "$2.mcp.json")" EPERM
	expect_eq "$1: mkdir .vscode" "$(probe mkdir "$2.vscode")" EPERM
	absent "$1: nothing protected made" "$3/.mcp.json" "$3/.vscode"
	expect_eq "$1: create ok-$n" "$(probe create "$2ok-$n")" ok
	check "$1: ok-$n made on the host" test -f "$WS/$3/ok-$n"
}
try "relative, deep" a/b/c/d/ a/b/c/d
try "absolute, deep" "$WS/a/b/c/d/" a/b/c/d
try "with . and //" "$WS/./a//b/./c/d/" a/b/c/d
try "through .." "$WS/a/b/../../real/x/" real/x
try "through a symlinked directory" "$WS/lnk/x/" real/x
try "through a symlink to /proc/self/cwd" "$WS/selfcwd/a/" a
try "/proc/self/cwd" /proc/self/cwd/a/b/ a/b
try "/proc/thread-self/cwd" /proc/thread-self/cwd/a/b/c/ a/b/c
# A trailing slash: mkdir of a protected name is refused all the same.
expect_eq "mkdir .vscode/ (trailing slash)" "$(probe mkdir "$WS/a/b/.vscode/")" EPERM
absent "no .vscode from a trailing slash" a/b/.vscode
# A path through a file is ENOTDIR, through a missing directory ENOENT,
# as the kernel says for the command itself.
: >"$WS/a/file"
expect_eq "through a file" "$(probe create "$WS/a/file/b/x")" ENOTDIR
expect_eq "through a missing directory" "$(probe create "$WS/a/none/b/x")" ENOENT
done_test
