# Shared by the resource-limit tests (sourced after lib.sh): whether the
# daemon bounds sandboxes, and what bounds one, read on the host.

# need_cgroups: skips (with the daemon's reason) unless sandboxes get
# cgroups for memory and processes.
need_cgroups() {
	local st
	st=$(sbx --json status)
	"$PY" -c 'import json,sys; s=json.loads(sys.argv[1]); sys.exit(0 if s["cgroups"] and not s["cgroups_off"] else 1)' "$st" ||
		skip "no cgroups for sandboxes: $("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["cgroups_off"])' "$st")"
}

# limits_daemon JSON: the test's daemon, whose sandboxes must have
# cgroups, python3 (the allocations), and $WS (now the cwd) with the
# workspace policy JSON.
limits_daemon() {
	start_daemon
	need_cgroups
	command -v python3 >/dev/null || skip "no python3 for the allocation"
	cd "$WS" && mkdir -p .sbx && echo "$1" >.sbx/policy.json
}

# cg PID MODE WHAT: see cgpath.py.
cg() { "$PY" "$HERE/cgpath.py" "$@"; }

# session_pid MARK: host pid of the session init whose argv holds MARK.
session_pid() {
	"$PY" -c 'import json,sys
for s in json.loads(sys.argv[1]):
    if any(sys.argv[2] in a for a in s["argv"]):
        print(s["pid"]); break' "$(sbx --json ps)" "$1"
}
session_id() {
	"$PY" -c 'import json,sys
for s in json.loads(sys.argv[1]):
    if any(sys.argv[2] in a for a in s["argv"]):
        print(s["id"]); break' "$(sbx --json ps)" "$1"
}

# sandbox_cgroups CTRL: the daemon's per-sandbox cgroups for CTRL, one per
# line (warm sandboxes' too).
sandbox_cgroups() {
	ls -d "$(cg "$DPID" subtree "$1")"/s-* 2>/dev/null
}

# limit_event FILE TARGET LAYER: the first event in FILE (sbxctl events
# --json) is a limit hit of TARGET (pids, memory) set by LAYER's policy.
limit_event() {
	"$PY" -c 'import json,sys
e = json.loads(open(sys.argv[1]).read().splitlines()[0])
assert e["kind"] == "limit" and e["target"] == sys.argv[2] and e["layer"] == sys.argv[3], e' "$@"
}

# user_daemon [DIR...] (root): the test's daemon in user mode as $user
# (need_served_user), first placed in the cgroup directories DIR (one per
# hierarchy, as systemd places a service in the subtree it delegates);
# sbx then runs sbxctl as that user.
user_daemon() {
	local d
	chown "$user": "$WS" "$XDG_RUNTIME_DIR"
	mkdir -p "$T/state" && chown "$user": "$T/state"
	{
		echo '#!/bin/sh'
		for d in "$@"; do echo "echo \$\$ > '$d/cgroup.procs' || exit 1"; done
		echo "exec setpriv --reuid=$user --regid=$user --init-groups \"\$@\""
	} >"$T/enter"
	chmod 755 "$T/enter"
	SBXD_WRAP=$T/enter start_daemon
	printf '#!/bin/sh\nexec setpriv --reuid=%s --regid=%s --init-groups "%s/sbxctl" --no-autostart --socket "%s" "$@"\n' \
		"$user" "$user" "$BIN" "$SOCK" >"$T/bin/sbx"
}

# held MARK [RUN ARGS...]: a run (in the current directory) that says it is
# up, then waits for release; its host pid in $HP, its client in $HC.
held() {
	local mark=$1; shift
	[ -p go ] || { mkfifo go up && chmod 666 go up; }
	sbx run -q "$@" -- sh -c "echo up > up; read x < go; : $mark" &
	HC=$!
	read -r _ <up
	HP=$(session_pid "$mark")
}
# cg_emptied DIR: no process in sandbox cgroup DIR (emptied cgroups are
# kept for the next sandboxes, or removed).
cg_emptied() { [ ! -e "$1" ] || ! grep -q . "$1/cgroup.procs"; }
# release: lets it end; the run's exit status.
release() { echo go >go; wait "$HC"; }

# release_and_stop DIR: releases the held run, which must exit 0; its
# cgroup DIR must be emptied and, once the daemon stopped, the daemon's
# subtree must go.
release_and_stop() {
	local sub
	release; expect_eq "the run exits 0" $? 0
	wait_for "its cgroup is emptied" cg_emptied "$1"
	sub=$(cg "$DPID" subtree pids)
	stop_daemon
	check "the daemon's subtree is removed" test ! -e "$sub"
}
