#!/bin/bash
# Emptied sandbox cgroups are kept and reused by the next sandboxes (no
# mkdir or rmdir per run), and a reused one counts from zero: a run that
# used 48 MiB and hit its process limit leaves nothing for the runs that
# get its cgroup after it (their peak memory and limits hit are their
# own, read on the host and by ps). A cgroup is reused only once empty.
# (A template keeps three sandboxes warm: a freed cgroup is taken by the
# sandbox made as the next run starts, used three runs later.)
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
limits_daemon '{"limits": {"pids": 32}}'
cat >hog.py <<'PY'
import os, signal
x = b"x" * (48 << 20)
kids = []
try:
    while True:
        p = os.fork()
        if p == 0:
            signal.pause()
            os._exit(0)
        kids.append(p)
except OSError:
    pass
for p in kids:
    os.kill(p, signal.SIGKILL)
for p in kids:
    os.waitpid(p, 0)
PY
sbx run -- python3 hog.py 2>"$T/err"
check "the hog hit its process limit" grep -q \
	"limit hit: process limit 32 (policy workspace, limits.pids)" "$T/err"
declare -A seen=()
reused=0 i=0
for i in $(seq 16); do
	held "after-$i"
	d=$(cg "$HP" dir pids)
	[ -n "${seen[$d]:-}" ] && reused=$((reused + 1))
	seen[$d]=1
	info=$("$PY" -c 'import json,sys
s = [s for s in json.loads(sys.argv[1]) if s["pid"] == int(sys.argv[2])][0]
print(s["limit_hit"] or "-", int(s["mem_peak_bytes"] < (32 << 20)))' "$(sbx --json ps)" "$HP")
	[ "$info" = "- 1" ] || fail "run $i in $d reports its cgroup's past: $info"
	# Its own: the init's pid namespace, and the supervisor above it.
	stray=$(comm -23 <(sort "$d/cgroup.procs") <({ ns_pids "$HP"
		awk '{print $4}' "/proc/$HP/stat"; } | sort))
	[ -z "$stray" ] || fail "run $i: processes not its own in $d: $stray"
	release
done
check "later runs reuse emptied cgroups ($reused of 16, ${#seen[@]} cgroups)" \
	test "$reused" -ge 3
check "the daemon still serves runs" sbx run -q -- true
sub=$(cg "$DPID" subtree pids)
stop_daemon
check "the daemon's subtree is removed, kept cgroups too" test ! -e "$sub"
done_test
