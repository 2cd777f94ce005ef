#!/bin/bash
# A kept session nobody attaches within its grace is killed: on the host,
# the sandbox's init and the command are gone (pidfds say so), while a
# session without keep_on_disconnect still dies with its client at once.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }

mkfifo "$T/go" "$T/said"
pc keep-grace 500 started sh -c 'echo started; exec sleep 1000' <"$T/go" >"$T/said" &
client=$!
exec 8>"$T/go" 9<"$T/said"
read -r line <&9
pid=${line##* pid }
case $pid in '' | *[!0-9]*) fail "no pid: $line"; pid=1 ;; esac
# The command's host pid, while its client is still there: the sandbox's
# pid namespace holds only it and its init.
cmd=$(ns_pids "$pid" | grep -vx "$pid" | head -1)
check "the command runs" test -n "$cmd"
echo go >&8 # the client leaves
wait "$client"
exec 8>&- 9<&-
check "the sandbox init is killed after the grace" wait_exit "$pid" 20
[ -n "$cmd" ] && check "the command is killed with it" wait_exit "$cmd" 20
sid=${line#session }
sid=${sid%% *}
expect_eq "and cannot be attached any more" \
	"$(pc attach "$sid" | head -1)" "error id=21 code=8"
stop_daemon
done_test
