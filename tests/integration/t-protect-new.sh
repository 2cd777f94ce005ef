#!/bin/bash
# Protected paths that do not exist yet (docs/architecture.md, "Protected
# paths"): creating them, or
# renaming, linking or symlinking onto them, fails with EPERM at any depth,
# for repositories made during the run too, whatever a racing thread does
# to the path; renaming a directory neither carries protection away nor
# brings a protected name in; nothing is left behind on the host (git
# status clean). git init, add, commit, clone and worktree add still work.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
cd "$WS"
init_repo
cfg=$(sha256sum <"$WS/.git/config")
start_daemon
has_protect_new ||
	skip "kernel cannot refuse new protected paths (see sbxctl status)"

# A session's supervisor is out of the command's reach: in a template's
# session it is not in the sandbox's pid namespace, so its /proc does not
# list it; in a terminal session it is (its init started it), but not its
# fds (as uid 0 their numbers are listed, not what they are), environment
# or memory.
# (A file made first: answered, so the supervisor is up and named.)
cat >"$WS/probe-sup" <<'EOF'
: > "$TMPDIR/up"; for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = sbx-supervise ] || continue
	for f in $p/fd/*; do readlink $f >/dev/null 2>&1 && echo fd; done
	cat $p/environ >/dev/null 2>&1 && echo environ
	head -c1 $p/mem >/dev/null 2>&1 && echo mem
	echo seen; done
EOF
chmod 644 "$WS/probe-sup"
out=$(sbx run -q -- sh ./probe-sup)
expect_eq "supervisor not in a templated session's /proc" "$out" ""
if command -v script >/dev/null; then
	# (The words only: a terminal may echo a control character first.)
	out=$(script -qec "$BIN/sbxctl --no-autostart --socket $SOCK run -q -t -- sh ./probe-sup" /dev/null 2>&1 | tr -d '\r' | grep -oE '(seen|fd|environ|mem)$')
	expect_eq "tty session: supervisor out of the command's reach" "$(sort -u <<<"$out" | tr "\n" " ")" "seen "
fi
rm -f "$WS/probe-sup"

# Files the supervisor makes get the command's umask, as it changes.
sbx run -q -- sh -c 'umask 077; : > m1; umask 022; : > m2; (umask 027; : > m3); : > m4'
expect_eq "umask honoured" "$(cd "$WS" && stat -c %a m1 m2 m3 m4 | tr '\n' ' ')" "600 644 640 644 "
# And sbxctl's own umask is the command's, whether or not it is the one
# the sandbox already has (022: then it is not set again).
(umask 077; sbx run -q -- sh -c ': > m5')
(umask 022; sbx run -q -- sh -c ': > m6')
(umask 002; sbx run -q -- sh -c ': > m7')
expect_eq "sbxctl's umask goes with the job" "$(cd "$WS" && stat -c %a m5 m6 m7 | tr '\n' ' ')" "600 644 664 "
rm -f "$WS"/m[1-7]

# A name that exists: mkdir and symlink answer EEXIST as bare (the
# supervisor says so from its lookup, without making anything), through
# a symlink last, a trailing slash, ".", absolute or relative.
mkdir -p "$WS/ex/d"
: >"$WS/ex/f"
ln -s nowhere "$WS/ex/dangling"
ln -s d "$WS/ex/l"
for p in ex/d ex/d/ ex/f ex/f/ ex/dangling ex/l ex/l/ ex/. ex/d/.. \
	 "$WS/ex/d" "$WS/ex/dangling"; do
	want=$(cd "$WS" && "$P" mkdir "$p" 2>/dev/null)
	expect_eq "mkdir existing $p" "$(probe mkdir "$p")" "$want"
	want=$(cd "$WS" && "$P" symlink x "$p" 2>/dev/null)
	expect_eq "symlink at existing $p" "$(probe symlink x "$p")" "$want"
done
expect_eq "mkdir existing: EEXIST" "$(probe mkdir ex/l)" EEXIST
rm -rf "$WS/ex"

# Names protected at any depth: creating a file or directory, a symlink,
# a hard link, a rename onto them.
for p in .mcp.json .gitmodules .bashrc .zshrc .sbxignore .cursorignore \
	 .gitconfig deep/er/.mcp.json deep/er/.sbxignore; do
	mkdir -p "$WS/$(dirname "$p")"
	expect_eq "create $p" "$(probe create "$p")" EPERM
	expect_eq "symlink at $p" "$(probe symlink /etc/passwd "$p")" EPERM
	expect_eq "hard link onto $p" "$(probe link file.txt "$p")" EPERM
	expect_eq "rename onto $p" "$(probe rename file.txt "$p")" EPERM
	expect_eq "mknod $p" "$(probe mknod "$p")" EPERM
	absent "nothing made at $p" "$p"
done
for d in .vscode .idea .sbx .claude/commands a/b/c/d/.vscode; do
	mkdir -p "$WS/$(dirname "$d")"
	expect_eq "mkdir $d" "$(probe mkdir "$d")" EPERM
	expect_eq "symlink $d -> elsewhere" "$(probe symlink /tmp "$d")" EPERM
	absent "no $d on the host" "$d"
done
expect_eq "file.txt still there after the renames" "$(cat "$WS/file.txt")" data
# Through a dangling symlink made on the host: the target is checked.
ln -s .mcp.json "$WS/dangle"
out=$(sbx run -q -- sh -c 'echo x > dangle' 2>&1)
check "write through a dangling symlink refused ($out)" grep -q "Operation not permitted" <<<"$out"
absent "symlink target not created" .mcp.json
rm "$WS/dangle"
# A racing thread flipping the path between an innocent name and a
# protected one while the command creates: the supervisor reads the path
# once and creates what it checked (torn names may appear; never B).
mkdir "$WS/race"
(cd "$WS/race" && probe race-create aaaaaaaaa .mcp.json 3000 >/dev/null)
absent "racing thread never gets .mcp.json made" race/.mcp.json
(cd "$WS/race" && probe race-mkdir aaaaaaa .vscode 3000 >/dev/null)
absent "racing thread never gets .vscode made" race/.vscode
rm -rf "$WS/race"
# The workspace repository: its config and hooks (existing, read-only
# binds: EROFS, EBUSY) stay as they were; moving .git aside, renaming a
# directory holding hooks/ onto .git, linking onto a config that does not
# exist yet all fail.
expect_eq "hard link onto .git/config" "$(probe link file.txt .git/config)" EEXIST
expect_eq "rename onto .git/config (not a config git would write)" "$(probe rename file.txt .git/config)" EPERM
expect_eq "rename onto .git/config from inside .git" "$(probe rename .git/description .git/config)" EPERM
expect_eq "reopen .git/config for writing" "$(probe reopen-write .git/config)" EROFS
expect_eq "new hook in .git/hooks" "$(probe create .git/hooks/pre-commit)" EROFS
expect_eq "moving .git aside" "$(probe rename .git .git-moved)" EBUSY
mkdir -p "$WS/n1/x/hooks" "$WS/n1/y"
echo 'echo pwned' >"$WS/n1/x/hooks/pre-commit"
expect_eq "a directory holding hooks/ renamed onto .git" "$(probe rename n1/x n1/.git)" EPERM
absent "no n1/.git" n1/.git
mkdir "$WS/n1/.git"
expect_eq "... or exchanged with an empty .git" "$(probe exchange n1/x n1/.git)" EPERM
expect_eq "hard link onto a config that does not exist" "$(probe link file.txt n1/.git/config)" EPERM
expect_eq "rename a file onto it (not git's content)" "$(probe rename n1/x/hooks/pre-commit n1/.git/config)" EPERM
absent "n1/.git still empty" n1/.git/hooks n1/.git/config
rm -rf "$WS/n1"
expect_eq "config unchanged" "$(sha256sum <"$WS/.git/config")" "$cfg"
expect_eq "git status clean after the refused runs" "$(git -C "$WS" status --porcelain --ignored)" ""

# Repositories made inside: git init at depth works, leaves an empty
# hooks directory, and neither hooks nor config can be written.
out=$(sbx run -q -- sh -c 'git init -q deep/n2 && cd deep/n2 && echo x > f && git add f && git -c user.email=a@b -c user.name=n commit -qm c && echo committed' 2>&1)
expect_eq "git init, add, commit in a new repo at depth" "$out" committed
expect_eq "its hooks directory is empty" "$(ls -A "$WS/deep/n2/.git/hooks")" ""
expect_eq "hook in the new repo" "$(probe create deep/n2/.git/hooks/pre-commit)" EPERM
# The same by absolute paths spelt with "." and "//" (the supervisor
# takes such a path's directories from the names themselves) and through
# a directory whose name is not ASCII (then from the directory).
expect_eq "hook by an absolute path with . and //" "$(probe create "$WS/deep/n2/.git/./hooks//pre-commit")" EPERM
expect_eq "renamed in by such a path" "$(probe rename file.txt "$WS//deep/./n2/.git/hooks/./x")" EPERM
na=d$(printf '\xc3\xa9')
sbx run -q -- git init -q "$na/n3"
expect_eq "hook under a non-ASCII name" "$(probe create "$WS/$na/./n3/.git/./hooks/pre-commit")" EPERM
absent "no hook made" deep/n2/.git/hooks/pre-commit deep/n2/.git/hooks/x "$na/n3/.git/hooks/pre-commit"
rm -rf "${WS:?}/$na"
expect_eq "sample hook name, renamed in" "$(probe rename file.txt deep/n2/.git/hooks/x.sample)" EPERM
expect_eq "write the new config" "$(probe open-write deep/n2/.git/config)" EPERM
expect_eq "truncate the new config" "$(probe truncate deep/n2/.git/config)" EPERM
expect_eq "reopen the new config for writing" "$(probe reopen-write deep/n2/.git/config)" EPERM
expect_eq "hard link from the new config" "$(probe link deep/n2/.git/config cfg2)" EPERM
out=$(sbx run -q -- git -C deep/n2 config core.fsmonitor 'touch /tmp/pwned' 2>&1)
check "git config in a later run refused ($out)" grep -q "Operation not permitted" <<<"$out"
out=$(sbx run -q -- sh -c 'cd deep/n2 && printf "[core]\n\tfsmonitor = x\n" > .git/config.lock && mv .git/config.lock .git/config' 2>&1)
check "a config with a command in it is not renamed in ($out)" grep -q "not permitted" <<<"$out"
check "the new config has no fsmonitor" bash -c "! grep -q fsmonitor '$WS/deep/n2/.git/config'"
# A later run cannot remove it, and cannot make one where there is none:
# only the run that made the repository may have git write a whole config.
cp "$WS/deep/n2/.git/config" "$T/n2-config"
out=$(sbx run -q -- sh -c 'cd deep/n2 && rm -f .git/config' 2>&1)
check "config removed in a later run: refused ($out)" grep -q "not permitted" <<<"$out"
expect_eq "config still there" "$(cat "$WS/deep/n2/.git/config")" "$(cat "$T/n2-config")"
rm -f "$WS/deep/n2/.git/config" "$WS/deep/n2/.git/config.lock"
out=$(sbx run -q -- sh -c 'cd deep/n2 && git config user.name x' 2>&1)
check "config removed on the host, written by a later run: refused ($out)" grep -q "not permitted" <<<"$out"
absent "no config put back" deep/n2/.git/config
cp "$T/n2-config" "$WS/deep/n2/.git/config"
# A repository made from scratch by hand, not by git: only git's own keys.
out=$(sbx run -q -- sh -c 'mkdir -p n3/.git && printf "[core]\n\thooksPath = /tmp\n" > n3/.git/c && mv n3/.git/c n3/.git/config' 2>&1)
check "hand-made config with hooksPath refused ($out)" grep -q "not permitted" <<<"$out"
absent "no n3/.git/config" n3/.git/config
# mkdir -p of hooks at depth: the directory is made (git init needs it),
# nothing can be put in it.
expect_eq "mkdir -p a/b/c/.git/hooks" "$(sbx run -q -- sh -c 'mkdir -p a/b/c/.git/hooks && echo ok' 2>/dev/null)" ok
expect_eq "a hook into it" "$(probe create a/b/c/.git/hooks/post-checkout)" EPERM
expect_eq "a directory into it" "$(probe mkdir a/b/c/.git/hooks/sub)" EPERM
expect_eq "nothing in it" "$(ls -A "$WS/a/b/c/.git/hooks")" ""
# Renaming the parent of a new repo keeps its protection; renaming its
# .git away is refused.
expect_eq "rename the new repo's .git away" "$(probe rename deep/n2/.git deep/n2/g)" EPERM
expect_eq "rename the new repo itself" "$(probe rename deep/n2 deep/n4)" ok
expect_eq "still protected after" "$(probe create deep/n4/.git/hooks/pre-commit)" EPERM

# clone and a linked worktree inside, commits in the worktree.
out=$(sbx run -q -- sh -c 'git clone -q deep/n4 cl && git -C cl log --format=%s' 2>&1)
expect_eq "git clone inside" "$out" c
check "clone's origin recorded" grep -q "url = $WS/deep/n4" "$WS/cl/.git/config"
out=$(sbx run -q -- sh -c 'git worktree add -q wt 2>&1 && cd wt && echo y > g && git add g && git commit -qm wt && git log --format=%s -1' 2>&1)
expect_eq "worktree add and commit in it" "$out" wt
expect_eq "branch made in the main repo" "$(git -C "$WS" log --format=%s -1 wt --)" wt
git -C "$WS" worktree remove --force wt
expect_eq "workspace config still unchanged" "$(sha256sum <"$WS/.git/config")" "$cfg"
expect_eq "git status: only the repos made on purpose" \
	"$(git -C "$WS" status --porcelain --ignored | sort | tr '\n' ' ')" \
	"?? cl/ ?? deep/ "
# A terminal session (built directly, its own supervisor started by its
# init): protected names refused there too, and /dev/tty still opens the
# command's terminal, not the supervisor's (it has none).
if command -v script >/dev/null; then
	out=$(script -qec "$BIN/sbxctl --no-autostart --socket $SOCK run -q -t -- sh -c 'echo > .mcp.json || echo refused; echo x > /dev/tty && echo tty-ok'" /dev/null 2>&1 | tr -d '\r')
	check "tty session: .mcp.json refused ($out)" grep -qx refused <<<"$out"
	check "tty session: /dev/tty opens ($out)" grep -qx tty-ok <<<"$out"
	absent "no .mcp.json from the tty session" .mcp.json
fi
# A FIFO opened for writing with no reader blocks in a worker of the
# supervisor; when the session is killed, the supervisor goes anyway
# (waiting for its session init, not for that worker, which dies with it).
mkfifo "$WS/ff-ready" "$WS/fifo"
sbx run -- sh -c 'echo up >ff-ready; exec 3>fifo' &
ffc=$!
exec 9<>"$WS/ff-ready" # O_RDWR: opens at once, so the read can time out
read -t 20 -r _ <&9 || fail "the FIFO session did not start"
exec 9<&-
ffid=$("$PY" -c 'import json,sys; s=[x for x in json.loads(sys.argv[1]) if "3>" in " ".join(x["argv"])]; print(s[0]["id"], s[0]["pid"])' "$(sbx --json ps)")
sup=$(awk '/^PPid/ {print $2}' "/proc/${ffid#* }/status")
# Ready when the supervisor has forked the worker for the open (its
# children: the init and the worker).
worker_forked() { [ "$(wc -w <"/proc/$sup/task/$sup/children")" -gt 1 ]; }
wait_for "a FIFO worker under supervisor $sup" worker_forked
sbx kill "${ffid% *}" KILL
wait "$ffc"
check "the supervisor exits with its session (FIFO worker pending)" wait_exit "$sup" 10
rm -f "$WS/ff-ready" "$WS/fifo"
stop_daemon
done_test
