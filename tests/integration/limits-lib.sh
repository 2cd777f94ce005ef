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
