#!/bin/bash
# Clients that begin a frame on the control socket and never finish it:
# each is closed once the frame's deadline passes, the memory the daemon
# holds for unfinished frames stays bounded however many there are (past
# the cap a connection is refused at once), and a well-behaved client is
# served meanwhile. The log says so a few times, and then how often more.
. "$(dirname "$0")/lib.sh"
N=200
PART=$((512 * 1024))
start_daemon --frame-timeout 2
rss() { awk '/^VmRSS/ {print $2}' "/proc/$DPID/status"; }
sbx status >/dev/null
before=$(rss)
mkfifo "$T/in" "$T/out"
"$PY" "$HERE/partialframes.py" "$SOCK" $N $PART 20 <"$T/in" >"$T/out" &
cpid=$!
exec 7>"$T/in"
exec 8<"$T/out"
line=
read -r -t 60 line <&8
during=$(rss)
echo "$line; daemon RSS $before KiB before, $during KiB with $N unfinished frames"
check "the frames were sent ($line)" grep -Eq "^sent $N refused [0-9]+$" <<<"$line"
check "the daemon's memory stays bounded ($(( (during - before) / 1024 )) MiB more)" \
	test $((during - before)) -lt $((48 * 1024))
check "a well-behaved client is served meanwhile" timeout 5 sbx status >/dev/null
echo go >&7
line=
read -r -t 60 line <&8
echo "$line"
check "every unfinished frame's connection is closed ($line)" \
	grep -q "^closed $N of $N " <<<"$line"
check "... with a bad-frame error" grep -Eq " 1:[1-9]" <<<"$line"
wait "$cpid"
check "the daemon still answers" timeout 5 sbx status >/dev/null
stop_daemon
# The same line 200 times: a few are written, then how many were not.
drops=$(grep -c "dropped (error 1)" "$T/sbxd.log")
check "the log limits a repeated line ($drops written)" test "$drops" -le 25
check "... and says how many it left out" \
	grep -Eq "[0-9]+ similar lines suppressed \(the last: client pid" "$T/sbxd.log"
done_test
