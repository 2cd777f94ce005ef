#!/bin/bash
# File-creation-heavy work, side by side in one run: bare, bwrap with the
# policy sbx applies by default (read-only root, writable workspace and
# home), and sbx from each BUILD given (say a build from before a change
# and one from after), each with its own warm daemon. Workloads: untar
# and `git clone --no-local` of a generated tree of FILES files, `npm ci
# --offline` of tests/bench/npm (97 packages, 9,500 files, from a cache
# in the home filled once before anything is timed: inside the sandbox
# the registry is reachable only through sbx's proxy), `cargo build
# --offline` of a crate with no dependencies (when cargo runs as the
# sandbox user), rm -rf, and spawn of `true`. Run as root: everything
# runs as $AS_USER (default sbxtest), with its home.
# Needs hyperfine, python3 and git (npm, bubblewrap, cargo for their rows).
# Prints markdown tables (p50 is the median) and a summary of ratios.
#   tests/bench/create.sh BUILD... ; RUNS=10 NPM_RUNS=3 FILES=5000 ...
# (RUNS: rounds, each peer once per round, in turn)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD..."; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-10}
NPM_RUNS=${NPM_RUNS:-3}
FILES=${FILES:-5000}
AS_USER=${AS_USER:-sbxtest}
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
# Not under /tmp or /var/tmp: sandboxes have private ones.
root=$(mktemp -d /var/lib/sbx-bench.XXXXXX)
dpids=()
trap 'kill "${dpids[@]}" 2>/dev/null; chmod -R u+rwX "$root"; rm -rf "$root"' EXIT
trap 'exit 1' INT TERM
chmod 755 "$root"
# The real home: sbx's home overlay is over it, and npm's cache (~/.npm)
# is there, as a developer's is.
home=$HOME
as=(env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin USER="$(id -un)"
    LANG=C.UTF-8)
if [ "$(id -u)" -eq 0 ]; then
	id "$AS_USER" >/dev/null 2>&1 || useradd -m "$AS_USER"
	home=$(getent passwd "$AS_USER" | cut -d: -f6)
	as=(setpriv --reuid="$AS_USER" --regid="$AS_USER" --init-groups
	    env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin
	    USER="$AS_USER" LANG=C.UTF-8)
fi
# The sources, outside every workspace: FILES files in FILES/50
# directories as a tarball and a repository; the npm project; a crate.
src=$root/src
mkdir -p "$src/tree" "$src/npm" "$src/crate/src" "$root/out"
for i in $(seq 1 "$FILES"); do
	d=$src/tree/d$((i % (FILES / 50 + 1)))
	[ -d "$d" ] || mkdir "$d"
	echo "file $i" >"$d/f$i.txt"
done
tar cf "$src/tree.tar" -C "$src/tree" .
git -C "$src/tree" init -q
git -C "$src/tree" add .
git -C "$src/tree" -c user.email=b@b -c user.name=b commit -qm tree
cp "$here/npm/package.json" "$here/npm/package-lock.json" "$src/npm/"
printf '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n' \
	>"$src/crate/Cargo.toml"
for i in $(seq 1 20); do
	printf 'pub fn f%d(x: u64) -> u64 { x.wrapping_mul(%d) }\n' "$i" "$i"
done >"$src/crate/src/lib.rs"
[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$root"
run_as() { "${as[@]}" "$@"; }
# The npm cache (~/.npm), filled once; a peer that cannot install from it
# offline gets no npm row.
have_npm=
if command -v npm >/dev/null; then
	mkdir -p "$root/fill"
	cp "$src/npm/"* "$root/fill/"
	[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$root/fill"
	if run_as sh -c "cd $root/fill && npm ci --prefer-offline --no-audit --no-fund --loglevel=error" >"$root/out/npmfill" 2>&1; then
		have_npm=1
	else
		echo "(no npm row: filling the cache failed: $(tail -3 "$root/out/npmfill"))"
	fi
fi
have_cargo=
run_as sh -c 'command -v cargo' >/dev/null && have_cargo=1 ||
	echo "(no cargo row: cargo does not run as ${AS_USER})"
mkdir -p "$root/ws-bare" "$root/ws-bwrap"
cmds=("bare::sh -c 'cd $root/ws-bare && %s'")
if command -v bwrap >/dev/null; then
	bw="bwrap --ro-bind / / --bind $root/ws-bwrap $root/ws-bwrap --bind $home $home --tmpfs /tmp --dev /dev --proc /proc --unshare-all --die-with-parent --new-session --chdir $root/ws-bwrap"
	if run_as $bw true 2>"$root/out/bwrap.err"; then
		cmds+=("bwrap::$bw sh -c '%s'")
	else
		echo "(no bwrap rows: $(head -c 200 "$root/out/bwrap.err"))"
	fi
fi
n=0
for b in "$@"; do
	n=$((n + 1))
	d=$root/d$n
	mkdir -p "$d/run" "$d/ws" "$d/state"
	cp "$b/sbxd" "$b/sbxctl" "$d/"
	[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$d" "$root/ws-bare" "$root/ws-bwrap"
	chmod 700 "$d/run"
	mkfifo "$d/ready"
	run_as XDG_RUNTIME_DIR="$d/run" "$d/sbxd" --socket "$d/run/s" \
		--state-dir "$d/state" --ready-fd 3 3>"$d/ready" 2>"$d/sbxd.log" &
	dpids+=($!)
	read -r _ <"$d/ready"
	name="sbx"
	[ $# -gt 1 ] && name="sbx $b"
	cmds+=("$name::$d/sbxctl --no-autostart --socket $d/run/s run -C $d/ws -- sh -c '%s'")
done
ws_all="$root/ws-bare $root/ws-bwrap $root/d*/ws"
# The last run's tree is moved aside, not removed: this VM's ext4 has no
# journal, and then every inode freed in the last 30 s is skipped one by
# one when a new one is allocated (recently_deleted), which would time the
# removal instead of the creation. rm -rf comes last.
mkdir -p "$root/trash"
[ "$(id -u)" -eq 0 ] && chown "$AS_USER": "$root/trash"
clean="sh -c 'for w in $ws_all; do [ ! -e \$w/x ] || mv \$w/x \$(mktemp -d $root/trash/XXXXXX); done'"
summary=()
# hf TITLE RUNS WORK [PREPARE]: each command of cmds with WORK in it, in
# RUNS rounds of one run each, so that the peers take turns and a
# neighbour's load lands on all of them alike (the other tenants of a
# shared machine move the times by 2x from minute to minute).
hf() {
	local args=() c k i name j=$root/out/$(echo "$1" | tr -c 'a-z0-9\n' _)
	for c in "${cmds[@]}"; do
		name=${c%%::*}
		# shellcheck disable=SC2059
		args+=(-n "$name" "$(printf "${c#*::}" "$3")")
	done
	echo "### $1"
	echo
	# A peer that fails is not timed failing: each runs once first (the
	# warm-up too).
	for ((k = 2; k < ${#args[@]}; k += 3)); do
		c=${args[k]}
		[ -n "${4:-}" ] && run_as sh -c "$4"
		run_as sh -c "$c" >"$root/out/once" 2>&1 ||
			{ echo "fails: $c"; tail -5 "$root/out/once"; return 1; }
	done
	for i in $(seq "$2"); do
		run_as hyperfine -N --style none --runs 1 \
			${4:+--prepare "$4"} --export-json "$j.$i.json" \
			"${args[@]}" >"$root/out/log" 2>&1 ||
			{ tail -20 "$root/out/log"; return 1; }
	done
	python3 "$here/hf-median.py" --merge "$j".*.json
	echo
	summary+=("$(python3 "$here/hf-median.py" --ratio "$1" "$j".*.json)")
}
echo "## file creation ($(nproc) cores, $(uname -r), as ${AS_USER:-$(id -un)}, $FILES files, $RUNS runs, npm $NPM_RUNS)"
echo
hf "untar $FILES files" "$RUNS" "mkdir x && tar xf $src/tree.tar -C x" "$clean"
hf "git clone --no-local, $FILES files" "$RUNS" \
	"git clone -q --no-local $src/tree x" "$clean"
[ -n "$have_npm" ] && hf "npm ci --offline, 97 packages" "$NPM_RUNS" \
	"mkdir x && cp $src/npm/package.json $src/npm/package-lock.json x/ && cd x && npm ci --offline --no-audit --no-fund --loglevel=error" "$clean"
[ -n "$have_cargo" ] && hf "cargo build --offline, no dependencies" "$RUNS" \
	"cp -r $src/crate x && cd x && cargo build -q --offline" "$clean"
hf "rm -rf of $FILES files" "$RUNS" "rm -rf x" \
	"sh -c 'for w in $ws_all; do rm -rf \$w/x; mkdir \$w/x; tar xf $src/tree.tar -C \$w/x; done'"
hf "spawn of true" "$RUNS" "true"
echo "### p50 and ratio to bare"
echo
heads=""
for c in "${cmds[@]:1}"; do heads="$heads | ${c%%::*}"; done
echo "| workload | bare$heads |"
echo "|:---|---:$(for c in "${cmds[@]:1}"; do printf '|---:'; done)|"
printf '%s\n' "${summary[@]}"
