#!/bin/bash
# -t and other sessions of one workspace share one view of the home
# overlay: what a -t session writes under ~ (a new ~/.npm, a file in an
# existing directory) later runs see and write to, and the other way
# round, and a write of a run made while a -t session is open shows in
# that session; so do a session of a template made stale by a policy
# change and the new template's runs. The real home is untouched. A
# scratch home (sbxd --home) stands for the user's; as root, privileged
# mode too.
. "$(dirname "$0")/lib.sh"
H=$T/home
mkdir -p "$H/.cache" "$WS"
chmod 755 "$H"
echo before >"$H/.cache/old"
export HOME=$H
snap() {
	(cd "$H" && find . -printf '%p %y %m %u %s %T@\n' | LC_ALL=C sort &&
	 find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) |
		sha256sum
}
drive() { "$PY" "$HERE/ptydrive.py" "$@"; }

# scenario TAG SBXCTL...: the whole exchange, through the given client.
scenario() {
	local tag=$1 out
	shift
	# A template held first, which has looked at ~/.npm (absent).
	expect_eq "$tag: a run holds the template" \
		"$("$@" run -- sh -c 'ls ~/.npm 2>/dev/null; cat ~/.cache/old')" before
	out=$(drive -- "$@" run -t -- sh -c 'mkdir -p ~/.npm &&
		echo t1 >~/.npm/a && echo t1 >~/.cache/t1 && echo done' |
		tr -d '\r')
	expect_eq "$tag: -t writes under ~" "$out" done
	out=$("$@" run -- sh -c 'cat ~/.npm/a ~/.cache/t1 &&
		echo n1 >~/.npm/b && echo n1 >>~/.cache/t1 && echo ok' 2>&1)
	expect_eq "$tag: a later run sees and writes what -t wrote" "$out" "t1
t1
ok"
	out=$(drive -- "$@" run -t -- sh -c 'cat ~/.npm/b ~/.cache/t1' |
		tr -d '\r')
	expect_eq "$tag: a later -t session sees the run's writes" "$out" "n1
t1
n1"
	# Concurrently: the -t session has looked for ~/.npm/c before a run
	# writes it, then looks again.
	rm -f "$WS/f1" "$WS/f2"
	mkfifo -m 666 "$WS/f1" "$WS/f2"
	drive -- "$@" run -t -- sh -c "cat ~/.npm/c 2>/dev/null; echo x >'$WS/f1';
		read x <'$WS/f2'; cat ~/.npm/c" >"$T/tout" &
	local dpid=$!
	check "$tag: the -t session started" timeout 30 sh -c "read x <'$WS/f1'"
	out=$("$@" run -- sh -c 'echo c2 >~/.npm/c && cat ~/.npm/a' 2>&1)
	expect_eq "$tag: a run writes while -t is open" "$out" t1
	timeout 30 sh -c "echo x >'$WS/f2'"
	wait "$dpid"
	expect_eq "$tag: the open -t session sees it" "$(tr -d '\r' <"$T/tout")" c2
	expect_eq "$tag: the real home is unchanged" "$(snap)" "$before"
	check "$tag: no ~/.npm on the host" test ! -e "$H/.npm"
}

policy() {
	cat >"$T/policy.json" <<JSON
{ "filesystem": { "denyRead": [$1], "allowWrite": ["."] } }
JSON
}

before=$(snap)
policy ""
start_daemon --home "$H" --policy "$T/policy.json"
if sbx status | grep -q 'no home overlay'; then
	skip "this kernel cannot make the home overlay"
fi
cd "$WS"
scenario user sbx

# A policy change while a session runs: the new template's runs and the
# old template's session share the home too.
rm -f "$WS/f1" "$WS/f2"
mkfifo -m 666 "$WS/f1" "$WS/f2"
# (-q: its write to ~/.pip is listed after the run, on stderr.)
sbx run -q -- sh -c "cat ~/.pip/d 2>/dev/null; echo x >'$WS/f1'; read x <'$WS/f2';
	cat ~/.pip/d && echo e >~/.pip/e" >"$T/oout" 2>&1 &
opid=$!
check "old template: its session started" timeout 30 sh -c "read x <'$WS/f1'"
echo x >"$T/other"
policy "\"$T/other\""
out=$(sbx run -- sh -c "mkdir -p ~/.pip && echo d >~/.pip/d && cat '$T/other'" 2>&1)
check "new template: the policy change is in force ($out)" grep -q 'Permission denied' <<<"$out"
timeout 30 sh -c "echo x >'$WS/f2'"
wait "$opid"
expect_eq "old template's session sees the new template's write" "$(cat "$T/oout")" d
expect_eq "the new template's runs see the old session's write" \
	"$(sbx run -- cat ~/.pip/e 2>&1)" e
expect_eq "policy change: the real home is unchanged" "$(snap)" "$before"
stop_daemon

user=${SBX_TEST_USER:-sbxtest}
if [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	chown -R "$user": "$H" "$WS"
	chmod 755 "$T"
	rm -f "$WS/f1" "$WS/f2"
	before=$(snap)
	start_daemon --user "$user" --home "$H"
	chmod 755 "$XDG_RUNTIME_DIR"
	scenario privileged setpriv --reuid="$user" --regid="$user" \
		--init-groups "$BIN/sbxctl" --no-autostart --socket "$SOCK"
	stop_daemon
fi
done_test
