#!/bin/bash
# Template build time with N files hard-linked to a store outside the
# workspace (each a read-only bind) against N plain files: the first run
# in a fresh copy, median of BUILDS copies, and the mounts of the
# template. Usage: tests/bench/hardlinks.sh [BUILD] (N=10000 BUILDS=5).
set -eu
b=$(cd "${1:-build}" && pwd)
N=${N:-10000}
BUILDS=${BUILDS:-5}
AS_USER=${AS_USER:-sbxtest}
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpid=
trap 'kill $dpid 2>/dev/null; rm -rf "$root"' EXIT
chmod 755 "$root"
cp "$b/sbxd" "$b/sbxctl" "$root/"
as=(env -i HOME="$root/home" PATH=/usr/local/bin:/usr/bin:/bin
    USER="$(id -un)" LANG=C.UTF-8)
if [ "$(id -u)" -eq 0 ]; then
	as=(setpriv --reuid="$AS_USER" --regid="$AS_USER" --init-groups "${as[@]}")
fi
mkdir -p "$root/run" "$root/home" "$root/store"
for i in $(seq "$N"); do echo "$i" >"$root/store/f$i"; done
[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$root"
chmod 700 "$root/run"
sock="$root/run/sbxd.sock"
mkfifo "$root/ready"
"${as[@]}" XDG_RUNTIME_DIR="$root/run" "$root/sbxd" --socket "$sock" \
	--ready-fd 3 3>"$root/ready" 2>"$root/sbxd.log" &
dpid=$!
read -r _ <"$root/ready"
# build_ms plain|linked: the first run's milliseconds in fresh copies (cp -al keeps
# the store's links, which then count one more inside: so a copy links
# only to the store), median; the last copy's mount count inside.
build_ms() {
	local i s e c t=()
	for i in $(seq "$BUILDS"); do
		c=$root/$1-$i
		mkdir -p "$c/node_modules"
		if [ "$1" = linked ]; then
			cp -l "$root"/store/f* "$c/node_modules/"
		else
			cp "$root"/store/f* "$c/node_modules/"
		fi
		[ "$(id -u)" -eq 0 ] && chown -R "$AS_USER": "$c"
		s=$(date +%s%N)
		(cd "$c" && "${as[@]}" "$root/sbxctl" --no-autostart \
			--socket "$sock" run -- true)
		e=$(date +%s%N)
		t+=($(((e - s) / 1000)))
	done
	mounts=$(cd "$c" && "${as[@]}" "$root/sbxctl" --no-autostart \
		--socket "$sock" run -- sh -c 'wc -l < /proc/self/mountinfo')
	printf '%s\n' "${t[@]}" | sort -n |
		awk -v m="$mounts" '{v[NR]=$1} END {printf "%.0f ms, %s mounts", v[int((NR+1)/2)]/1000, m}'
}
echo "| $N files in node_modules | template build (median of $BUILDS) |"
echo "|---|---|"
echo "| plain | $(build_ms plain) |"
echo "| hard-linked to a store outside | $(build_ms linked) |"
