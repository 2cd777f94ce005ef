#!/bin/bash
# Long-lived sandboxes: CreateSandbox, then commands run in it (RunRequest
# with sandbox_id) share its processes, /tmp and network namespace; it
# goes with DestroySandbox (every process of it), with its idle timeout,
# and its id is never given again; another workspace or user cannot use
# it. Assertions on the host: pids, pid namespaces, pidfds.
. "$(dirname "$0")/lib.sh"
start_daemon

# The sandbox's field F: sandbox_field ID F (from sbxctl sandbox ls --json).
sandbox_field() {
	sbx --json sandbox ls | "$PY" -c '
import json, sys
for b in json.load(sys.stdin):
    if b["id"] == int(sys.argv[1]):
        print(b[sys.argv[2]]); break' "$1" "$2"
}
# started ID: its init runs; its host pid is left in $T/init.
started() {
	p=$(sandbox_field "$1" pid)
	[ -n "$p" ] && [ "$p" -gt 0 ] && echo "$p" >"$T/init"
}
gone() { [ -z "$(sandbox_field "$1" id)" ]; }

id=$(cd "$WS" && sbx sandbox create --idle 600)
case $id in ''|*[!0-9]*) fail "create printed an id: '$id'"; done_test ;; esac
ok "sandbox $id created"
wait_for "sandbox $id to start" started "$id"
init=$(cat "$T/init")

# A background process left by one command answers the next: a sleep
# writes its pid to /tmp, and a TCP server listens on the sandbox's own
# loopback.
(cd "$WS" && sbx sandbox exec "$id" -- sh -c \
	'sleep 1000 >/dev/null 2>&1 & echo $! >/tmp/bg.pid; echo kept >/tmp/note')
expect_eq "first exec exits 0" "$?" 0
bg=$(cd "$WS" && sbx sandbox exec "$id" -- cat /tmp/bg.pid)
expect_eq "/tmp persists between commands" \
	"$(cd "$WS" && sbx sandbox exec "$id" -- cat /tmp/note)" kept
check "the background sleep is alive in the next command" \
	sh -c "cd '$WS' && sbx sandbox exec $id -- kill -0 $bg"
# On the host: the sleep and the commands share the init's pid namespace.
host_bg=
for p in $(ns_pids "$init"); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ] && host_bg=$p
done
check "the sleep runs in the sandbox's pid namespace (host view)" \
	[ -n "$host_bg" ]
# A server one command starts answers the next, on the sandbox's own
# loopback (without a network namespace, sbxd --no-netns, listening is
# refused to every sandbox).
if [ "$(readlink /proc/$init/ns/net)" != "$(readlink /proc/self/ns/net)" ]; then
	cat >"$WS/serve.py" <<'PY'
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 8765)); s.listen(1)
open("/tmp/listening", "w").close()
while True:
    c, _ = s.accept(); c.sendall(b"hello from the sandbox\n"); c.close()
PY
	(cd "$WS" && sbx sandbox exec "$id" -- sh -c \
		"$PY serve.py >/dev/null 2>&1 &")
	srv_up() { (cd "$WS" && sbx sandbox exec "$id" -- test -e /tmp/listening); }
	wait_for "the server to listen" srv_up
	got=$(cd "$WS" && sbx sandbox exec "$id" -- "$PY" -c '
import socket
s = socket.create_connection(("127.0.0.1", 8765))
print(s.recv(100).decode().strip())')
	expect_eq "a server from one command answers the next" "$got" \
		"hello from the sandbox"
	# Its port is the sandbox's network namespace's, not the host's.
	check "the host's loopback has no such listener" \
		sh -c "! $PY -c 'import socket; socket.create_connection((\"127.0.0.1\", 8765))' 2>/dev/null"
else
	ok "no network namespace: no server of the sandbox's own"
fi
# A run is a sandbox of its own: the sandbox's processes are not in it.
check "a plain run does not see the sandbox's processes" \
	sh -c "cd '$WS' && ! sbx run -- kill -0 $bg 2>/dev/null"
# The cwd is entered inside: the sandbox's /tmp, not the host's.
expect_eq "cwd /tmp is the sandbox's" \
	"$(cd "$WS" && sbx sandbox exec "$id" -C /tmp -- cat note)" kept
(cd "$WS" && sbx sandbox exec "$id" -- /nonexistent/cmd) 2>"$T/err"
expect_eq "a command not found exits 127" "$?" 127
# A command of the sandbox kept past its client (keep_on_disconnect) is
# taken up by another connection (Attach), as a run's.
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }
line=$(pc keep-sandbox "$id" before sh -c 'echo before; read x; echo "got $x"; exit 3')
sid=${line#session }
sid=${sid%% *}
case $sid in '' | *[!0-9]*) fail "no session id from the kept exec: $line"; sid=0 ;; esac
out=$(pc attach "$sid" hello)
check "a kept exec is attached: output replayed and live, stdin" \
	grep -qx "output before|got hello|" <<<"$out"
check "... and its exit status" \
	grep -qx "exit id=21 exited=1 code=3 signal=0 timed_out=0" <<<"$out"

# What the sandbox refuses a command is reported to that command.
(cd "$WS" && sbx sandbox exec "$id" -- mount -t tmpfs x /mnt) 2>"$T/err"
check "a refusal is reported to the command's client" \
	grep -q "sbx: blocked syscall mount" "$T/err"
# Exit statuses and streaming mode, as a run.
(cd "$WS" && sbx sandbox exec "$id" -- sh -c 'exit 7')
expect_eq "an exec's exit status" "$?" 7
expect_eq "streaming mode" \
	"$(cd "$WS" && sbx sandbox exec "$id" --stream -- echo streamed)" streamed
check "ls lists the sandbox" sh -c "sbx sandbox ls | grep -q '^$id '"

# Another workspace cannot use it; neither can a missing id.
mkdir "$T/other"
if (cd "$T/other" && sbx sandbox exec "$id" -- true) 2>"$T/err"; then
	fail "exec from another workspace refused"
else
	check "exec from another workspace refused (PERMISSION)" \
		grep -q "sandbox $id is" "$T/err"
fi
check "exec into a missing sandbox refused" \
	sh -c "cd '$WS' && ! sbx sandbox exec 999999999 -- true 2>/dev/null"

# A command running when its sandbox is destroyed ends killed (137).
(cd "$WS" && exec sbx sandbox exec "$id" -- sleep 1000) &
cmdpid=$!
running() { [ "$(sandbox_field "$id" commands)" = 1 ]; }
wait_for "the sleep to run in the sandbox" running

# Destroy: the init exits (its pidfd says so), and no process of the
# sandbox is left on the host.
sbx sandbox rm "$id"
expect_eq "rm exits 0" "$?" 0
check "the sandbox's init exits" wait_exit "$init"
check "its background sleep is gone" sh -c "! kill -0 $host_bg 2>/dev/null"
wait "$cmdpid"
expect_eq "the command running in it ends killed" "$?" 137
wait_for "the sandbox to leave the list" gone "$id"
check "exec after rm refused" \
	sh -c "cd '$WS' && ! sbx sandbox exec $id -- true 2>/dev/null"

# The sandbox's policy is set when it is made, for all its commands.
echo secret >"$WS/private.txt"
idp=$(cd "$WS" && sbx sandbox create --deny-read private.txt)
check "a policy flag of create holds for its commands" \
	sh -c "cd '$WS' && ! sbx sandbox exec $idp -- cat private.txt >/dev/null 2>&1"
check "... which exec cannot change (INVALID)" \
	sh -c "cd '$WS' && ! sbx sandbox exec $idp --allow-write /etc -- true 2>/dev/null"
check "... and a run of the workspace does not have" \
	sh -c "cd '$WS' && sbx run -q -- cat private.txt >/dev/null"
sbx sandbox rm "$idp"

# The idle timeout destroys an unused sandbox.
id2=$(cd "$WS" && sbx sandbox create --idle 1)
wait_for "sandbox $id2 to start" started "$id2"
init2=$(cat "$T/init")
check "an idle sandbox is destroyed after its timeout" wait_exit "$init2"
wait_for "the idle sandbox to leave the list" gone "$id2"
check "ids are never reused" [ "$id2" != "$id" ]

# Its lifetime ends it even while a command runs in it; ls shows the
# command meanwhile.
id4=$(cd "$WS" && sbx sandbox create --idle 600 --lifetime 2)
wait_for "sandbox $id4 to start" started "$id4"
init4=$(cat "$T/init")
(cd "$WS" && exec sbx sandbox exec "$id4" -- sleep 1000) &
cmd4=$!
busy4() { sbx sandbox ls | grep -q "^  session [0-9]*: sleep 1000"; }
wait_for "ls to show the command in the sandbox" busy4
check "its lifetime ends a busy sandbox" wait_exit "$init4"
wait "$cmd4"
expect_eq "... and the command in it" "$?" 137

# Nor across a restart: an id from before is NOT_FOUND, never another's.
# The daemon stops cleanly with a sandbox running, and takes it down.
idx=$(cd "$WS" && sbx sandbox create)
wait_for "sandbox $idx to start" started "$idx"
initx=$(cat "$T/init")
stop_daemon
check "a running sandbox ends with the daemon" wait_exit "$initx"
start_daemon
id3=$(cd "$WS" && sbx sandbox create)
check "a sandbox id after a restart is new" [ "$id3" -gt "$id2" ]
if (cd "$WS" && sbx sandbox exec "$id2" -- true) 2>"$T/err"; then
	fail "an id from before the restart refused"
else
	check "an id from before the restart is not found" \
		grep -q "no sandbox $id2" "$T/err"
fi
sbx sandbox rm "$id3"

done_test
