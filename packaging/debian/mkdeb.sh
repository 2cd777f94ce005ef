#!/bin/sh
# Assembles the sbx .deb from a `make install-deb` staging tree with dpkg-deb
# and dpkg-dev's tools only: the steps debhelper would take (dh_install with
# sbx.install, dh_missing, dh_compress, dh_fixperms, dh_installdeb,
# dh_shlibdeps, dh_gencontrol, dh_md5sums), so `make deb` needs neither
# debhelper nor a network.
#
# usage: mkdeb.sh STAGE OUTDIR VERSION      prints the path of the .deb
set -eu

stage=$1 out=$2 version=$3
deb=$(cd "$(dirname "$0")" && pwd)
die() { echo "mkdeb: $*" >&2; exit 1; }
[ -d "$stage" ] || die "no staging tree $stage"
for t in dpkg-deb dpkg-gencontrol dpkg-shlibdeps dpkg-architecture; do
	command -v "$t" >/dev/null 2>&1 || die "$t missing (apt-get install dpkg-dev)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$out/deb
root=$work/root
rm -rf "$root" "$work/src"
mkdir -p "$root/DEBIAN" "$work/src"
stage=$(cd "$stage" && pwd)

# dh_install: copy what sbx.install lists; dh_missing: nothing staged may be
# left out, so a new installed file cannot silently miss the package.
listed=$work/listed
: >"$listed"
while read -r pat; do
	case $pat in '' | '#'*) continue ;; esac
	found=0
	for p in "$stage"/$pat; do
		[ -e "$p" ] || continue
		found=1
		rel=${p#"$stage"/}
		mkdir -p "$root/$(dirname "$rel")"
		cp -R -P -p "$p" "$root/$rel"
		(cd "$stage" && find "$rel" ! -type d) >>"$listed"
	done
	[ $found = 1 ] || die "sbx.install: $pat: nothing staged"
done <"$deb/sbx.install"
sort -o "$listed" "$listed"
missing=$( (cd "$stage" && find . ! -type d | sed 's|^\./||' | sort) |
	comm -23 - "$listed")
[ -z "$missing" ] || die "staged but not in sbx.install: $missing"

# dh_installdocs/changelogs, dh_lintian, dh_compress.
doc=$root/usr/share/doc/sbx
mkdir -p "$doc" "$root/usr/share/lintian/overrides"
cp "$deb/copyright" "$doc/copyright"
cp "$deb/sbx.lintian-overrides" "$root/usr/share/lintian/overrides/sbx"
gzip -9n -c "$deb/changelog" >"$doc/changelog.Debian.gz"
find "$root/usr/share/man" -type f ! -name '*.gz' -exec gzip -9n {} +

# dh_fixperms: root:root comes from dpkg-deb --root-owner-group.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root"/usr/bin/*

# dh_installdeb: maintainer scripts (debhelper would fill #DEBHELPER#; all
# they need is written out), and every file under /etc is a conffile.
for s in postinst prerm postrm; do
	grep -v '^#DEBHELPER#$' "$deb/$s" >"$root/DEBIAN/$s"
	chmod 0755 "$root/DEBIAN/$s"
done
(cd "$root" && find etc -type f | sort | sed 's|^|/|') >"$root/DEBIAN/conffiles"
[ -s "$root/DEBIAN/conffiles" ] || rm -f "$root/DEBIAN/conffiles"

# dh_strip, dh_shlibdeps, dh_gencontrol. The last two want a source tree
# with debian/ at its top, and dpkg-gencontrol locks debian/control by
# opening it for writing: give them a scratch one.
mkdir -p "$work/src/debian"
cp "$deb/control" "$deb/changelog" "$work/src/debian/"
elves=
for f in "$root"/usr/bin/*; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && elves="$elves $f"
done
# dh_strip (debug symbols stay in the build tree).
case ${DEB_BUILD_OPTIONS:-} in *nostrip*) ;; *)
	for f in $elves; do
		strip --remove-section=.comment --remove-section=.note --strip-unneeded "$f"
	done ;;
esac
printf 'misc:Depends=\n' >"$work/substvars"
if [ -n "$elves" ]; then
	(cd "$work/src" && dpkg-shlibdeps -T"$work/substvars" $elves)
else
	echo "mkdeb: warning: no ELF binaries staged; no shared-library dependencies" >&2
	printf 'shlibs:Depends=\n' >>"$work/substvars"
fi
(cd "$work/src" && dpkg-gencontrol -psbx -v"$version" -T"$work/substvars" \
	-f"$work/files" -P"$root")

# dh_md5sums (conffiles have their own checksums in dpkg's database).
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' |
	grep -v '^etc/' | sort | xargs md5sum) >"$root/DEBIAN/md5sums"

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
pkg=$out/sbx_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$pkg" >/dev/null
echo "$pkg"
