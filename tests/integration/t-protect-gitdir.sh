#!/bin/bash
# git's indirections to a repository under another name (docs/architecture.md,
# "The supervisor"): a .git that is not a directory (a "gitdir:" file, a
# symlink), a
# symlink inside .git, commondir, .git/worktrees/*/ and .git/modules/**
# config and hooks cannot be made by a sandboxed command, so a host git run
# there never reads a config of the command's choosing (a planted
# core.fsmonitor would touch a marker). git worktree add still works: the
# supervisor writes the worktree's .git, gitdir and commondir itself.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
cd "$WS"
init_repo
# A submodule-like and a worktree-like layout made on the host before the
# daemon starts: existing ones become read-only binds.
mkdir -p "$WS/.git/modules/m/hooks" "$WS/hw"
printf '[core]\n\tbare = false\n' >"$WS/.git/modules/m/config"
printf 'gitdir: %s/.git/worktrees/hw\n' "$WS" >"$WS/hw/.git"
start_daemon
has_protect_new ||
	skip "kernel cannot refuse new protected paths (see sbxctl status)"
MARK=$T/fsmonitor-ran
# A repository laid out under another name, with a config of the command's
# choosing: x/y/{HEAD,objects,refs,config}.
evil_repo() { # evil_repo DIR
	mkdir -p "$WS/$1/objects" "$WS/$1/refs"
	echo 'ref: refs/heads/main' >"$WS/$1/HEAD"
	printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch %s\n' "$MARK" >"$WS/$1/config"
}
no_fsmonitor() { # no_fsmonitor DESC DIR: host git there runs nothing planted
	rm -f "$MARK"
	git -C "$WS/$2" status >/dev/null 2>&1
	if [ -e "$MARK" ]; then fail "$1: host git ran the planted fsmonitor"; else ok "$1"; fi
}

# 1. A .git file saying gitdir: (the example in docs/architecture.md), at
# any depth.
evil_repo x/y
out=$(sbx run -q -- sh -c "printf 'gitdir: y\n' > x/.git" 2>&1)
check "gitdir: file refused ($out)" grep -q "Operation not permitted" <<<"$out"
absent "no x/.git on the host" x/.git
no_fsmonitor "host git -C x: nothing planted runs" x
for p in x/.git deep/er/.git x/.GIT; do
	mkdir -p "$WS/$(dirname "$p")"
	expect_eq "create $p" "$(probe create "$p")" EPERM
	expect_eq "symlink $p -> y" "$(probe symlink y "$p")" EPERM
	expect_eq "hard link onto $p" "$(probe link file.txt "$p")" EPERM
	expect_eq "rename a file onto $p" "$(probe rename file.txt "$p")" EPERM
	expect_eq "mknod $p" "$(probe mknod "$p")" EPERM
	absent "nothing made at $p" "$p"
done
no_fsmonitor "host git -C x after the refused runs" x
# A directory named .git is still made (git init), and a directory renamed
# onto .git only when no symlink comes in with it.
mkdir -p "$WS/x/g"
expect_eq "mkdir x/g/.git still allowed" "$(probe mkdir x/g/.git)" ok
rm -rf "$WS/x/g"
mkdir -p "$WS/x/d"
ln -s ../y "$WS/x/d/worktrees"
expect_eq "a directory with a symlink renamed onto .git" "$(probe rename x/d x/.git)" EPERM
absent "no x/.git" x/.git
rm -rf "$WS/x/d"
# Existing .git files: read-only binds.
expect_eq "existing .git file not writable" "$(probe reopen-write hw/.git)" EROFS
expect_eq "existing .git file not renamed away" "$(probe rename hw/.git hw/g)" EBUSY

# 2. Inside a .git directory: commondir, config.worktree, worktrees/*/ and
# modules/** config and hooks (a submodule's hooks directory may be made,
# empty); no symlink but to a sibling in modules.
mkdir -p "$WS/n1/.git/worktrees/w" "$WS/n1/.git/modules/a/b"
for p in .git/commondir n1/.git/commondir n1/.git/config.worktree \
	 n1/.git/worktrees/w/config n1/.git/worktrees/w/config.worktree \
	 n1/.git/modules/a/config n1/.git/modules/a/b/config \
	 n1/.git/modules/a/commondir n1/.git/modules/a/config.worktree; do
	expect_eq "create $p" "$(probe create "$p")" EPERM
	expect_eq "rename onto $p" "$(probe rename file.txt "$p")" EPERM
	absent "no $p" "$p"
done
expect_eq "mkdir n1/.git/worktrees/w/hooks" "$(probe mkdir n1/.git/worktrees/w/hooks)" EPERM
absent "no n1/.git/worktrees/w/hooks" n1/.git/worktrees/w/hooks
# A submodule's hooks directory is git init's .git/hooks: empty (git's
# sample hooks discarded), no hook in it.
for d in n1/.git/modules/a/hooks n1/.git/modules/a/b/hooks; do
	expect_eq "mkdir $d (empty)" "$(probe mkdir "$d")" ok
	expect_eq "a hook in $d" "$(probe create "$d/post-checkout")" EPERM
	expect_eq "a sample hook in $d" "$(probe create "$d/pre-commit.sample")" ok
	expect_eq "$d empty on the host" "$(ls -A "$WS/$d")" ""
done
expect_eq "symlink .git/worktrees -> elsewhere" "$(probe symlink ../../x n1/.git/worktrees/w2)" EPERM
expect_eq "symlink inside .git/modules" "$(probe symlink /tmp n1/.git/modules/a/c)" EPERM
expect_eq "commondir written by hand" "$(probe create n1/.git/worktrees/w/commondir)" ok
expect_eq "... holds only ../.." "$(cat "$WS/n1/.git/worktrees/w/commondir")" "../.."
expect_eq "... and cannot be rewritten" "$(probe open-write n1/.git/worktrees/w/commondir)" EPERM
expect_eq "a gitdir written by hand goes nowhere" "$(probe create n1/.git/worktrees/w/gitdir)" ok
absent "no gitdir without its worktree" n1/.git/worktrees/w/gitdir
# The host's submodule repository: its config and hooks are read-only.
expect_eq "existing .git/modules/m/config" "$(probe reopen-write .git/modules/m/config)" EROFS
expect_eq "existing .git/modules/m/hooks" "$(probe create .git/modules/m/hooks/post-checkout)" EROFS
rm -rf "$WS/n1"

# 3. git worktree add inside, in the workspace repository and in one made
# during the run; the .git file names the worktree's own directory.
out=$(sbx run -q -- sh -c 'git worktree add -q wt 2>&1 && cd wt && echo y > g && git add g && git commit -qm wt && git log --format=%s -1' 2>&1)
expect_eq "worktree add and commit in it" "$out" wt
expect_eq "its .git file" "$(cat "$WS/wt/.git")" "gitdir: $WS/.git/worktrees/wt"
expect_eq "its gitdir" "$(cat "$WS/.git/worktrees/wt/gitdir")" "$WS/wt/.git"
expect_eq "its commondir" "$(cat "$WS/.git/worktrees/wt/commondir")" "../.."
expect_eq "host git sees the worktree" "$(git -C "$WS/wt" log --format=%s -1)" wt
expect_eq "its .git file cannot be rewritten" "$(probe open-write wt/.git)" EPERM
expect_eq "... nor linked elsewhere to write it" "$(probe link wt/.git wt/g2)" EPERM
expect_eq "... nor truncated" "$(probe truncate wt/.git)" EPERM
git -C "$WS" worktree remove --force wt
out=$(sbx run -q -- sh -c 'git init -q n2 && cd n2 && echo x > f && git add f && git -c user.email=a@b -c user.name=n commit -qm c && git worktree add -q ../n2wt 2>&1 && git -C ../n2wt log --format=%s -1' 2>&1)
expect_eq "worktree add in a repository made in the run" "$out" c
expect_eq "git init there found symlinks work" "$(git -C "$WS/n2" config core.symlinks)" ""
no_fsmonitor "host git in that worktree runs nothing planted" n2wt
rm -rf "$WS/n2" "$WS/n2wt" "$WS/x"
git -C "$WS" worktree prune
expect_eq "git status clean (hw/ holds only a .git)" \
	"$(git -C "$WS" status --porcelain --ignored)" ""
# 4. Repositories reached through a .git made before the template (in
# a second workspace, built after this layout): what git reads there
# (config, hooks) cannot be changed from inside, by either name; git
# finds them from the host as before. A repository kept elsewhere under
# another name, reached through a .git symlink, a .git file and a .git
# directory's commondir: the template makes those read-only as a whole.
WS=$T/ws2
mkdir "$WS"
cd "$WS"
init_repo
for r in lrepo.git frepo.git crepo.git; do git init -q --bare "$WS/$r"; done
mkdir -p "$WS/ls" "$WS/lf" "$WS/cd/.git"
ln -s ../lrepo.git "$WS/ls/.git"
printf 'gitdir: ../frepo.git\n' >"$WS/lf/.git"
echo 'ref: refs/heads/main' >"$WS/cd/.git/HEAD"
printf '../../crepo.git\n' >"$WS/cd/.git/commondir"
# A .git file padded past any small read (git drops trailing newlines).
git init -q --bare "$WS/prepo.git"
mkdir "$WS/lp"
{ printf 'gitdir: ../prepo.git'; head -c 5000 /dev/zero | tr '\0' '\n'; } >"$WS/lp/.git"
# .git links to a masked repository (from 20 directories, so that the
# walk, in the directory's own order, meets one before the repository),
# and one leading above the workspace's own repository (not one).
git init -q --bare "$WS/secrets"
echo secrets >"$WS/.sbxignore"
for i in $(seq -w 20); do mkdir "$WS/h$i" && ln -s ../secrets "$WS/h$i/.git"; done
mkdir "$WS/up"
ln -s .. "$WS/up/.git"
for d in ls lf cd lp; do
	[ -n "$(git -C "$WS/$d" rev-parse --git-common-dir 2>/dev/null)" ] ||
		fail "host git finds no repository in $d"
done
before=$(cat "$WS"/{lrepo,frepo,crepo,prepo}.git/config | sha256sum)
for p in lrepo.git/hooks/post-checkout ls/.git/hooks/post-checkout \
	frepo.git/hooks/pre-commit crepo.git/hooks/pre-commit \
	prepo.git/hooks/pre-commit; do
	expect_eq "create $p" "$(probe create "$p")" EROFS
	absent "no $p on the host" "$p"
done
for p in lrepo.git/config ls/.git/config frepo.git/config crepo.git/config \
	prepo.git/config; do
	expect_eq "write $p" "$(probe open-write "$p")" EROFS
done
out=$(sbx run -q -- sh -c "printf '[core]\n\tfsmonitor = touch $MARK\n' >> ls/.git/config" 2>&1)
check "fsmonitor planted through the .git symlink refused ($out)" grep -q "Read-only file system" <<<"$out"
expect_eq "their configs unchanged" "$(cat "$WS"/{lrepo,frepo,crepo,prepo}.git/config | sha256sum)" "$before"
expect_eq "a masked repository a .git leads to stays masked" \
	"$(sbx run -q -- sh -c 'cat secrets/config >/dev/null 2>&1 && echo read || echo denied')" denied
expect_eq "a .git leading above the workspace changes nothing" \
	"$(sbx run -q -- sh -c 'echo x > up/new && echo ok')" ok
no_fsmonitor "host git -C ls: nothing planted runs" ls
# The workspace's own repository stays writable.
expect_eq "the workspace's own repository still takes commits" \
	"$(sbx run -q -- sh -c 'echo more >> file.txt && git commit -qam more && echo ok' 2>&1)" ok
stop_daemon
done_test
