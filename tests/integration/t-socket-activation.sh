#!/bin/bash
# Socket activation as systemd does it, without systemd as PID 1:
# systemd-socket-activate listens on a scratch path and, on the first
# connection, execs $SBX_BUILD/sbxd with LISTEN_FDS. The daemon must take
# that socket (the process answering is the activated one, same pid, no
# autostarted daemon), report READY=1 to a NOTIFY_SOCKET we listen on, ping
# the watchdog when WATCHDOG_USEC is set, answer `sbxctl --socket PATH
# status`, and on SIGTERM report STOPPING=1 and exit 0. Every wait reads a
# line from a pipe (bounded by a timeout); nothing sleeps.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
. tests/integration/pkg-lib.sh

[ -x "$SBX_BUILD/sbxd" ] && [ -x "$SBX_BUILD/sbxctl" ] ||
	skip "$SBX_BUILD/sbxd or $SBX_BUILD/sbxctl not built yet"
need systemd-socket-activate "apt-get install systemd"
need python3
sbxd=$(cd "$SBX_BUILD" && pwd)/sbxd sbxctl=$(cd "$SBX_BUILD" && pwd)/sbxctl

t=$pkg_tmp
sock=$t/sbxd.sock notify=$t/notify
mkdir -p "$t/home" && mkdir -m 0700 "$t/run"
pids=
pkg_cleanup_hook='for p in $pids; do kill $p 2>/dev/null; done; exec 3>&- 4>&-'

# The NOTIFY_SOCKET: a datagram socket that prints "bound" once it listens,
# then one line per notification field (READY=1, WATCHDOG=1, ...), and
# stops at STOPPING=1 or after two minutes.
cat >"$t/notify.py" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
deadline = time.monotonic() + 120
print("bound", flush=True)
try:
    while True:
        s.settimeout(max(deadline - time.monotonic(), 0.001))
        for field in s.recv(4096).decode(errors="replace").split("\n"):
            if field:
                print(field, flush=True)
            if field == "STOPPING=1":
                sys.exit(0)
except socket.timeout:
    print("TIMEOUT", flush=True)
EOF
# Read-write opens of the FIFOs never block and keep a reader alive, so the
# writers never get SIGPIPE even between our reads.
mkfifo "$t/notify.fifo" "$t/sa.fifo"
exec 3<>"$t/notify.fifo" 4<>"$t/sa.fifo"
python3 "$t/notify.py" "$notify" >"$t/notify.fifo" &
pids="$pids $!"
# await FD PATTERN WHAT: read lines from FD until one matches, for at most
# 30 seconds in all (watchdog pings keep arriving meanwhile).
await()
{
	local line end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ] &&
		IFS= read -r -t $((end - SECONDS)) line <&"$1"; do
		printf '%s\n' "$line" >>"$t/seen.$1"
		# shellcheck disable=SC2254 # $2 is a pattern
		case $line in $2) return 0 ;; TIMEOUT) break ;; esac
	done
	fail "no $3 within 30 s; saw (each once): $(awk '!s[$0]++' "$t/seen.$1" 2>/dev/null)"
}
await 3 bound "notify socket"

env_args=(-E NOTIFY_SOCKET="$notify" -E WATCHDOG_USEC=400000
	-E HOME="$t/home" -E XDG_RUNTIME_DIR="$t/run" -E PATH)
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
	[ -n "${!v}" ] && env_args+=(-E "$v")
done
systemd-socket-activate -l "$sock" "${env_args[@]}" "$sbxd" --foreground 2>"$t/sa.fifo" &
sa=$!
pids="$pids $sa"
# stderr says when it listens; the daemon's own stderr follows on it.
await 4 '*Listening on*' "listening socket from systemd-socket-activate"
cat <&4 >>"$t/sbxd.log" &
pids="$pids $!"

# The first connection activates the daemon.
out=$(cd "$t/home" && HOME=$t/home XDG_RUNTIME_DIR=$t/run \
	timeout 30 "$sbxctl" --socket "$sock" status 2>&1) ||
	fail "sbxctl status over the activated socket exited $?: $out
daemon: $(cat "$t/sbxd.log")"
[ -n "$out" ] || fail "sbxctl status printed nothing"
tr '\0' '\n' <"/proc/$sa/cmdline" | grep -qxF "$sbxd" ||
	fail "the activated process is not sbxd: $(tr '\0' ' ' <"/proc/$sa/cmdline")"
await 3 'READY=1' "READY=1 on NOTIFY_SOCKET"
await 3 'WATCHDOG=1' "WATCHDOG=1 ping with WATCHDOG_USEC set"

kill -TERM $sa
rc=0
wait $sa || rc=$?
[ $rc = 0 ] || fail "sbxd exited $rc on SIGTERM; log: $(cat "$t/sbxd.log")"
await 3 'STOPPING=1' "STOPPING=1 on SIGTERM"
note "activated sbxd (pid $sa) answered status, sent READY=1, WATCHDOG=1, STOPPING=1, exited 0"
note "PASS"
