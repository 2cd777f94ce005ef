#!/bin/bash
# Spawn latency, side by side in one run: bare exec, bwrap with an
# equivalent policy, srt (if installed), and sbx (warm daemon, held
# template). Then the same with N hidden files (.env at many depths):
# sbx masks them from one .sbxignore line, bwrap needs one bind per file,
# srt a denyRead glob. Run as root: the sandboxes run as $AS_USER
# (default sbxtest, created if missing). Needs hyperfine (and bubblewrap,
# srt for their rows). Prints markdown tables.
#   tests/bench/spawn.sh [BUILD] ; RUNS=50 SIZES="100 1000" ...
set -eu
b=$(cd "${1:-build}" && pwd)
RUNS=${RUNS:-50}
WARMUP=${WARMUP:-5}
SIZES=${SIZES:-"100 1000"}
AS_USER=${AS_USER:-sbxtest}
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpid=
trap 'kill $dpid 2>/dev/null; rm -rf "$root"' EXIT
chmod 755 "$root"
cp "$b/sbxd" "$b/sbxctl" "$root/"
as=()
if [ "$(id -u)" -eq 0 ]; then
	id "$AS_USER" >/dev/null 2>&1 || useradd -m "$AS_USER"
	as=(setpriv --reuid="$AS_USER" --regid="$AS_USER" --init-groups
	    env HOME="$(getent passwd "$AS_USER" | cut -d: -f6)" USER="$AS_USER")
fi
mkdir -p "$root/run" "$root/ws" "$root/out"
[ ${#as[@]} -gt 0 ] && chown -R "${AS_USER}": "$root/run" "$root/ws" "$root/out"
chmod 700 "$root/run"
sock="$root/run/sbxd.sock"
mkfifo "$root/ready"
"${as[@]}" env XDG_RUNTIME_DIR="$root/run" "$root/sbxd" --socket "$sock" \
	--ready-fd 3 3>"$root/ready" 2>"$root/sbxd.log" &
dpid=$!
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
hf() { # title cwd -- name::cmd...
	local title=$1 cwd=$2 args=() spec; shift 3
	for spec in "$@"; do args+=(-n "${spec%%::*}" "${spec#*::}"); done
	echo "### $title"
	(cd "$cwd" && "${as[@]}" hyperfine -N -i --style none --warmup "$WARMUP" \
		--runs "$RUNS" --export-markdown "$root/out/t.md" "${args[@]}" >"$root/out/log" 2>&1) ||
		{ tail -20 "$root/out/log"; return 1; }
	cat "$root/out/t.md"
	echo
}
echo "## spawn latency ($(nproc) cores, $(uname -r), sandboxes as ${AS_USER:-$(id -un)}, $RUNS runs)"
echo
ws=$root/ws
cmds=("bare true::true" "bwrap true::$(bw "$ws" "-- true")" "sbx true::$SBX true"
      "bare sh -c true::/bin/sh -c true" "sbx sh -c true::$SBX /bin/sh -c true")
if command -v srt >/dev/null; then
	srt_cfg "$root/srt.json" "$ws" '"~/.ssh"'
	cmds+=("srt true::srt -s $root/srt.json true")
fi
hf "true in an empty workspace" "$ws" -- "${cmds[@]}"
for n in $SIZES; do
	w=$root/ws-$n
	mkdir -p "$w"
	binds=""
	for i in $(seq 1 "$n"); do
		d="$w/pkg$((i % 50))/m$i"
		mkdir -p "$d"
		echo "SECRET=$i" >"$d/.env"
		binds="$binds --ro-bind /dev/null $d/.env"
	done
	echo ".env" >"$w/.sbxignore"
	[ ${#as[@]} -gt 0 ] && chown -R "$AS_USER": "$w"
	printf '%s' "$(bw "$w" "$binds -- true")" | tr ' ' '\0' >"$root/bw-$n.args"
	cmds=("bare true::true" "sbx, $n .env masked::$SBX true")
	if [ ${#binds} -lt 100000 ]; then
		cmds+=("bwrap, $n binds::$(bw "$w" "$binds -- true")")
	fi
	if command -v srt >/dev/null; then
		srt_cfg "$root/srt-$n.json" "$w" "\"$w/**/.env\""
		cmds+=("srt, denyRead glob::srt -s $root/srt-$n.json true")
	fi
	"${as[@]}" env -C "$w" $SBX true >/dev/null # build the template once
	hf "$n hidden .env files" "$w" -- "${cmds[@]}"
done
