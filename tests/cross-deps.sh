#!/bin/sh
# Sets up a cross build for DEBARCH (Debian's name: arm64): installs the
# cross gcc (Debian's gcc-MULTIARCH, giving CC) and qemu-user when missing
# (apt, as root), and unpacks Debian's DEBARCH packages of the build
# dependencies, libc included, into SYSROOT. Unpacked, not installed:
# multiarch cannot hold libevent-dev for two architectures at once (it is
# not Multi-Arch: same), so installing libevent-dev:arm64 would remove the
# host's. Their lists need DEBARCH as a dpkg foreign architecture, which it
# adds as root (dpkg --add-architecture, apt-get update).
# Usage: tests/cross-deps.sh DEBARCH MULTIARCH CC QEMU SYSROOT
set -eu
debarch=$1 multiarch=$2 cc=$3 qemu=$4 sysroot=$5
dev="libc6-dev libevent-dev libprotobuf-c-dev libseccomp-dev libsystemd-dev
libssl-dev libjansson-dev"
stamp=$sysroot/.complete

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "cross build for $debarch: $1" >&2
	exit 1
}

export DEBIAN_FRONTEND=noninteractive
if ! command -v "$cc" >/dev/null || ! command -v "$qemu" >/dev/null; then
	need_root "install gcc-$multiarch and qemu-user"
	apt-get update -qq >/dev/null 2>&1 || true
	apt-get install -y -qq --no-install-recommends "gcc-$multiarch" \
		qemu-user >/dev/null
fi
# The sysroot is remade when this script changes (its package list).
[ -n "$(find "$stamp" -newer "$0" 2>/dev/null)" ] && exit 0

if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
	need_root "run: dpkg --add-architecture $debarch && apt-get update"
	dpkg --add-architecture "$debarch"
	apt-get update -qq >/dev/null 2>&1 || true
fi
# Everything the -dev packages depend on, in DEBARCH builds only (the
# host's tools they name, such as libc-dev-bin, are not needed).
closure() {
	# shellcheck disable=SC2046
	apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		$(for p in $dev; do echo "$p:$debarch"; done) 2>/dev/null |
		grep -v '^ ' | grep ":$debarch\$" | sort -u
}
download() {
	pkgs=$(closure)
	echo "$pkgs" | grep -q "^libevent-dev:$debarch\$" || return 1
	rm -rf "$sysroot"
	mkdir -p "$sysroot/debs"
	# shellcheck disable=SC2086
	(cd "$sysroot/debs" && apt-get download -qq $pkgs >/dev/null 2>&1)
}
if ! download; then
	# DEBARCH's lists are missing or stale: fetch them, try once more.
	need_root "run: apt-get update"
	apt-get update -qq >/dev/null 2>&1 || true
	download || {
		echo "cross sysroot: cannot download $debarch packages:" >&2
		echo "$pkgs" >&2
		exit 1
	}
fi
echo "cross sysroot $sysroot: $(echo "$pkgs" | wc -l) $debarch packages"
for deb in "$sysroot"/debs/*.deb; do
	dpkg-deb -x "$deb" "$sysroot"
done
rm -rf "$sysroot/debs"
# Absolute links (libm.so -> /lib/...) would point at the host: make them
# relative, inside the sysroot.
find "$sysroot" -type l -lname '/*' | while read -r link; do
	ln -sfr "$sysroot$(readlink "$link")" "$link"
done
touch "$stamp"
