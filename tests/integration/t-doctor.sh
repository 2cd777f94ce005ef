#!/bin/bash
# sbxctl doctor: on this machine every check the sandbox needs is ok and it
# exits 0, starting its daemon as `sbxctl run` does; where user namespaces
# cannot be made it fails with the fix; a daemon whose policy lets a write
# out of the workspace fails the throwaway sandbox's proof; privileged mode
# proves it too; and with no daemon and no autostart it says how to start
# one.
. "$(dirname "$0")/lib.sh"
cd "$WS"
# doctor's scratch dir is under $HOME: here one the sandbox sees as the
# host has it (not the daemon's home, an overlay inside).
export HOME=$T

# What a check line says: its status ("" when there is none).
status_of() { sed -n "s/^\([a-z]*\) *$1: .*/\1/p" <<<"$2"; }
# The fix line that follows the check's line.
fix_of() { grep -A1 "^[a-z]* *$1: " <<<"$2" | sed -n 's/^      fix: //p'; }

# 1. This machine, autostarting a daemon like `sbxctl run` (on a socket
# under this test's runtime dir).
unset SBX_SOCKET
out=$("$BIN/sbxctl" doctor)
rc=$?
echo "$out"
expect_eq "doctor exits 0" "$rc" 0
for c in userns mount-api landlock seccomp seccomp-notify netns capture \
	overlay daemon sandbox-write sandbox-read; do
	expect_eq "$c is ok" "$(status_of "$c" "$out")" ok
done
# Not ours to make ok here: audit is off or the daemon is in user mode,
# the cgroup hierarchy is what the host has, only root loop-mounts
# the home layers (limits.home), and the seccomp wake-up flag is the
# kernel's (6.6).
for c in audit cgroup home-quota notify-wakeup; do
	check "$c is ok or warn" grep -Eq "^(ok|warn) +$c: " <<<"$out"
done
check "no check failed" test "$(grep -c '^fail' <<<"$out")" = 0
check "every warn has a fix" test "$(grep -c '^warn' <<<"$out")" = \
	"$(grep -A1 '^warn' <<<"$out" | grep -c '^      fix: ')"
check "summary says enforceable" grep -q \
	'^the sandbox is enforceable as configured' <<<"$out"
check "it proved the write outside was refused" grep -Eq \
	'^ok +sandbox-write: .*did not reach the host \((Read-only file system|Permission denied)\)' \
	<<<"$out"
check "it found the daemon it started" grep -q \
	"answers on $XDG_RUNTIME_DIR/sbx/sbxd.sock" <<<"$out"
DPID=$("$BIN/sbxctl" --json status | "$PY" -c \
	'import json,sys; print(json.load(sys.stdin)["pid"])')

# --json, global or the verb's own, says the same.
for form in "--json doctor" "doctor --json"; do
	# shellcheck disable=SC2086 # the form is two words on purpose
	js=$("$BIN/sbxctl" $form)
	expect_eq "$form exits 0" "$?" 0
	got=$("$PY" -c '
import json, sys
d = json.loads(sys.argv[1])
names = [c["name"] for c in d["checks"]]
bad = [c for c in d["checks"] if c["status"] != "ok" and not c.get("fix")]
print(d["enforceable"], names[0], "sandbox-write" in names, len(bad))' "$js")
	expect_eq "$form: enforceable, checks, fixes" "$got" "True userns True 0"
done
kill -TERM "$DPID"
check "autostarted daemon stops" wait_exit "$DPID"
DPID=

# 2. No user namespaces: doctor (and the daemon it tries to start) runs in
# a user namespace of ours whose user.max_user_namespaces is 1, spent on
# the namespace it runs in, so unshare(CLONE_NEWUSER) fails with ENOSPC
# there and nowhere else on the host.
if unshare --user --map-root-user true 2>/dev/null &&
	unshare --help 2>&1 | grep -q -- --map-user; then
	sock2="$T/run2/sbxd.sock"
	mkdir -m 700 "$T/run2"
	out=$(unshare --user --map-root-user sh -c '
		echo 1 >/proc/sys/user/max_user_namespaces &&
		exec unshare --user --map-user="$1" --map-group="$2" \
			"$3" --socket "$4" doctor' sh "$(id -u)" "$(id -g)" \
		"$BIN/sbxctl" "$sock2")
	rc=$?
	echo "$out"
	expect_eq "without userns doctor exits 1" "$rc" 1
	expect_eq "userns fails" "$(status_of userns "$out")" fail
	check "it says why" grep -q \
		'^fail  userns: unshare(CLONE_NEWUSER): No space left on device: the user namespace limit is reached' \
		<<<"$out"
	check "the fix names the sysctl" grep -q \
		'sudo sysctl -w user.max_user_namespaces=' <<<"$(fix_of userns "$out")"
	check "the fix names privileged mode" grep -q \
		"sudo sbxd --user $(id -un)" <<<"$(fix_of userns "$out")"
	if [ "$(id -u)" -eq 0 ]; then
		# Root has no Landlock-only mode: privileged mode is its way.
		expect_eq "the daemon could not start" "$(status_of daemon "$out")" fail
		check "with sbxd's own reason" grep -q \
			'^fail  daemon: could not start sbxd: .*cannot create user namespaces' \
			<<<"$out"
		expect_eq "no sandbox was tried" "$(status_of sandbox "$out")" fail
		check "no daemon was left behind" test ! -e "$sock2"
	else
		# A user's daemon falls back to Landlock-only mode, which
		# doctor flags and still proves (t-landlock-only tests it).
		check "the daemon started in Landlock-only mode" grep -q \
			'^warn  daemon: sbxd .*landlock-only mode' <<<"$out"
		check "... with what it loses as the fix" grep -q \
			'^Landlock-only mode has no namespaces' \
			<<<"$(fix_of daemon "$out")"
		expect_eq "its sandbox holds" "$(status_of sandbox-write "$out")" ok
		pid2=$(sed -n 's/^warn  daemon: sbxd [^ ]* (pid \([0-9]*\),.*/\1/p' <<<"$out")
		[ -z "$pid2" ] || kill -TERM "$pid2"
	fi
	check "summary says not enforceable" grep -q \
		'^the sandbox is NOT enforceable as configured' <<<"$out"
	check "the host still makes user namespaces" unshare --user true
else
	echo "note: unshare cannot map users here; userns case not run"
fi

# 2b. No network namespaces (nonetns.py: user.max_net_namespaces is 0 in
# the user namespace doctor and its daemon run in): a warning with the
# sysctl, and the sandbox, on the host's network, still proves itself.
if "$PY" "$HERE/nonetns.py" true 2>/dev/null; then
	sock3="$T/run3/sbxd.sock"
	mkdir -m 700 "$T/run3"
	out=$("$PY" "$HERE/nonetns.py" "$BIN/sbxctl" --socket "$sock3" doctor)
	rc=$?
	echo "$out"
	expect_eq "without netns doctor exits 0" "$rc" 0
	expect_eq "netns warns" "$(status_of netns "$out")" warn
	check "it says what sbxd does instead" grep -q \
		"^warn  netns: unshare(CLONE_NEWUSER | CLONE_NEWNET): No space left on device: sandboxes share the host's network, which sbxd confines to each session's proxy" \
		<<<"$out"
	check "the fix names the sysctl" grep -q \
		'sudo sysctl -w user.max_net_namespaces=' <<<"$(fix_of netns "$out")"
	expect_eq "the sandbox proves itself" \
		"$(status_of sandbox-write "$out")" ok
	pid=$("$PY" "$HERE/nonetns.py" "$BIN/sbxctl" --no-autostart \
		--socket "$sock3" --json status | "$PY" -c \
		'import json,sys; print(json.load(sys.stdin)["pid"])')
	kill -TERM "$pid"
	check "its daemon stops" wait_exit "$pid"
else
	echo "note: cannot make a user namespace here; netns case not run"
fi

# 3. A daemon that cannot enforce what doctor proves: its policy lets
# writes reach the scratch directory (a small one: --scratch; a first run
# walks the writable trees, and all of the home can take long).
mkdir "$T/scratch"
cat >"$T/loose.json" <<EOF
{"filesystem": {"allowWrite": [".", "$T/scratch"]}}
EOF
start_daemon --policy "$T/loose.json"
out=$(sbx doctor --scratch "$T/scratch")
rc=$?
echo "$out"
expect_eq "a loose policy makes doctor exit 1" "$rc" 1
check "the write outside reached the host" grep -q \
	"^fail  sandbox-write: a write outside the workspace reached the host: $T/scratch/sbx-doctor\\." \
	<<<"$out"
check "the fix points at the policy" grep -q \
	"allowWrite entry that covers $T/scratch$" <<<"$(fix_of sandbox-write "$out")"
expect_eq "the kernel checks stay ok" "$(status_of landlock "$out")" ok
stop_daemon

# 4. Privileged mode (root): sbxd --user NAME needs no user namespaces;
# doctor, as NAME, says so and proves the sandbox all the same.
user=${SBX_TEST_USER:-sbxtest}
if [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	chown "$user": "$WS"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	out=$(cd "$WS" && setpriv --reuid="$user" --regid="$user" \
		--init-groups env HOME="$(getent passwd "$user" | cut -d: -f6)" \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" doctor)
	rc=$?
	echo "$out"
	expect_eq "privileged: doctor exits 0" "$rc" 0
	check "privileged: the daemon line says so" grep -q \
		'^ok    daemon: sbxd .* privileged mode' <<<"$out"
	expect_eq "privileged: sandbox-write ok" \
		"$(status_of sandbox-write "$out")" ok
	expect_eq "privileged: sandbox-read ok" \
		"$(status_of sandbox-read "$out")" ok
	stop_daemon
fi

# --no-autostart with nothing listening: the daemon line fails with how
# to start one.
out=$(sbx doctor)
expect_eq "no daemon: exit 1" "$?" 1
check "no daemon: says so" grep -q "^fail  daemon: cannot connect to sbxd at $SOCK" <<<"$out"
check "no daemon: how to start one" grep -q "systemctl --user start sbxd.socket" \
	<<<"$(fix_of daemon "$out")"
check "no daemon: nothing started" test ! -e "$SOCK"
done_test
