#!/bin/bash
# A client that vanishes mid-run takes its whole sandbox with it: no process
# of the sandbox survives, no zombie, and the daemon holds no extra fd.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
# The workspace's template is a cache the daemon keeps: make it first.
sbx run -- true
before=$(fd_count "$DPID")
mkfifo "$T/out"
# Background children in their own process groups, to prove the whole tree
# goes, not just the command's group.
sbx run -- sh -c 'setsid sleep 1000 & setsid sleep 1001 & sleep 1002 & echo ready; wait' >"$T/out" &
client=$!
exec 8<"$T/out"
read -r line <&8
expect_eq "session started" "$line" ready
init=$(sbx --json ps | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["pid"])')
pids=$(ns_pids "$init")
expect_eq "sandbox has init + sh + 3 sleeps" "$(echo "$pids" | wc -l)" 5
init_ns=$(readlink "/proc/$init/ns/pid")
kill -KILL "$client"
wait "$client" 2>/dev/null
check "sandbox init exits" wait_exit "$init"
sbx status >/dev/null # one round trip: the daemon has handled the exit
left=""
for p in $pids; do [ -d "/proc/$p" ] && left="$left $p"; done
expect_eq "no process (or zombie) of the sandbox left" "$left" ""
expect_eq "session gone from ps" "$(sbx --json ps)" "[]"
# An ended sandbox's cgroup files close when its cgroup is removed, from
# a timer: back to at most what the daemon held after the first run.
fds_back() { [ "$(fd_count "$DPID")" -le "$before" ]; }
wait_for "the daemon's fd count back to where it was ($before)" fds_back
stop_daemon
done_test
