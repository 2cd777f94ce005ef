#!/bin/bash
# When the command exits, every process it left in the sandbox is gone
# before its exit status reaches the client: a background child, one in a
# session of its own, and an orphan (reparented to the sandbox's init).
# Checked on the host, by command line, right after sbxctl returns; the
# run must return long before those processes would have ended.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"

# Markers no other process on the host has on its command line, each a
# sleep of about 30 s (a sandbox that waited for them would still end).
m=$$
# Host pids whose command line is exactly "sleep N".
left() {
	local p c
	for p in /proc/[0-9]*; do
		c=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
		[ "$c" = "sleep $1 " ] && echo "${p#/proc/}"
	done
	return 0
}

# The command waits until each has exec'd sleep (bounded: a miss fails
# the checks below, it does not hang), then exits 3.
cat >leave.sh <<'EOF'
m=$1
sleep 30.$m & a=$!
setsid sleep 31.$m & b=$!
(sleep 32.$m & echo $! >orphan.pid)
c=$(cat orphan.pid)
for p in $a $b $c; do
	i=0 comm=
	while [ $i -lt 100000 ] && [ "$comm" != sleep ]; do
		read -r comm </proc/$p/comm 2>/dev/null
		i=$((i + 1))
	done
	echo "$p: $comm"
done >started
exit 3
EOF
chmod 644 leave.sh

s=$(date +%s)
sbx run -- sh ./leave.sh "$m"
rc=$?
got=$(left "30.$m")$(left "31.$m")$(left "32.$m")
e=$(date +%s)
expect_eq "the command's exit status" "$rc" 3
check "all three had exec'd sleep" \
	[ "$(grep -c ': sleep$' started)" = 3 ]
expect_eq "no process of the sandbox left when the status came" "$got" ""
check "the status came without waiting for them ($((e - s)) s)" \
	[ $((e - s)) -lt 20 ]

# Nothing left behind: the status comes as well, and the next run of the
# same template is served.
sbx run -- true
expect_eq "a command that leaves nothing" $? 0
expect_eq "the next run" "$(sbx run -- sh -c 'echo ok')" ok

stop_daemon
done_test
