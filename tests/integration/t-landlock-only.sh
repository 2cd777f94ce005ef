#!/bin/bash
# Landlock-only mode (sbxd --landlock-only: what a daemon without user
# namespaces and without root falls back to): writes only in the
# workspace and TMPDIR, denyRead and ignored paths unreadable, the seccomp
# deny set, no IPv4/IPv6 sockets, no signals to host processes; status
# names the mode and its losses. Protected and denyWrite paths in the
# workspace, existing or not, are guarded by the session's supervisor
# (EPERM, host files unchanged), and git still works. As root the mode is refused (root serves
# a user in privileged mode instead).
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
if [ "$(id -u)" -eq 0 ]; then
	out=$("$BIN/sbxd" --socket "$SOCK" --landlock-only 2>&1)
	expect_eq "refused as root (exit 1)" "$?" 1
	check "the refusal names privileged mode ($out)" \
		grep -q "privileged mode (sbxd --user NAME)" <<<"$out"
	check "nothing listens" test ! -e "$SOCK"
	done_test
fi
mkdir -p "$T/home/.ssh" "$T/ro"
echo private-key >"$T/home/.ssh/id_rsa"
echo public-key >"$T/home/.ssh/id_rsa.pub"
echo host-file >"$T/ro/file"
echo env-secret >"$WS/.env"
echo keep >"$WS/keep.txt"
printf '.env\n' >"$WS/.sbxignore"
echo locked >"$WS/locked.txt"
cat >"$T/policy.json" <<JSON
{ "filesystem": { "denyRead": ["$T/home/.ssh/id_rsa"],
		  "denyWrite": ["$WS/locked.txt"] } }
JSON
# (A directory on the way to a mask, here the workspace root holding the
# ignored .env, has its entries granted reads one by one: a directory
# made there during a run is unreadable until the next. So git makes its
# new repositories in sub/, which holds no mask.)
mkdir "$WS/sub"
# A repository with a hook, a disabled (not executable) hook, and rc and
# editor files in the workspace, made on the host.
git init -q "$WS"
git -C "$WS" config user.email t@t && git -C "$WS" config user.name t
printf '#!/bin/sh\nexit 0\n' >"$WS/.git/hooks/pre-commit"
chmod 755 "$WS/.git/hooks/pre-commit"
printf '#!/bin/sh\necho disabled\n' >"$WS/.git/hooks/post-merge"
chmod 644 "$WS/.git/hooks/post-merge"
echo 'alias ls=ls' >"$WS/.bashrc"
git -C "$WS" add keep.txt && git -C "$WS" commit -qm init
sums() { (cd "$WS" && sha256sum .git/config .git/hooks/pre-commit \
	.git/hooks/post-merge .bashrc .sbxignore locked.txt) }
before=$(sums)
start_daemon --landlock-only --policy "$T/policy.json" --home "$T/home"
cd "$WS"

# What the mode is and what it loses, said by status.
out=$(sbx status)
check "status names the mode" grep -q "landlock-only mode" <<<"$out"
check "status: no namespaces" grep -q "^namespaces: none" <<<"$out"
check "status: no masks by mount" grep -q "no masks by mount" <<<"$out"
check "status: no private /tmp" grep -q "no private /tmp" <<<"$out"
check "status: protected paths guarded by the supervisor" \
	grep -q "protected and denyWrite paths inside the workspace are guarded by the session's supervisor" <<<"$out"
check "status: no network" grep -q "no network: IPv4/IPv6 sockets refused" <<<"$out"
out=$(sbx --json status)
check "json run_mode" grep -q '"run_mode": "landlock-only"' <<<"$out"

# Writes: outside the workspace refused with EACCES, host file unchanged.
expect_eq "write outside the workspace -> EACCES" \
	"$(sbx run -- "$P" write "$T/ro/file")" EACCES
expect_eq "host file unchanged" "$(cat "$T/ro/file")" host-file
expect_eq "create outside the workspace -> EACCES" \
	"$(sbx run -- "$P" write "$T/ro/new")" EACCES
check "nothing created outside" test ! -e "$T/ro/new"
# A refused creation the supervisor saw: after a failure the note names
# the writable paths (a fact, not a guess).
sbx run -- sh -c "$P write $T/ro/new2 >/dev/null; exit 1" 2>"$T/err"
check "the refused write's line" grep -q "^sbx: blocked create file in $T/ro " "$T/err"
check "and the note on the writable paths" grep -q "^sbx: the command failed (exit 1) after a write outside the writable paths was refused; they are: $WS, " "$T/err"
expect_eq "/tmp is the host's, read-only" \
	"$(sbx run -- "$P" write /tmp/sbx-llonly-$$)" EACCES
expect_eq "write inside the workspace works" \
	"$(sbx run -- "$P" write "$WS/made")" ok
check "the file is on the host" test -e "$WS/made"
out=$(sbx run -- sh -c 'echo t >"$TMPDIR/f" && cat "$TMPDIR/f" && echo "$TMPDIR"')
expect_eq "TMPDIR is private and writable" "$(head -1 <<<"$out")" t
check "TMPDIR is under the runtime dir ($out)" \
	grep -q "^$XDG_RUNTIME_DIR/sbx/tmp/" <<<"$(tail -1 <<<"$out")"
expect_eq "describe names that temp dir" \
	"$(sbx --json describe | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["tmp"])')" \
	"$(tail -1 <<<"$out")"
check "describe says there is no network" grep -q '^- Network: none' \
	< <(sbx describe)

# Reads: denyRead and ignored files masked, their siblings readable.
expect_eq "denyRead file -> EACCES" \
	"$(sbx run -- "$P" read "$T/home/.ssh/id_rsa")" EACCES
expect_eq "its sibling is readable" \
	"$(sbx run -- "$P" read "$T/home/.ssh/id_rsa.pub")" ok
expect_eq "ignored .env -> EACCES" "$(sbx run -- "$P" read "$WS/.env")" EACCES
expect_eq "workspace file readable" "$(sbx run -- cat keep.txt)" keep
# The daemon's state: unreadable (its names are listable: see status),
# other workspaces' temp dirs included.
echo state >"$XDG_RUNTIME_DIR/sbx/state"
mkdir -p "$XDG_RUNTIME_DIR/sbx/tmp/other"
echo other >"$XDG_RUNTIME_DIR/sbx/tmp/other/f"
expect_eq "daemon state unreadable" \
	"$(sbx run -- "$P" read "$XDG_RUNTIME_DIR/sbx/state")" EACCES
expect_eq "another workspace's temp file unreadable" \
	"$(sbx run -- "$P" read "$XDG_RUNTIME_DIR/sbx/tmp/other/f")" EACCES
expect_eq "no writes in the daemon's dir" \
	"$(sbx run -- "$P" write "$XDG_RUNTIME_DIR/sbx/x")" EACCES
# A file made by an earlier run beside a mask is granted at the next run
# (the rules are rebuilt when such a directory changes).
expect_eq "earlier run's file readable" "$(sbx run -- "$P" read "$WS/made")" ok

# Protected and denyWrite paths inside the workspace (docs/architecture.md,
# "Protected paths"): no
# read-only binds here, so the session's supervisor guards existing ones
# as well as new ones. Every refusal is its EPERM: the workspace is
# writable to Landlock, so Landlock never decides first there. (Outside
# the workspace too a protected name gets EPERM, not Landlock's EACCES:
# the supervisor checks the rules before it asks the kernel.)
if ! has_protect_new; then
	check "no supervisor: status says protected paths are NOT read-only" \
		grep -q "paths inside the workspace are NOT read-only" < <(sbx status)
	check "... and describe that they are not enforced" \
		grep -q "this host cannot enforce it inside the workspace" < <(sbx describe)
else
	check "status: protected paths refused by the supervisor" \
		grep -q "^protected:  existing and new ones refused (supervisor" < <(sbx status)
	check "describe: protected files read-only" \
		grep -q "^- Always read-only, even in the workspace" < <(sbx describe)
	expect_eq "write an existing hook" "$(probe write .git/hooks/pre-commit)" EPERM
	expect_eq "open it O_WRONLY" "$(probe open-write .git/hooks/pre-commit)" EPERM
	expect_eq "reopen it for writing through /proc" "$(probe reopen-write .git/hooks/pre-commit)" EPERM
	expect_eq "unlink it" "$(probe unlink .git/hooks/pre-commit)" EPERM
	expect_eq "rmdir .git/hooks" "$(probe rmdir .git/hooks)" EPERM
	expect_eq "chmod +x a disabled hook" "$(probe chmod .git/hooks/post-merge 755)" EPERM
	expect_eq "create a new hook" "$(probe create .git/hooks/post-checkout)" EPERM
	expect_eq "rename a file onto a new hook" "$(probe rename keep.txt .git/hooks/post-checkout)" EPERM
	absent "no post-checkout hook" .git/hooks/post-checkout
	expect_eq "truncate .git/config" "$(probe truncate .git/config)" EPERM
	expect_eq "rename .git/config away" "$(probe rename .git/config cfg-moved)" EPERM
	expect_eq "rename a file onto .git/config" "$(probe rename keep.txt .git/config)" EPERM
	expect_eq "exchange a file with .git/config" "$(probe exchange keep.txt .git/config)" EPERM
	expect_eq "unlink .git/config" "$(probe unlink .git/config)" EPERM
	expect_eq "hard link to .git/config" "$(probe link .git/config cfg-link)" EPERM
	expect_eq "move .git aside (its config and hooks would lose protection)" \
		"$(probe rename .git git-moved)" EPERM
	absent "nothing moved or linked" cfg-moved cfg-link git-moved
	expect_eq "write the workspace .bashrc" "$(probe write .bashrc)" EPERM
	expect_eq "unlink it" "$(probe unlink .bashrc)" EPERM
	expect_eq "create .zshrc" "$(probe create .zshrc)" EPERM
	expect_eq "create .mcp.json" "$(probe write .mcp.json)" EPERM
	expect_eq "mkdir .vscode" "$(probe mkdir .vscode)" EPERM
	out=$(sbx run -q -- sh -c 'mkdir -p .vscode && echo {} >.vscode/settings.json' 2>&1)
	check ".vscode/settings.json refused ($out)" grep -q "Operation not permitted" <<<"$out"
	absent "no .zshrc, .mcp.json, .vscode" .zshrc .mcp.json .vscode
	expect_eq "unlink .sbxignore (would unmask .env next run)" "$(probe unlink .sbxignore)" EPERM
	expect_eq "denyWrite file: write" "$(probe write locked.txt)" EPERM
	expect_eq "denyWrite file: unlink" "$(probe unlink locked.txt)" EPERM
	expect_eq "a protected name outside the workspace: EPERM too" \
		"$(probe write "$T/home/.bashrc")" EPERM
	check "... and not made" test ! -e "$T/home/.bashrc"
	expect_eq "host files unchanged (sha256)" "$(sums)" "$before"
	expect_eq "chmod and rm of other files work" "$(sbx run -q -- sh -c \
		'echo x >sub/c && chmod 700 sub/c && stat -c %a sub/c && rm sub/c && echo gone')" "700
gone"
	expect_eq "disabled hook still not executable" \
		"$(stat -c %a "$WS/.git/hooks/post-merge")" 644
	sbx run --json -- "$P" unlink .git/config >/dev/null 2>"$T/v.json"
	check "... reported as a removal of .git/config" \
		grep -q '"kind":"fs-write","target":"[^"]*/ws/.git/config","operation":"remove"' "$T/v.json"
	check "... with the rule that protects it" \
		grep -q '"rule_id":"git-config"' "$T/v.json"
	# git keeps working: commit in the workspace repository (its hook
	# runs), a new repository made, used and removed in one run.
	echo more >>"$WS/keep.txt"
	out=$(sbx run -q -- sh -c 'git add keep.txt && git commit -qm inside && git log --format=%s -1' 2>&1)
	expect_eq "git add, commit in the workspace repo" "$out" inside
	out=$(sbx run -q -- sh -c 'git init -q sub/n && cd sub/n && echo x >f && git add f && git -c user.email=a@b -c user.name=n commit -qm c && git log --format=%s' 2>&1)
	expect_eq "git init, add, commit in a new repo" "$out" c
	expect_eq "its hooks directory is empty" "$(ls -A "$WS/sub/n/.git/hooks")" ""
	expect_eq "a hook in the new repo" "$(probe create sub/n/.git/hooks/pre-commit)" EPERM
	out=$(sbx run -q -- sh -c 'git init -q sub/t2 && rm -rf sub/t2 && echo removed' 2>&1)
	expect_eq "a repository made in this run can be removed in it" "$out" removed
	absent "it is gone" sub/t2
	out=$(sbx run -q -- rm -rf sub/n 2>&1)
	check "one made by an earlier run cannot ($out)" grep -q "sub/n/.git/.*not permitted" <<<"$out"
	check "its config is still there" test -f "$WS/sub/n/.git/config"
	rm -rf "$WS/sub/n"
	expect_eq "host files unchanged after git ran (sha256)" "$(sums)" "$before"
	expect_eq "the commit is on the host" "$(git -C "$WS" log --format=%s -1)" inside
	expect_eq "keep.txt committed" "$(git -C "$WS" status --porcelain keep.txt)" ""
fi

# The seccomp deny set, and no network.
for op in keyctl bpf; do
	expect_eq "$op -> EPERM" "$(sbx run -- "$P" "$op" 2>/dev/null)" EPERM
done
expect_eq "IPv4 socket -> EPERM" "$(sbx run -- "$P" socket 2 1 0)" EPERM
expect_eq "IPv6 socket -> EPERM" "$(sbx run -- "$P" socket 10 2 0)" EPERM
sbx run --json -- "$P" socket 2 1 0 >/dev/null 2>"$T/v.json"
check "... reported to the client as a violation (rule seccomp.ip-socket)" \
	grep -q '"rule_id":"seccomp.ip-socket"' "$T/v.json"
expect_eq "AF_UNIX socket -> EPERM" "$(sbx run -- "$P" unix-socket 2>/dev/null)" EPERM
expect_eq "socketpair still works" "$(sbx run -- "$P" socketpair)" ok

# Signals: a host process of the same user is out of reach.
sleep 300 &
victim=$!
expect_eq "signal to a host process -> EPERM" "$(sbx run -- "$P" kill "$victim")" EPERM
sbx run -- sh -c "kill -TERM $victim" 2>/dev/null
check "the host process survived" kill -0 "$victim"
kill "$victim"
wait "$victim" 2>/dev/null

# Exit codes and output as in the other modes; no_new_privs and a session.
sbx run -- sh -c 'exit 7'
expect_eq "exit code passed through" "$?" 7
expect_eq "stdout relayed" "$(sbx run -- echo hello)" hello
out=$(sbx run -- sh -c 'grep NoNewPrivs /proc/self/status; ps -o sid= -p $$ 2>/dev/null || cat /proc/self/stat')
check "no_new_privs set ($out)" grep -q "NoNewPrivs:.*1" <<<"$out"
sbx run -- sh -c 'sleep 300 & echo $! >"$TMPDIR/bg"; exit 0'
expect_eq "command with a background child exits" "$?" 0
check "the background child was killed with the sandbox" \
	sh -c '! kill -0 "$(cat "$0"/sbx/tmp/*/bg)" 2>/dev/null' "$XDG_RUNTIME_DIR"
# A kill (SIGKILL) takes the whole sandbox, even what left the command's
# session (no pid namespace to die with: the session init hunts them).
mkfifo "$T/o"
sbx run -- sh -c 'setsid sleep 300 & echo $! >"$TMPDIR/gc"; echo ready; exec sleep 1000' >"$T/o" &
client=$!
exec 8<"$T/o"
read -r line <&8
id=$(sbx --json ps | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
gc=$(cat "$XDG_RUNTIME_DIR"/sbx/tmp/*/gc)
check "the setsid grandchild runs" kill -0 "$gc"
sbx kill "$id" KILL
wait "$client"
expect_eq "kill ID KILL -> client exits 137" $? 137
check "the setsid grandchild is gone" sh -c "! kill -0 $gc 2>/dev/null"
exec 8<&-
stop_daemon

# Without the option, on a host where user namespaces really are
# unavailable: the daemon runs in a user namespace of its own whose limit
# on nested ones is 0 (its capabilities there dropped before it starts),
# so its probe fails and it falls back to this mode by itself.
if ! unshare --user --map-current-user --keep-caps true 2>/dev/null; then
	echo "SKIP part: no unshare --keep-caps here"
	done_test
fi
mkfifo "$T/ready"
unshare --user --map-current-user --keep-caps sh -c '
	echo 0 >/proc/sys/user/max_user_namespaces || exit 1
	exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all \
		"$0" --socket "$1" --ready-fd 3 --policy "$2" --home "$3"' \
	"$BIN/sbxd" "$SOCK" "$T/policy.json" "$T/home" 3>"$T/ready" \
	2>>"$T/sbxd.log" &
DPID=$!
read -r line <"$T/ready" || true
rm -f "$T/ready"
expect_eq "sbxd starts without user namespaces" "$line" READY
out=$(sbx status)
check "it chose Landlock-only mode, saying why" \
	grep -q "Landlock-only mode: no user namespaces (" <<<"$out"
expect_eq "write outside -> EACCES" "$(sbx run -- "$P" write "$T/ro/file")" EACCES
expect_eq "denyRead -> EACCES" \
	"$(sbx run -- "$P" read "$T/home/.ssh/id_rsa")" EACCES
expect_eq "workspace write works" "$(sbx run -- "$P" write "$WS/made2")" ok
if has_protect_new; then
	expect_eq "an existing hook: write refused there too" "$(probe write .git/hooks/pre-commit)" EPERM
	expect_eq "... and unlink" "$(probe unlink .git/hooks/pre-commit)" EPERM
	expect_eq "hook unchanged" "$(sums)" "$before"
fi
stop_daemon
done_test
