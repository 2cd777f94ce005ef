#!/bin/bash
# A workspace inside a repository (a package of a monorepo): different by
# design. The enclosing repository is read-only in the sandbox, so git
# add and commit fail with EROFS (never a commit that lands in a copy
# while the host repository stays behind), and sbxctl says to run with
# the repository's top as the workspace. What makes that acceptable is
# checked after the runs: sbxctl's line, the host repository unchanged
# (every file of .git, its HEAD), nothing of it in the state directory's
# home layers.
. "$(dirname "$0")/compat-lib.sh"
CWD=packages/app
IGNORE='(^|/)index$'
# An agent's git command line: sbxctl's note after a failing command
# names git.
BODY=git-commit.sh
EXPECT_RC=128
setup() {
	git init -q -b main "$WS"
	mkdir -p "$WS/packages/app" "$WS/packages/lib"
	echo app >"$WS/packages/app/app.txt"
	echo lib >"$WS/packages/lib/lib.txt"
	git -C "$WS" add . && git -C "$WS" commit -qm root
	git -C "$WS" rev-parse HEAD >"$T/head"
	ws_snapshot >"$T/setup.files"
}
body() {
	cat <<'EOF2'
git rev-parse --show-prefix
echo change >>app.txt
git add app.txt; echo "add: $?"
git commit -qm "app change"; rc=$?; echo "commit: $rc"
git log --format='%s'
git status --short
exit $rc
EOF2
}
# The sandboxed run: git's EROFS for the index lock, the repository as
# it was.
expect_sandboxed() {
	local lock="fatal: Unable to create '$WS/.git/index.lock': Read-only file system"
	sed -e "s|^add: 0\$|$lock\\nadd: 128|" \
		-e "s|^commit: 0\$|$lock\\ncommit: 128|" \
		-e '/^app change$/d' -e '$a\ M app.txt'
}
# The files: as set up, but for the package's own file (the workspace).
expect_files() {
	local line
	line=$(grep ' packages/app/app.txt$')
	awk -v l="$line" '/ packages\/app\/app.txt$/ {print l; next} {print}' \
		"$T/setup.files"
}
after_sbx() {
	check "sbxctl names the repository and --workspace ($(cat "$T/sbx.notes"))" \
		grep -q "^sbx: the workspace is inside the git repository $WS, .* run with --workspace $WS\$" "$T/sbx.notes"
	expect_eq "the host repository's HEAD unchanged" \
		"$(git -C "$WS" rev-parse HEAD)" "$(cat "$T/head")"
	check "the daemon's state directory (home layers)" test -d "$T/state"
	expect_eq "nothing of the repository in a home layer" \
		"$(find "$T/state" \( -name COMMIT_EDITMSG -o -name 'index.lock' \
			-o -name lib.txt -o -name app.txt \) 2>/dev/null)" ""
}
compat_main
