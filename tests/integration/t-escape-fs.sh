#!/bin/bash
# Tricks that must not reach masked or read-only files: symlinks, "..",
# /proc/self/root, other processes' /proc entries, hard links made inside,
# rename and unlink of masked or protected entries, moving .git aside.
# Git keeps working in a repository of the workspace.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
cd "$WS"
git init -q "$WS" && git -C "$WS" config user.email t@t && git -C "$WS" config user.name t
echo "TOKEN=1" >"$WS/.env"
echo ".env" >"$WS/.sbxignore"
echo data >"$WS/file.txt"
git -C "$WS" add file.txt .sbxignore && git -C "$WS" commit -qm init
cfg=$(sha256sum <"$WS/.git/config")
start_daemon
expect_eq "direct read masked" "$(sbx run -- "$P" read .env)" EACCES
ln -s .env "$WS/link-to-env"
expect_eq "through a symlink" "$(sbx run -- "$P" read link-to-env)" EACCES
mkdir -p "$WS/sub"
expect_eq "through .." "$(sbx run -- "$P" read "$WS/sub/../.env")" EACCES
expect_eq "through /proc/self/root" "$(sbx run -- "$P" read "/proc/self/root$WS/.env")" EACCES
out=$(sbx run -- "$P" read "/proc/1/root$WS/.env")
check "through /proc/1/root refused ($out)" test "$out" = EACCES -o "$out" = ENOENT
out=$(sbx run -- "$P" read "/proc/1/cwd/etc/hostname")
check "other process cwd refused ($out)" test "$out" = EACCES -o "$out" = ENOENT
expect_eq "hard link made inside refused" "$(sbx run -- ln .env stolen 2>&1 | grep -c 'cross-device\|Invalid cross')" 1
check "no hard link on the host" test ! -e "$WS/stolen"
expect_eq "rename of a masked file" "$(sbx run -- mv .env env.txt 2>&1 | grep -c 'busy')" 1
expect_eq "unlink of a masked file" "$(sbx run -- rm -f .env 2>&1 | grep -c 'busy')" 1
check "masked file intact on the host" grep -qx TOKEN=1 "$WS/.env"
expect_eq ".git/config read-only" "$(sbx run -- "$P" write .git/config)" EROFS
out=$(sbx run -- mv .git .git-moved 2>&1)
check "moving .git aside refused ($out)" grep -q "busy" <<<"$out"
check ".git still in place" test -d "$WS/.git" -a ! -e "$WS/.git-moved"
expect_eq "config unchanged" "$(sha256sum <"$WS/.git/config")" "$cfg"
# Git keeps working: add and commit write index, objects and refs.
echo more >>"$WS/file.txt"
sbx run -- sh -c 'git add file.txt && git commit -qm change' >/dev/null 2>&1
expect_eq "commit made inside the sandbox" "$(git -C "$WS" log --format=%s -1)" change
expect_eq "git status clean on the host after the runs" "$(git -C "$WS" status --porcelain --ignored=no | grep -v 'link-to-env\|sub\|\.env')" ""
stop_daemon
done_test
