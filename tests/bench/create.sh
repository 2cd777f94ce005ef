#!/bin/bash
# File-creation-heavy work inside the sandbox, side by side in one run:
# bare, and sbx from each BUILD given (for instance a build from before
# the protected-path supervisor and one from after), each with its own
# warm daemon. Workloads on a generated tree of FILES files: untar,
# git clone (--no-local, so every object is written), rm -rf, and spawn
# of `true`. Run as root: the sandboxes run as $AS_USER (default sbxtest).
# Needs hyperfine. Prints markdown tables.
#   tests/bench/create.sh BUILD... ; RUNS=10 FILES=5000 ...
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD..."; exit 2; }
RUNS=${RUNS:-10}
FILES=${FILES:-5000}
AS_USER=${AS_USER:-sbxtest}
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpids=()
trap 'kill "${dpids[@]}" 2>/dev/null; rm -rf "$root"' EXIT
chmod 755 "$root"
as=()
if [ "$(id -u)" -eq 0 ]; then
	id "$AS_USER" >/dev/null 2>&1 || useradd -m "$AS_USER"
	as=(setpriv --reuid="$AS_USER" --regid="$AS_USER" --init-groups
	    env HOME="$(getent passwd "$AS_USER" | cut -d: -f6)" USER="$AS_USER")
fi
# The source: FILES files in FILES/50 directories, as a tarball and a
# repository outside the workspaces.
src=$root/src
mkdir -p "$src/tree" "$root/out"
for i in $(seq 1 "$FILES"); do
	d=$src/tree/d$((i % (FILES / 50 + 1)))
	[ -d "$d" ] || mkdir "$d"
	echo "file $i" >"$d/f$i.txt"
done
tar cf "$src/tree.tar" -C "$src/tree" .
git -C "$src/tree" init -q
git -C "$src/tree" add .
git -C "$src/tree" -c user.email=b@b -c user.name=b commit -qm tree
[ ${#as[@]} -gt 0 ] && chown -R "$AS_USER": "$root"
cmds=("bare::sh -c 'cd $root/ws-bare && %s'")
mkdir -p "$root/ws-bare"
n=0
for b in "$@"; do
	n=$((n + 1))
	d=$root/d$n
	mkdir -p "$d/run" "$d/ws"
	cp "$b/sbxd" "$b/sbxctl" "$d/"
	[ ${#as[@]} -gt 0 ] && chown -R "$AS_USER": "$d"
	chmod 700 "$d/run"
	mkfifo "$d/ready"
	"${as[@]}" env XDG_RUNTIME_DIR="$d/run" "$d/sbxd" --socket "$d/run/s" \
		--ready-fd 3 3>"$d/ready" 2>"$d/sbxd.log" &
	dpids+=($!)
	read -r _ <"$d/ready"
	cmds+=("sbx $b::$d/sbxctl --no-autostart --socket $d/run/s run -C $d/ws -- sh -c '%s'")
done
[ ${#as[@]} -gt 0 ] && chown -R "$AS_USER": "$root/ws-bare"
# hf TITLE WORK [PREPARE]: each command of cmds with WORK in it.
hf() {
	local args=() c name
	for c in "${cmds[@]}"; do
		name=${c%%::*}
		# shellcheck disable=SC2059
		args+=(-n "$name" "$(printf "${c#*::}" "$2")")
	done
	echo "### $1"
	"${as[@]}" hyperfine -N -i --style none --warmup 1 --runs "$RUNS" \
		${3:+--prepare "$3"} --export-markdown "$root/out/t.md" \
		"${args[@]}" >"$root/out/log" 2>&1 ||
		{ tail -20 "$root/out/log"; return 1; }
	cat "$root/out/t.md"
	echo
}
clean="sh -c 'rm -rf $root/ws-bare/x $root/d*/ws/x'"
echo "## file creation ($(nproc) cores, $(uname -r), sandboxes as ${AS_USER:-$(id -un)}, $FILES files, $RUNS runs)"
echo
hf "untar $FILES files" "mkdir x && tar xf $src/tree.tar -C x" "$clean"
hf "git clone --no-local ($FILES files)" \
	"git clone -q --no-local $src/tree x" "$clean"
hf "rm -rf of $FILES files" "rm -rf x" \
	"sh -c 'for w in $root/ws-bare $root/d*/ws; do rm -rf \$w/x; mkdir \$w/x; tar xf $src/tree.tar -C \$w/x; done'"
hf "spawn of true" "true"
