#!/bin/bash
# The user's other terminals are out of a sandbox's reach: a host process
# holds a pty with a "password" typed into it; from inside, opening that
# /dev/pts/N to read or to write fails (Landlock-only mode: EACCES; the
# namespace modes have no such node), the typed input stays where it was
# and nothing written reaches the terminal. The session's own terminal
# still works: -t, /dev/tty, /dev/stderr, and the terminal sbxctl itself
# runs in when it passes its stdio.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
drive() { "$PY" "$HERE/ptydrive.py" "$@"; }
coproc HOLD { "$PY" "$HERE/ptyhold.py" hunter2; }
read -r pts <&"${HOLD[0]}"
check "the host holds a pty ($pts)" test -c "$pts"
cd "$WS"

# attacks ERRNO [CREATE_ERRNO]: every way in to $pts fails with ERRNO (an
# O_CREAT open with CREATE_ERRNO: a namespace sandbox's /dev/pts is a
# devpts of its own, where nothing is created by name).
attacks() {
	local e=$1 c=${2:-$1}
	expect_eq "open the other pty for reading -> $e" \
		"$(sbx run -- "$P" read "$pts")" "$e"
	expect_eq "open it for writing -> $e" \
		"$(sbx run -- "$P" open-write "$pts")" "$e"
	expect_eq "open it O_CREAT|O_TRUNC -> $c" \
		"$(sbx run -- "$P" write "$pts")" "$c"
	expect_eq "reopen it through /proc/self/fd -> $e" \
		"$(sbx run -- "$P" fd-read "$pts")" "$e"
	out=$(sbx run -- sh -c 'read -r pw <"$0" && echo "got:$pw"' "$pts" 2>&1)
	expect_eq "a shell reads no password ($out)" "$(grep -c hunter2 <<<"$out")" 0
	sbx run -- sh -c 'printf "[sudo] password for you: " >"$0"' "$pts" \
		2>/dev/null
	check "a fake prompt is refused" test $? -ne 0
	out=$(drive -- sbx run -t -- "$P" read "$pts" | tr -d '\r')
	expect_eq "from a -t session too -> $e" "$out" "$e"
}

# own MODE: the session's own terminal works: -t (fd passing and
# streaming), /dev/tty, /dev/stderr, and the terminal sbxctl runs in when
# it passes its stdio. (In the namespace modes /proc/self/fd names the
# daemon's view of the pty, which the sandbox has no path to: Landlock
# grants writes beneath the host's devpts for that reopen.)
own() {
	local m=$1 out
	out=$(drive -- sbx run -t -- sh -c 'tty; echo to-tty >/dev/tty' |
		tr -d '\r')
	check "-t: tty names a pty ($m: $out)" grep -Eqx '/dev/pts/[0-9]+' <<<"$out"
	check "-t: /dev/tty opens it ($m)" grep -qx to-tty <<<"$out"
	out=$(drive expect 'ask> ' send 'typed\r' -- sbx run -t -- sh -c \
		'printf "ask> " >/dev/tty; read -r a </dev/tty; echo "read:$a"' |
		tr -d '\r')
	check "-t: reads from /dev/tty ($m: $out)" grep -qx read:typed <<<"$out"
	out=$(drive -- sbx run -t --stream -- sh -c 'echo s-tty >/dev/tty' |
		tr -d '\r')
	check "-t --stream: /dev/tty ($m: $out)" grep -qx s-tty <<<"$out"
	out=$(drive -- sbx run -t -- sh -c 'echo to-err >/dev/stderr' |
		tr -d '\r')
	check "-t: /dev/stderr reopens it ($m: $out)" grep -qx to-err <<<"$out"
	out=$(drive -- sbx run -t --stream -- sh -c 'echo s-err >/dev/stderr' |
		tr -d '\r')
	check "-t --stream: /dev/stderr ($m: $out)" grep -qx s-err <<<"$out"
	out=$(drive -- sbx run -- sh -c 'echo own-err >/dev/stderr' | tr -d '\r')
	check "sbxctl's own terminal, passed as stdio ($m: $out)" \
		grep -qx own-err <<<"$out"
}

if ! grep -q -- --landlock-only <<<"${SBXD_ARGS:-}"; then
	start_daemon
	attacks ENOENT EACCES
	own namespaces
	stop_daemon
fi
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only
	attacks EACCES
	own landlock-only
	# The rest of /dev the same way: the devices a namespace sandbox has
	# work, the host's others stay closed (here /dev/shm's files).
	expect_eq "/dev/null writable" "$(sbx run -- "$P" open-write /dev/null)" ok
	expect_eq "/dev/urandom readable" "$(sbx run -- "$P" read /dev/urandom)" ok
	expect_eq "no new ptys, as in a namespace sandbox: /dev/ptmx -> EACCES" \
		"$(sbx run -- "$P" open-write /dev/ptmx)" EACCES
	f=/dev/shm/sbx-llonly-tty-$$
	echo host-shm >"$f"
	expect_eq "the host's /dev/shm files unreadable" \
		"$(sbx run -- "$P" read "$f")" EACCES
	rm -f "$f"
	stop_daemon
fi
echo check >&"${HOLD[1]}"
read -r left <&"${HOLD[0]}"
read -r wrote <&"${HOLD[0]}"
expect_eq "the typed password is still in the terminal's queue" "$left" \
	"b'hunter2\\n'"
expect_eq "nothing written reached the terminal" "$wrote" "b''"
done_test
