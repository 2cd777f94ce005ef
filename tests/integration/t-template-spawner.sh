#!/bin/bash
# Sandboxes are forked from the template's spawner, which was forked before
# the template walked the workspace: a sandbox in a workspace with
# thousands of masked files carries none of the walk's memory (each of
# its processes would copy it at fork and free it at exit). A spawner
# that is killed is replaced, and what the template masks stays masked.
# The daemon runs as under systemd's watchdog: libsystemd then registers
# a fork handler, which the template's children (without libsystemd's
# code: linux/lean.c) must never run.
. "$(dirname "$0")/lib.sh"
printf '#!/bin/sh\nexport WATCHDOG_PID=$$ WATCHDOG_USEC=600000000\nexec "$@"\n' >"$T/watchdog"
chmod 755 "$T/watchdog"
SBXD_WRAP=$T/watchdog start_daemon
mkdir "$WS/empty" "$WS/many"
"$PY" - "$WS/many" <<'PY'
import os, sys
for i in range(5000):
    d = os.path.join(sys.argv[1], "pkg%d" % (i % 50), "m%d" % i)
    os.makedirs(d)
    with open(os.path.join(d, ".env"), "w") as f:
        f.write("SECRET=%d\n" % i)
PY
echo .env >"$WS/many/.sbxignore"
# rss_anon PID...: the largest RssAnon (kB) of those processes.
rss_anon() {
	local p max=0 v
	for p in "$@"; do
		v=$(awk '/^RssAnon:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$max" ] && max=$v
	done
	echo "$max"
}
# Each warm sandbox has two sbx-init processes (its init and command), in
# every mode.
inits() { [ "$(daemon_procs sbx-init | wc -l)" -ge "$1" ]; }
expect_eq "a run under the watchdog" "$(cd "$WS/empty" && sbx run -- echo ok)" ok
wait_for "warm sandboxes of the empty workspace" inits 4
first=$(daemon_procs sbx-init | sort)
empty=$(rss_anon $first)
(cd "$WS/many" && sbx run -- true)
wait_for "warm sandboxes of both workspaces" inits 8
many=$(rss_anon $(comm -13 <(echo "$first") <(daemon_procs sbx-init | sort)))
template=$(rss_anon $(daemon_procs sbx-template))
echo "RssAnon kB: sandbox (empty ws) $empty, sandbox (5000 masked) $many, largest template $template"
check "sizes read" test "$empty" -gt 0 -a "$many" -gt 0
check "the template holds the walk (RssAnon $template kB)" test "$template" -gt $((empty + 1000))
# What a sandbox grew by: under a tenth of what the template did (the
# spawner's own memory differs a little from workspace to workspace).
check "a sandbox does not (RssAnon $many vs $empty kB)" \
	test $((many - empty)) -lt $(((template - empty) / 10))
cd "$WS/many"
# masked FILE: what a sandbox sees there ("denied" only from inside).
masked() { sbx run -- sh -c "cat $1 >/dev/null 2>&1 && echo read || echo denied"; }
expect_eq "masked" "$(masked pkg1/m1/.env)" denied
# The spawner killed: once the warm sandboxes it made are used up, the
# next come from a new one.
spawners=$(daemon_procs sbx-spawner | sort)
kill -KILL $spawners
for p in $spawners; do wait_exit "$p"; done
for i in 1 2 3 4; do
	expect_eq "sandbox $i after the spawner was killed" "$(sbx run -- echo ok)" ok
done
expect_eq "still masked" "$(masked pkg1/m1/.env)" denied
echo SECRET=new >"$WS/many/pkg2/late.env"
mv "$WS/many/pkg2/late.env" "$WS/many/pkg2/.env2" # not matched
cp "$WS/many/pkg2/.env2" "$WS/many/pkg2/.env"
expect_eq "a file created now is masked" "$(masked pkg2/.env)" denied
check "new spawners" test -n "$(comm -13 <(echo "$spawners") <(daemon_procs sbx-spawner | sort))"
stop_daemon
done_test
