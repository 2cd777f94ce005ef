#!/bin/bash
# Pseudo-terminals inside the sandbox: each sandbox has a devpts instance
# of its own, so script, python's pty and tmux work; a sandbox sees
# neither the host's ptys nor another sandbox's. The session's own
# terminal (a -t pty, or the terminal sbxctl runs in) can be opened again
# through /dev/stderr and /proc/self/fd.
. "$(dirname "$0")/lib.sh"
case " ${SBXD_ARGS:-} " in
*" --landlock-only "*) skip "no mount namespace: no devpts of its own (t-landlock-only-tty)" ;;
esac
drive() { "$PY" "$HERE/ptydrive.py" "$@"; }
# A pty of the host's, held open (with a "password" typed into it).
coproc HOLD { "$PY" "$HERE/ptyhold.py" hunter2; }
read -r pts <&"${HOLD[0]}"
check "the host holds a pty ($pts)" test -c "$pts"
cd "$WS"
start_daemon

out=$(sbx run -q -- script -qc 'tty; echo hi' /dev/null 2>&1 | tr -d '\r')
check "script -qc 'tty; echo hi' ($out)" grep -qx hi <<<"$out"
check "... on a pty of the sandbox's ($out)" grep -Eqx '/dev/pts/[0-9]+' <<<"$out"
out=$(sbx run -q -- "$PY" -c '
import os, pty
m, s = pty.openpty()
os.write(s, b"ping\n")
print(os.read(m, 64).decode().strip(), os.ttyname(s))
m2, s2 = os.openpty()
print("openpty", os.isatty(s2))' 2>&1)
check "python pty.openpty, ttyname ($out)" grep -Eq '^ping /dev/pts/[0-9]+$' <<<"$out"
check "os.openpty ($out)" grep -qx "openpty True" <<<"$out"
# A sandbox's /dev/pts holds its own ptys only: none of the host's, none
# of another running sandbox's (same workspace, same template).
mkfifo "$WS/held" "$WS/go"
sbx run -q -- "$PY" -c '
import os, pty, sys
try:
    m, s = pty.openpty()
    name = os.ttyname(s)
except OSError as e:
    name = str(e)
open(sys.argv[1], "w").write(name + "\n")
open(sys.argv[2]).readline()' "$WS/held" "$WS/go" >/dev/null 2>&1 &
hold=$!
# Opened read-write: a sandbox that never started cannot hang the test.
read -r -t 60 held <>"$WS/held"
check "a sandbox holds a pty ($held)" grep -Eqx '/dev/pts/[0-9]+' <<<"$held"
out=$(sbx run -q -- ls /dev/pts)
expect_eq "another sandbox's /dev/pts is empty but for ptmx" "$out" ptmx
exec 3<>"$WS/go"
echo done >&3
wait "$hold"
exec 3>&-
expect_eq "the host's pty is not at its name inside" \
	"$(sbx run -q -- "$BIN/sbx-probe" read "$pts")" ENOENT

# The session's own terminal, opened again by name.
out=$(drive -- sbx run -t -- sh -c 'echo to-err >/dev/stderr' | tr -d '\r')
expect_eq "-t: echo >/dev/stderr" "$out" to-err
out=$(drive -- sbx run -t --stream -- sh -c 'echo s-err >/dev/stderr' | tr -d '\r')
expect_eq "-t --stream: echo >/dev/stderr" "$out" s-err
out=$(drive -- sbx run -- sh -c 'echo own-err >/dev/stderr; echo own-out >/proc/self/fd/1' | tr -d '\r')
check "sbxctl's own terminal, passed as stdio: /dev/stderr ($out)" grep -qx own-err <<<"$out"
check "... and /proc/self/fd/1 ($out)" grep -qx own-out <<<"$out"
out=$(drive -- sbx run -t -- sh -c 'tty' | tr -d '\r')
check "-t: tty still names the session's pty ($out)" grep -Eqx '/dev/pts/[0-9]+' <<<"$out"
# Under -t too: the session's pty at its name in a devpts of the
# sandbox's own, new ptys beside it.
out=$(drive -- sbx run -t -- sh -c 'tty; script -qc "tty; echo hi" /dev/null; ls -1 /dev/pts' | tr -d '\r')
own=$(sed -n 1p <<<"$out")
check "-t: script -qc works ($out)" grep -qx hi <<<"$out"
check "-t: script's pty is not the session's ($out)" \
	test "$(sed -n 2p <<<"$out")" != "$own"
expect_eq "-t: /dev/pts holds the session's pty and ptmx" \
	"$(sed -n '4,$p' <<<"$out" | tr '\n' ' ')" "$(basename "$own") ptmx "
# A session pty numbered above 256: the sandbox would open as many of its
# own to reach it; it gets that pty alone instead, still at its name.
coproc MANY { "$PY" -c '
import os, sys
held = []
while True:
    m, s = os.openpty()
    held.append((m, s))
    if int(os.ttyname(s).rsplit("/", 1)[1]) > 256:
        break
print("ready", flush=True)
sys.stdin.readline()'; }
read -r _ <&"${MANY[0]}"
out=$(drive -- sbx run -t -- sh -c 'tty; echo >/dev/stderr err' | tr -d '\r')
check "-t on a pty above 256: tty names it ($out)" \
	grep -Eqx '/dev/pts/(2[5-9][0-9]|[3-9][0-9][0-9]|[0-9]{4})' <<<"$out"
check "... and /dev/stderr reopens it ($out)" grep -qx err <<<"$out"
echo done >&"${MANY[1]}"
stop_daemon
done_test
