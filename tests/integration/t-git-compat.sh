#!/bin/bash
# git as agents use it (docs/security.md, "Protected paths where they have
# power"): a clone of a repository holding .vscode, .idea, .gitmodules and
# a submodule gives the tree a clone outside gives; a checkout in it in
# the same run writes them; a later run's checkout that would change them,
# or one in the workspace's own repository, fails and says so (never exit
# 0 with the old file); nothing can plant .vscode in the workspace or in a
# directory that was there before the run. In a repository that existed
# before the run, git config user.email, remote add and push -u work, and
# keys that run programs are refused with a line naming the key, the
# host's config unchanged.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
export GIT_CONFIG_NOSYSTEM=1
g() { git -c user.email=t@t -c user.name=t -c protocol.file.allow=always "$@"; }

# The fixture (outside the workspace: the sandbox reads it): IDE folders,
# .gitmodules, a submodule, a branch that changes .vscode/settings.json.
F=$T/fix
mkdir -p "$F/main" "$F/sub"
(cd "$F/sub" && git init -q && echo s >s.txt && git add . && g commit -qm s)
(cd "$F/main" && git init -q -b main && mkdir .vscode .idea src &&
	echo '{"a":1}' >.vscode/settings.json && echo x >.idea/misc.xml &&
	echo code >src/main.c && git add . && g commit -qm one &&
	g submodule add -q "$F/sub" sub && g commit -qm sub &&
	git checkout -q -b other && echo '{"a":2}' >.vscode/settings.json &&
	g commit -qam two && git checkout -q main)
# The workspace is a repository made before the run, with a tracked
# .vscode/settings.json in a sub-directory that other changes; docs/ has
# none.
(cd "$WS" && git init -q -b main && mkdir -p pkg/.vscode docs &&
	echo '{"a":1}' >pkg/.vscode/settings.json && echo d >docs/d.md &&
	git add . && g commit -qm one && git checkout -q -b other &&
	echo '{"a":2}' >pkg/.vscode/settings.json && g commit -qam two &&
	git checkout -q main)
git init -q --bare "$WS/remote.git"
cfg_sum() { sha256sum <"$WS/.git/config"; }
# tree DIR: every path below DIR but .git, with its type and content hash.
tree() {
	(cd "$1" && find . -path ./.git -prune -o -printf '%y %p\n' | sort &&
		find . -path ./.git -prune -o -type f -print0 | sort -z |
		xargs -0 sha256sum)
}
cd "$WS"
start_daemon
has_protect_new ||
	skip "kernel cannot refuse new protected paths (see sbxctl status)"

# A clone inside gives what a clone outside gives.
git clone -q --no-local "$F/main" "$T/bare" || fail "clone outside"
out=$(sbx run -q -- git clone -q --no-local "$F/main" cl 2>&1)
expect_eq "clone inside exits 0 ($out)" "$?" 0
expect_eq "clone inside: the same tree as outside" "$(tree "$WS/cl")" "$(tree "$T/bare")"
check ".gitmodules, .idea and .vscode are there" test -f "$WS/cl/.gitmodules" -a -f "$WS/cl/.idea/misc.xml" -a -f "$WS/cl/.vscode/settings.json"
# In the same run, a checkout changes them.
out=$(sbx run -q -- sh -c 'git clone -q --no-local "$0" cl2 && cd cl2 && git checkout -q other && cat .vscode/settings.json' "$F/main" 2>&1)
expect_eq "clone then checkout in one run" "$out" '{"a":2}'
# A later run's checkout that changes one fails, and the file stays.
before=$(sha256sum <"$WS/cl2/.vscode/settings.json")
out=$(sbx run -- git -C cl2 checkout -q main 2>&1)
rc=$?
check "later checkout: not exit 0 (rc $rc)" test "$rc" -ne 0
check "later checkout: git says the unlink failed ($out)" grep -q "unable to unlink old '.vscode/settings.json': Operation not permitted" <<<"$out"
check "later checkout: sbx names the file" grep -q "sbx: blocked write .*cl2/.vscode/settings.json" <<<"$out"
check "later checkout: sbx says why the status is not 0" grep -q "exited 0, but a write it made to a protected file was refused" <<<"$out"
expect_eq "later checkout: the file unchanged" "$(sha256sum <"$WS/cl2/.vscode/settings.json")" "$before"
# The same in the workspace's own repository.
before=$(sha256sum <"$WS/pkg/.vscode/settings.json")
out=$(sbx run -- git checkout -q other 2>&1)
rc=$?
check "checkout in the workspace repo: not exit 0 (rc $rc, $out)" test "$rc" -ne 0
expect_eq "checkout in the workspace repo: file unchanged" "$(sha256sum <"$WS/pkg/.vscode/settings.json")" "$before"
git -C "$WS" checkout -q -f main

# Planting editor config: refused in the workspace, in directories that
# were there before the run (also one a previous run made), in a .vscode
# that exists (a read-only bind); allowed in a directory made in the run.
sbx run -q -- mkdir made-before
expect_eq "mkdir .vscode at the workspace root" "$(probe mkdir .vscode)" EPERM
out=$(sbx run -q -- sh -c 'mkdir -p .vscode; echo "{\"tasks\":[]}" > .vscode/tasks.json' 2>&1)
absent "no .vscode/tasks.json at the root ($out)" .vscode
expect_eq "create .idea at the root" "$(probe mkdir .idea)" EPERM
expect_eq "create .gitmodules at the root" "$(probe create .gitmodules)" EPERM
expect_eq "mkdir docs/.vscode (docs was there)" "$(probe mkdir docs/.vscode)" EPERM
expect_eq "mkdir .vscode in a dir a previous run made" "$(probe mkdir made-before/.vscode)" EPERM
expect_eq "tasks.json into an existing .vscode" "$(probe create pkg/.vscode/tasks.json)" EROFS
expect_eq "rename onto an existing settings.json (a bind: another mount)" "$(probe rename docs/d.md pkg/.vscode/settings.json)" EXDEV
expect_eq "tasks.json into the clone's .vscode in a later run" "$(probe create cl/.vscode/tasks.json)" EPERM
expect_eq "remove the clone's settings.json in a later run" "$(probe unlink cl/.vscode/settings.json)" EPERM
absent "nothing planted" docs/.vscode made-before/.vscode pkg/.vscode/tasks.json cl/.vscode/tasks.json .idea .gitmodules
check "the clone's settings.json still there" test -f "$WS/cl/.vscode/settings.json"
# Moving a made directory's .vscode out into an older directory.
out=$(sbx run -q -- sh -c 'mkdir -p n/.vscode && echo x > n/.vscode/tasks.json && mv n/.vscode docs/.vscode' 2>&1)
absent "a new .vscode cannot be moved into docs ($out)" docs/.vscode
expect_eq "... it stays in the new directory" "$(cat "$WS/n/.vscode/tasks.json")" x

# git config in the workspace's repository, made before the run.
cfg=$(cfg_sum)
out=$(sbx run -q -- sh -c 'git config user.email agent@example.com && git remote add origin "$PWD/remote.git" && git push -q -u origin main && echo done' 2>&1)
expect_eq "config user.email, remote add, push -u ($out)" "$out" done
expect_eq "host config: user.email" "$(git -C "$WS" config --local user.email)" agent@example.com
expect_eq "host config: remote url" "$(git -C "$WS" config remote.origin.url)" "$WS/remote.git"
expect_eq "host config: branch tracking" "$(git -C "$WS" config branch.main.remote) $(git -C "$WS" config branch.main.merge)" "origin refs/heads/main"
expect_eq "pushed" "$(git --git-dir="$WS/remote.git" rev-parse main)" "$(git -C "$WS" rev-parse main)"
check "the config's other lines kept" grep -q 'repositoryformatversion = 0' "$WS/.git/config"
cfg=$(cfg_sum)
for kv in "core.hooksPath x" "alias.x !sh" "core.sshCommand touch-pwned" \
	  "core.fsmonitor touch-pwned" "include.path /tmp/c" \
	  "remote.origin.uploadpack touch-pwned" "credential.helper x" \
	  "remote.origin.url ext::sh"; do
	key=${kv%% *}
	lkey=$(tr 'A-Z' 'a-z' <<<"$key")
	out=$(sbx run -- git config "$key" "${kv#* }" 2>&1)
	rc=$?
	check "git config $key refused (rc $rc)" test "$rc" -ne 0
	check "git config $key: the sbx line names it ($out)" grep -q "sbx: .*\.git/config ($lkey: " <<<"$out"
	expect_eq "git config $key: host config unchanged" "$(cfg_sum)" "$cfg"
done
out=$(sbx run -- git remote add evil 'ext::sh -c touch% /tmp/pwned' 2>&1)
check "remote add with an ext:: url refused ($out)" grep -q "remote.evil.url: remote helper" <<<"$out"
expect_eq "host config still unchanged" "$(cfg_sum)" "$cfg"
# A terminal session (built directly, its supervisor forked by its init
# after the init dropped its capabilities): the same.
if command -v script >/dev/null; then
	out=$(script -qec "$BIN/sbxctl --no-autostart --socket $SOCK run -t -- git config user.name tty" /dev/null 2>&1 | tr -d '\r')
	expect_eq "-t session: git config user.name ($out)" "$(git -C "$WS" config --local user.name)" tty
	cfg=$(cfg_sum)
	out=$(script -qec "$BIN/sbxctl --no-autostart --socket $SOCK run -t -- git config core.pager less" /dev/null 2>&1 | tr -d '\r')
	check "-t session: core.pager refused ($out)" grep -q "core.pager: " <<<"$out"
	expect_eq "-t session: host config unchanged" "$(cfg_sum)" "$cfg"
fi
# A change by hand that hides a key in a value the user's syntax allows.
out=$(sbx run -q -- sh -c 'cp .git/config c.lock && printf "[core]\n\teditor = x\n" >> c.lock && mv c.lock .git/config' 2>&1)
check "a hand-made rewrite adding core.editor refused ($out)" grep -q "not permitted" <<<"$out"
expect_eq "host config unchanged at the end" "$(cfg_sum)" "$cfg"
rm -f "$WS/c.lock"
stop_daemon

# Landlock-only mode (no binds: the supervisor alone guards; only an
# unprivileged daemon runs it): the same clone and config.
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only
	out=$(sbx run -q -- sh -c 'git clone -q --no-local "$0" ll && git -C ll checkout -q other && cat ll/.vscode/settings.json' "$F/main" 2>&1)
	expect_eq "landlock-only: clone, checkout in one run" "$out" '{"a":2}'
	expect_eq "landlock-only: the clone's config keeps git's file mode probe" "$(git -C "$WS/ll" config core.filemode)" true
	out=$(sbx run -q -- git config user.name ll 2>&1)
	expect_eq "landlock-only: git config user.name ($out)" "$(git -C "$WS" config --local user.name)" ll
	cfg=$(cfg_sum)
	out=$(sbx run -- git config alias.x '!sh' 2>&1)
	check "landlock-only: alias refused ($out)" grep -q "alias.x: " <<<"$out"
	expect_eq "landlock-only: host config unchanged" "$(cfg_sum)" "$cfg"
	expect_eq "landlock-only: mkdir .vscode at the root" "$(probe mkdir .vscode)" EPERM
	stop_daemon
fi
done_test
