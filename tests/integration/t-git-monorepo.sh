#!/bin/bash
# A workspace that is a package of a monorepo (docs/security.md, "A
# workspace inside a repository"): git in the sandbox cannot write the
# enclosing repository, and says so; never a commit that lands in the
# home layer while the host repository stays behind. The repository's
# other files and its .git are read-only (EROFS), not diverted into the
# home overlay; with the repository as the workspace the commit reaches
# the host. A scratch home (sbxd --home) stands for the user's.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
export GIT_CONFIG_NOSYSTEM=1
H=$T/home
M=$H/src/mono
mkdir -p "$M/pkg/a" "$M/lib"
chmod 755 "$H"
(cd "$M" && git init -q -b main && echo a >pkg/a/a.txt && echo l >lib/l.txt &&
	git add . && git -c user.email=t@t -c user.name=t commit -qm one)
head=$(git -C "$M" rev-parse HEAD)
export HOME=$H
start_daemon --home "$H"
if sbx status | grep -q 'no home overlay'; then
	stop_daemon
	skip "no home overlay on this machine"
fi
cd "$M/pkg"
commit='echo b > b.txt && git add b.txt && git -c user.email=t@t -c user.name=t commit -qm two'
# Plain git stops at the workspace: an error, and sbx says how to commit.
out=$(sbx run -- sh -c "$commit" 2>&1)
rc=$?
check "commit from the package fails (rc $rc)" test "$rc" -ne 0
check "sbx says to run with the repository as the workspace ($out)" grep -q "sbx: the workspace is inside the git repository $M, .* run with --workspace $M" <<<"$out"
# Across the mount, git finds the repository and cannot write it.
out=$(sbx run -- env GIT_DISCOVERY_ACROSS_FILESYSTEM=1 sh -c "$commit" 2>&1)
rc=$?
check "commit across the mount fails (rc $rc)" test "$rc" -ne 0
check "... on a read-only file system ($out)" grep -q "Read-only file system" <<<"$out"
expect_eq "host repository unchanged" "$(git -C "$M" rev-parse HEAD)" "$head"
expect_eq "its index unchanged" "$(git -C "$M" status --porcelain -- lib pkg/a)" ""
# The repository's other files and .git: read-only, not diverted.
expect_eq "write a file beside the workspace" "$(sbx run -q -- "$P" write ../lib/l.txt 2>/dev/null)" EROFS
expect_eq "create in the repository's .git" "$(sbx run -q -- "$P" create ../.git/x 2>/dev/null)" EROFS
expect_eq "the workspace itself writes" "$(sbx run -q -- "$P" create c.txt 2>/dev/null)" ok
expect_eq "lib unchanged on the host" "$(cat "$M/lib/l.txt")" l
check "nothing of the repository in the home layer" bash -c "! find '$T/state/home' -path '*src/mono*' -name '*.txt' 2>/dev/null | grep -q . && ! find '$T/state/home' -path '*src/mono/.git*' 2>/dev/null | grep -q ."
# With the repository as the workspace, the commit reaches the host.
out=$(sbx run --workspace "$M" -- sh -c "$commit" 2>&1)
expect_eq "commit with --workspace the repository ($out)" "$?" 0
expect_eq "the host repository has it" "$(git -C "$M" log -1 --format=%s)" two
stop_daemon
done_test
