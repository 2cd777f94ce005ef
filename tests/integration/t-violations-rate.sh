#!/bin/bash
# The per-session rate limit under a tight loop of 100,000 refused
# syscalls: every one is answered and counted, subscribers get a burst and
# then a trickle, the rest arrives as "N more suppressed" events whose
# counts add up exactly, and the daemon's memory stays where it was.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
need_notify
cd "$WS"
N=100000
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$DPID/status"; }

# Warm up (the template, the filter's buffers), then measure.
sbx run -q -- "$P" repeat 1000 io_uring >/dev/null
before=$(rss)
subscribe events --json
EPID=$SUB

t0=$(date +%s%N)
sbx run --json -- "$P" repeat $N io_uring >"$T/out" 2>"$T/err"
t1=$(date +%s%N)
after=$(rss)
expect_eq "every try refused with EPERM" "$(cat "$T/out")" EPERM
expect_eq "every try counted, in one group" \
	"$(v "$T/err" violations groups.0.count groups.0.rule_id ungrouped)" \
	"$N
$N
seccomp.io_uring
0"
held=$(v "$T/err" suppressed)

# Stopping the daemon flushes what it queued for the subscriber, then
# closes it: everything the subscriber will ever get is then in the file.
stop_daemon
wait $EPID
live=$(v "$T/events" events suppressed | grep -c '^$')
sum=$(v "$T/events" events suppressed | awk '{ s += $1 } END { print s + 0 }')
expect_eq "live events and suppressed counts add up to N" $((live + sum)) $N
expect_eq "the suppressed events say what the summary says" "$sum" "$held"
# A burst of 32, then 10 a second, and the held-back event(s).
secs=$(( (t1 - t0) / 1000000000 + 1 ))
check "burst then trickle: $live live events in ${secs}s" \
	[ "$live" -ge 32 -a "$live" -le $((32 + 10 * secs + 1)) ]
check "held-back events name the denial" \
	grep -q '"suppressed":[0-9]*,"text":"[0-9]* more violations suppressed (rate limit); the last: blocked syscall io_uring_setup' "$T/events"
# Nothing per denial is kept: 100,000 of them would show by far.
check "daemon memory bounded: RSS ${before} -> ${after} KiB" \
	[ $((after - before)) -lt 2048 ]
done_test
