#!/bin/bash
# keep_on_disconnect and Attach: a session whose client leaves keeps
# running; another connection attaches and gets the output so far (from
# the session's ring), then live output, its stdin, and the exit status;
# one that ended while nobody was attached keeps its exit status for the
# attach; a second attach while one holds the session is BUSY; an unknown
# id is NOT_FOUND; neither closes the connection.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }

# A waits for "before", then leaves without a word.
line=$(pc keep before sh -c 'echo before; read x; echo "got $x"; exit 3')
sid=${line#session }
sid=${sid%% *}
case $sid in '' | *[!0-9]*) fail "no session id from the first client: $line"; sid=0 ;; esac
pid=${line##* pid }
check "the kept session outlives its client" kill -0 "$pid"

out=$(pc attach "$sid" hello)
check "attach: Attached under the attach's id, output replayed" \
	grep -Eq "^attached id=21 session=$sid replayed=7 dropped=0$" <<<"$out"
check "attach: replayed and live output, stdin reaches the command" \
	grep -qx "output before|got hello|" <<<"$out"
check "attach: the exit status, under the attach's id" \
	grep -qx "exit id=21 exited=1 code=3 signal=0 timed_out=0" <<<"$out"
check "the session's processes are gone" wait_exit "$pid"

# Ends while nobody is attached (once its client has left, it reads a
# line from a fifo and exits): its end waits for the attach.
mkfifo "$WS/release"
line=$(pc keep done sh -c 'echo done; read x <release; exit 4')
sid2=${line#session }
sid2=${sid2%% *}
pid2=${line##* pid }
echo go >"$WS/release"
check "it ended with nobody attached" wait_exit "$pid2"
out=$(pc attach "$sid2")
check "an ended session's exit status waits for the attach" \
	grep -qx "exit id=21 exited=1 code=4 signal=0 timed_out=0" <<<"$out"
check "... with its output" grep -qx "output done|" <<<"$out"
expect_eq "once collected, it is gone" "$(pc attach "$sid2" | head -1)" \
	"error id=21 code=8"

# BUSY while another connection holds it; NOT_FOUND for no such session.
mkfifo "$T/held"
"$PY" "$HERE/protoclient.py" "$SOCK" "$WS" keep started sh -c \
	'echo started; exec sleep 1000' >"$T/keep.out"
sid3=$(sed -n 's/^session \([0-9]*\) .*/\1/p' "$T/keep.out")
"$PY" "$HERE/protoclient.py" "$SOCK" "$WS" attach "$sid3" >"$T/held" &
holder=$!
exec 9<"$T/held"
read -r first <&9
check "first attach holds it" grep -q "^attached id=21 session=$sid3 " <<<"$first"
expect_eq "a second attach: BUSY, connection open" \
	"$(pc busy "$sid3" | tr '\n' ' ')" "error id=21 code=12 after error: kind=22 id=22 "
expect_eq "attach to no such session: NOT_FOUND, connection open" \
	"$(pc attach 999999999 | tr '\n' ' ')" "error id=21 code=8 after error: kind=22 id=22 "
sbx kill "$sid3" KILL >/dev/null
wait "$holder"
exec 9<&-

# sbxctl: run --stream --keep outlives a killed sbxctl; sbxctl attach ID
# takes it up in its place (output so far, our stdin, its exit code).
mkfifo "$T/in" "$T/out"
sbx run --stream --keep 60 -- sh -c 'echo one; read x; echo "two $x"; exit 5' \
	<"$T/in" >"$T/out" &
ctl=$!
exec 7<>"$T/in" 6<"$T/out"
read -r first <&6
expect_eq "sbxctl run --keep started" "$first" one
kill -KILL "$ctl"
wait "$ctl" 2>/dev/null
exec 7>&- 6<&-
sid4=$(sbx ps | awk '$NF == "exit 5" || /echo one/ { print $1 }' | head -1)
case $sid4 in '' | *[!0-9]*) fail "the kept session is not listed"; sid4=0 ;; esac
out=$(echo hi | sbx attach "$sid4"); rc=$?
expect_eq "sbxctl attach: output so far, then live output" "$out" "one
two hi"
expect_eq "sbxctl attach exits with the session's status" "$rc" 5
stop_daemon
done_test
