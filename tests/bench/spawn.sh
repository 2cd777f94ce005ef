#!/bin/bash
# Spawn latency, side by side in one run: bare exec, bwrap with an
# equivalent policy, srt (if installed), and sbx (warm daemon, held
# template). Then the same with N hidden files (.env at many depths):
# sbx masks them from one .sbxignore line, bwrap needs one bind per file,
# srt a denyRead glob; and how long sbx takes to build the template that
# masks them (the first run in a fresh copy of the workspace). Run as
# root: the sandboxes run as $AS_USER (default sbxtest, created if
# missing) with a clean environment. As root also "limits on": a second
# daemon of that user started in a cgroup subtree delegated to it (as
# systemd's Delegate=yes gives one), so each of its sandboxes has a cgroup
# with limits, timed side by side with the first (which has none). Needs hyperfine and python3 (and bubblewrap, srt for
# their rows). Prints markdown tables; p50 is the median.
#   tests/bench/spawn.sh [BUILD] ; RUNS=50 SIZES="100 1000 10000" ...
#   SLOW_RUNS=5: runs of a peer that takes seconds (bwrap, srt with masks)
#   BUILDS=5: template builds timed per size
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-50}
WARMUP=${WARMUP:-5}
SLOW_RUNS=${SLOW_RUNS:-5}
BUILDS=${BUILDS:-5}
SIZES=${SIZES:-"100 1000 10000"}
AS_USER=${AS_USER:-sbxtest}
BWRAP_MAX=${BWRAP_MAX:-1000}   # more binds than this: no bwrap row
SRT_MAX=${SRT_MAX:-1000}       # more masked files than this: no srt row
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpid= lpid= deleg=()
# The limits daemon first (its subtree goes with it), then its cgroups.
finish() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	for d in "${deleg[@]}"; do rmdir "$d" 2>/dev/null; done
	kill $dpid 2>/dev/null
	rm -rf "$root"
}
trap finish EXIT
sbxd_args=()
. "$(dirname "$0")/bench-daemon.sh"
read -r _ <"$root/ready"
SBX="$root/sbxctl --no-autostart --socket $sock run --"
bw() { # bwrap with the policy sbx applies by default: ro root, rw ws
	echo "bwrap --ro-bind / / --bind $1 $1 --tmpfs /tmp --dev /dev --proc /proc --unshare-all --die-with-parent --new-session $2"
}
srt_cfg() {
	cat >"$1" <<JSON
{"network": {"allowedDomains": [], "deniedDomains": []},
 "filesystem": {"denyRead": [$3], "allowWrite": ["$2"], "denyWrite": []}}
JSON
	chmod 644 "$1"
}
# Waits (up to 10 s) until the machine is idle: a quarter second with the
# CPUs under 10% busy. What a peer leaves behind (the kernel tears down
# bwrap's network namespaces after it exits) then does not land on the
# next command measured.
settle() {
	python3 - <<'PY'
import time
def busy():
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return sum(f) - f[3] - f[4], sum(f)
end = time.time() + 10
while time.time() < end:
    b0, t0 = busy(); time.sleep(0.25); b1, t1 = busy()
    if (b1 - b0) < 0.1 * max(t1 - t0, 1):
        break
PY
}
# hf OUT RUNS CWD -- name::cmd... : one hyperfine, results to OUT.json
hf() {
	local out=$1 runs=$2 cwd=$3 args=() spec; shift 4
	settle
	for spec in "$@"; do args+=(-n "${spec%%::*}" "${spec#*::}"); done
	(cd "$cwd" && "${as[@]}" hyperfine -N -i --style none --warmup "$WARMUP" \
		--runs "$runs" --export-json "$out.json" "${args[@]}" >"$root/out/log" 2>&1) ||
		{ tail -20 "$root/out/log"; return 1; }
}
p50() { python3 "$here/hf-median.py" --p50 "$1.json" "$2"; }
table() { python3 "$here/hf-median.py" "$@"; echo; }
# Milliseconds of the first run in a fresh copy of a workspace: the
# template is built (walk, masks, watches), then the sandbox runs. The
# median of BUILDS copies (a copy, not a new plan for the same workspace:
# that would also tear the old template down meanwhile).
build_ms() {
	local i s e c t=()
	for i in $(seq "$BUILDS"); do
		c=$root/build-$(basename "$1")-$i
		cp -a "$1" "$c"
		s=$(date +%s%N)
		(cd "$c" && "${as[@]}" "$root/sbxctl" --no-autostart --socket "$sock" \
			run -- true)
		e=$(date +%s%N)
		t+=($(((e - s) / 1000)))
	done
	printf '%s\n' "${t[@]}" | sort -n | awk '{v[NR]=$1} END {printf "%.0f", v[int((NR+1)/2)]/1000}'
}

echo "## spawn latency ($(nproc) cores, $(uname -r), sandboxes as ${AS_USER:-$(id -un)}, $RUNS runs)"
echo
ws=$root/ws
# bwrap last: its namespaces' teardown outlives each run (see settle).
cmds=("bare true::true" "sbx true::$SBX true"
      "bare sh -c true::/bin/sh -c true" "sbx sh -c true::$SBX /bin/sh -c true"
      "bwrap true::$(bw "$ws" "-- true")")
# A peer that fails would be timed failing (hyperfine -i): it must run.
(cd "$ws" && "${as[@]}" $(bw "$ws" "-- true")) >/dev/null 2>"$root/bwrap.err" ||
	{ echo "bwrap does not run here: $(head -c 200 "$root/bwrap.err")"; exit 1; }
# The template is built before, as for the rows with masks below (its
# build is timed on its own, in the last column).
"${as[@]}" env -C "$ws" $SBX true >/dev/null
hf "$root/out/t0" "$RUNS" "$ws" -- "${cmds[@]}"
srt0=
have_srt=
if command -v srt >/dev/null; then
	srt_cfg "$root/srt.json" "$ws" '"~/.ssh"'
	# hyperfine -i would time a failure (srt exits at once without its
	# dependencies, rg and socat): srt is measured only once it runs.
	if (cd "$ws" && "${as[@]}" srt -s "$root/srt.json" true) >/dev/null 2>"$root/srt.err"; then
		have_srt=1
		hf "$root/out/t0-srt" "$SLOW_RUNS" "$ws" -- "srt true::srt -s $root/srt.json true"
		srt0="$root/out/t0-srt.json"
	else
		echo "(srt not measured: $(head -c 200 "$root/srt.err"))"
		echo
	fi
fi
echo "### true in an empty workspace"
table "$root/out/t0.json" $srt0
# Limits on: a cgroup per sandbox (made while it is warm), limits written
# only when a run's differ from its warm sandbox's; 2 x RUNS alternating
# runs of each.
lim=
if [ "$(id -u)" -eq 0 ]; then
	for c in memory pids cpu cpuacct blkio; do
		d=$(python3 "$here/../integration/cgpath.py" $$ dir "$c")/sbx-bench-$$
		case " ${deleg[*]} " in *" $d "*) continue ;; esac
		mkdir "$d" && chown -R "$AS_USER": "$d" && deleg+=("$d")
	done
	mkdir -p "$root/run2" && chown "$AS_USER": "$root/run2" && chmod 700 "$root/run2"
	mkfifo "$root/ready2"
	# Root places it, as a service manager would; then it is the user's.
	(for d in "${deleg[@]}"; do echo $BASHPID >"$d/cgroup.procs"; done
	 exec "${as[@]}" XDG_RUNTIME_DIR="$root/run2" "$root/sbxd" \
		--socket "$root/run2/sbxd.sock" --ready-fd 3 3>"$root/ready2" \
		2>"$root/sbxd2.log") &
	lpid=$!
	read -r _ <"$root/ready2"
	SBX2="$root/sbxctl --no-autostart --socket $root/run2/sbxd.sock run --"
	if "${as[@]}" "$root/sbxctl" --no-autostart --socket "$root/run2/sbxd.sock" \
		--json status | grep -q '"cgroups": "cgroup'; then
		"${as[@]}" env -C "$ws" $SBX2 true >/dev/null
		# Alternating runs: the two are a few percent apart, less than
		# a busy machine drifts between two hyperfine series.
		settle
		cp "$here/alternate.py" "$root/" # for the sandboxes' user
		(cd "$ws" && "${as[@]}" python3 "$root/alternate.py" \
			"$root/out/lim.json" "$((RUNS * 2))" "$WARMUP" \
			"sbx true, no limits::$dpid::$SBX true" \
			"sbx true, limits on::$lpid::$SBX2 true")
		echo "### limits on: each sandbox in a cgroup of its own ($("${as[@]}" "$root/sbxctl" --no-autostart --socket "$root/run2/sbxd.sock" status | sed -n 's/^limits: *//p'))"
		table "$root/out/lim.json"
		echo "CPU per run (the client; the daemon with its templates and sandboxes):"
		echo
		table --cpu "$root/out/lim.json"
		lim=$(python3 -c "print(f'{$(p50 "$root/out/lim" "sbx true, limits on")/$(p50 "$root/out/lim" "sbx true, no limits"):.3f}')")
	else
		echo "(limits not measured: the second daemon has no cgroups)"
		echo
	fi
fi
sbx0=$(p50 "$root/out/t0" "sbx true")
bw0=$(p50 "$root/out/t0" "bwrap true")
build0=$(build_ms "$ws")
summary=("| 0 | $(p50 "$root/out/t0" "bare true") | $sbx0 | 1.00 | $build0 | $bw0 | $([ -n "$srt0" ] && p50 "$root/out/t0-srt" "srt true" || echo -) |")
for n in $SIZES; do
	w=$root/ws-$n
	mkdir -p "$w"
	binds=""
	for i in $(seq 1 "$n"); do
		d="$w/pkg$((i % 50))/m$i"
		mkdir -p "$d"
		echo "SECRET=$i" >"$d/.env"
		[ "$n" -le "$BWRAP_MAX" ] && binds="$binds --ro-bind /dev/null $d/.env"
	done
	echo ".env" >"$w/.sbxignore"
	[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$w"
	"${as[@]}" env -C "$w" $SBX true >/dev/null # build the template once
	# The empty workspace again, in the same run: the ratio is side by side.
	hf "$root/out/t$n" "$RUNS" "$w" -- "bare true::true" \
		"sbx, no masks::$root/sbxctl --no-autostart --socket $sock run -C $ws -- true" \
		"sbx, $n .env masked::$SBX true"
	slow=() bwn=- srtn=- extra=
	[ "$n" -le "$BWRAP_MAX" ] && slow+=("bwrap, $n binds::$(bw "$w" "$binds -- true")")
	if [ -n "$have_srt" ] && [ "$n" -le "$SRT_MAX" ]; then
		srt_cfg "$root/srt-$n.json" "$w" "\"$w/**/.env\""
		slow+=("srt, denyRead glob::srt -s $root/srt-$n.json true")
	fi
	if [ ${#slow[@]} -gt 0 ]; then
		hf "$root/out/s$n" "$SLOW_RUNS" "$w" -- "${slow[@]}"
		extra="$root/out/s$n.json"
		case "${slow[*]}" in *"bwrap, "*) bwn=$(p50 "$root/out/s$n" "bwrap, $n binds") ;; esac
		case "${slow[*]}" in *"srt, "*) srtn=$(p50 "$root/out/s$n" "srt, denyRead glob") ;; esac
	fi
	echo "### $n hidden .env files"
	table "$root/out/t$n.json" $extra
	sbxn=$(p50 "$root/out/t$n" "sbx, $n .env masked")
	sbxe=$(p50 "$root/out/t$n" "sbx, no masks")
	summary+=("| $n | $(p50 "$root/out/t$n" "bare true") | $sbxn | $(python3 -c "print(f'{$sbxn/$sbxe:.2f}')") | $(build_ms "$w") | $bwn | $srtn |")
done
echo "### p50 of \`true\` by masked files (ms); template build: first run in a fresh copy, median of $BUILDS"
echo
echo "| masked .env files | bare | sbx | sbx vs no masks | sbx template build | bwrap | srt |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${summary[@]}"
echo
echo "sbx / bwrap p50 with no masks: $(python3 -c "print(f'{$sbx0/$bw0:.2f}')")"
[ -n "$lim" ] && echo "sbx limits on / off p50: $lim"
