#!/bin/bash
# With nothing listening, sbxctl starts sbxd itself (and only one of them
# when many clients race), as tmux does.
. "$(dirname "$0")/lib.sh"
cd "$WS"
unset SBX_SOCKET
pids=()
for i in 1 2 3 4 5; do
	"$BIN/sbxctl" run -- sh -c "exit $i" & pids[$i]=$!
done
for i in 1 2 3 4 5; do wait "${pids[$i]}"; expect_eq "racing autostart run $i" $? "$i"; done
check "socket in the runtime dir" test -S "$XDG_RUNTIME_DIR/sbx/sbxd.sock"
check "runtime dir is 0700" test "$(stat -c %a "$XDG_RUNTIME_DIR/sbx")" = 700
check "socket is 0600" test "$(stat -c %a "$XDG_RUNTIME_DIR/sbx/sbxd.sock")" = 600
DPID=$("$BIN/sbxctl" --json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
# A root daemon keeps the workspace's home overlay layer in /var/lib/sbx:
# leave nothing there.
check "the autostarted daemon resets the workspace" "$BIN/sbxctl" reset
# comm is exactly "sbxd" only for daemons (templates rename themselves).
n=$(pgrep -u "$(id -u)" -x sbxd -a | grep -c -- "--socket $XDG_RUNTIME_DIR/sbx/sbxd.sock")
expect_eq "exactly one daemon" "$n" 1
# Not our child: SIGTERM it and wait on a pidfd.
kill -TERM "$DPID"
check "autostarted daemon stops on SIGTERM" wait_exit "$DPID"
DPID=
check "it removed its socket" test ! -e "$XDG_RUNTIME_DIR/sbx/sbxd.sock"
done_test
