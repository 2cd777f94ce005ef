#!/bin/bash
# Submodules of a repository the run made (docs/security.md, "Protected
# paths, where they have power"): git clone --recurse-submodules works,
# and what it needs stays narrow. A .git file is written only in a
# directory the run made and only when it names a submodule's repository
# (TOP/.git/modules/NAME) in a .git the run made, reached without a
# symlink; anything else is refused and absent on the host. A submodule's
# config gets a new repository's check (core.worktree only inside the
# superproject), its hooks directory only git's discarded samples.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
cd "$WS"
start_daemon
has_protect_new ||
	skip "kernel cannot refuse new protected paths (see sbxctl status)"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@t GIT_CONFIG_NOSYSTEM=1

# Fixtures in the workspace (a sandbox reads them by file:// URL).
git init -q -b main "$WS/src/lib"
echo 'lib v1' >"$WS/src/lib/lib.txt"
git -C "$WS/src/lib" add . && git -C "$WS/src/lib" commit -qm lib
git init -q -b main "$WS/src/app"
echo app >"$WS/src/app/README"
git -C "$WS/src/app" add .
git -C "$WS/src/app" -c protocol.file.allow=always submodule add -q \
	"file://$WS/src/lib" lib
git -C "$WS/src/app" commit -qm app

# What works: a clone with its submodule, and git submodule update.
out=$(sbx run -q -- git -c protocol.file.allow=always clone -q \
	--recurse-submodules "file://$WS/src/app" app 2>&1)
expect_eq "clone --recurse-submodules ($out)" "$?" 0
expect_eq "the submodule's file on the host" "$(cat "$WS/app/lib/lib.txt" 2>&1)" 'lib v1'
expect_eq "its .git file, git's relative one" "$(cat "$WS/app/lib/.git" 2>&1)" \
	'gitdir: ../.git/modules/lib'
expect_eq "the host's git takes it" \
	"$(git -C "$WS/app/lib" log --format=%s 2>&1)" lib
expect_eq "its work tree, the submodule's directory" \
	"$(git -C "$WS/app/.git/modules/lib" config core.worktree)" ../../../lib
expect_eq "no hook in the submodule's repository" \
	"$(find "$WS/app/.git/modules/lib/hooks" -type f | wc -l)" 0
sbx run -q -- sh -c 'git clone -q -c protocol.file.allow=always "file://$1" app2 &&
	cd app2 && git -c protocol.file.allow=always submodule update -q --init' \
	- "$WS/src/app" 2>&1
expect_eq "clone, then submodule update --init" "$(cat "$WS/app2/lib/lib.txt" 2>&1)" 'lib v1'

# A .git file in a directory that existed before the run: refused at the
# open, with nothing left (a gitlink planted where the user's tools look).
mkdir "$WS/pre"
expect_eq "create a .git file in a pre-existing directory" \
	"$(probe create pre/.git)" EPERM
absent "no .git file in the pre-existing directory" pre/.git
printf 'gitdir: %s\n' "$WS/app/.git/modules/lib" >"$WS/pre2.git"
mkdir "$WS/pre2" && cp "$WS/pre2.git" "$WS/pre2/.git"
expect_eq "rewrite a .git file made before the run" \
	"$(probe write pre2/.git x)" EPERM
expect_eq "it is as it was" "$(cat "$WS/pre2/.git")" "$(cat "$WS/pre2.git")"
# In a directory the run made, only a submodule's repository in a .git
# the run made, reached without a symlink: each of these is written by
# git as it would write it (the open succeeds, on an anonymous file) and
# never reaches the host; the control case does.
git init -q "$WS/hostrepo"
mkdir -p "$WS/hostrepo/.git/modules/x"
cat >"$WS/gitlinks.sh" <<EOF
git init -q made
mkdir -p made/.git/modules/x
ln -s made madelink
for d in ok tmp old link dots abs nl; do mkdir \$d; done
printf 'gitdir: ../made/.git/modules/x\n' >ok/.git
printf 'gitdir: /tmp/evil/.git/modules/x\n' >tmp/.git
printf 'gitdir: $WS/hostrepo/.git/modules/x\n' >old/.git
printf 'gitdir: ../madelink/.git/modules/x\n' >link/.git
printf 'gitdir: ../made/.git/modules/x/../../../../old/.git/modules/x\n' >dots/.git
printf 'gitdir: $HOME/.git/modules/x\n' >abs/.git
printf 'gitdir: ../made/.git/modules/x\nworktree: /\n' >nl/.git
exit 3
EOF
chmod 644 "$WS/gitlinks.sh"
sbx run -- bash gitlinks.sh >"$T/gl.out" 2>&1
# (A failing command: sbxctl says what was refused.)
check "the refusal is reported, with why ($(grep tmp/.git "$T/gl.out"))" \
	grep -q "^sbx: .*$WS/tmp/.git.*not in a .git made in this run" "$T/gl.out"
expect_eq "the control .git file is written" "$(cat "$WS/ok/.git" 2>&1)" \
	'gitdir: ../made/.git/modules/x'
absent "a .git file naming /tmp, a repository made before the run, a symlink, .. after a name, the home, two lines" \
	tmp/.git old/.git link/.git dots/.git abs/.git nl/.git

# A submodule's config: a new repository's check. core.hooksPath,
# core.fsmonitor and a work tree outside the superproject are refused
# (EPERM at the rename git makes), core.worktree inside it is not.
cat >"$WS/modcfg.sh" <<EOF
git init -q r && mkdir -p r/.git/modules/x/hooks
m=r/.git/modules/x
for v in 'hooksPath = /tmp' 'fsmonitor = /tmp/x' 'worktree = ../../../../..' \
	 'worktree = ../../..' 'worktree = ../../../sub'; do
	printf '[core]\n\t%s\n' "\$v" >\$m/config.lock
	echo "\$v: \$($P rename \$m/config.lock \$m/config)"
	rm -f \$m/config.lock
done
echo "hook: \$($P create \$m/hooks/post-checkout)"
echo "sample: \$($P create \$m/hooks/pre-commit.sample)"
echo "probe symlink: \$($P symlink testing \$m/tABCDEF)"
echo "symlink out: \$($P symlink /tmp \$m/modules)"
echo "symlink up: \$($P symlink .. \$m/up)"
git init -q r2
echo "symlink modules: \$($P symlink x r2/.git/modules)"
EOF
chmod 644 "$WS/modcfg.sh"
out=$(sbx run -q -- bash modcfg.sh 2>/dev/null)
expect_eq "submodule config: hooksPath" "$(grep '^hooksPath' <<<"$out")" 'hooksPath = /tmp: EPERM'
expect_eq "submodule config: fsmonitor" "$(grep '^fsmonitor' <<<"$out")" 'fsmonitor = /tmp/x: EPERM'
expect_eq "submodule config: work tree outside" "$(grep '\.\./\.\./\.\./\.\./\.\.:' <<<"$out")" 'worktree = ../../../../..: EPERM'
expect_eq "submodule config: work tree the superproject's top" "$(grep '^worktree = \.\./\.\./\.\.:' <<<"$out")" 'worktree = ../../..: EPERM'
expect_eq "submodule config: work tree inside" "$(grep 'sub:' <<<"$out")" 'worktree = ../../../sub: ok'
expect_eq "submodule config on the host" "$(cat "$WS/r/.git/modules/x/config" 2>&1)" \
	"$(printf '[core]\n\tworktree = ../../../sub')"
expect_eq "a hook in a submodule's repository" "$(grep '^hook:' <<<"$out")" 'hook: EPERM'
expect_eq "a sample hook, accepted" "$(grep '^sample:' <<<"$out")" 'sample: ok'
# Symlinks below .git/modules: only to a sibling (git init's probe of
# symlink support), never elsewhere.
expect_eq "git init's symlink probe" "$(grep '^probe symlink:' <<<"$out")" 'probe symlink: ok'
expect_eq "a symlink out of .git/modules" "$(grep '^symlink out:' <<<"$out")" 'symlink out: EPERM'
expect_eq "a symlink to .." "$(grep '^symlink up:' <<<"$out")" 'symlink up: EPERM'
expect_eq "a symlink at .git/modules" "$(grep '^symlink modules:' <<<"$out")" 'symlink modules: EPERM'
absent "no symlink leading out on the host" r/.git/modules/x/modules \
	r/.git/modules/x/up r2/.git/modules
absent "no hook on the host" r/.git/modules/x/hooks/post-checkout \
	r/.git/modules/x/hooks/pre-commit.sample
done_test
