#!/bin/sh
# Lint-level checks of the packaging that is not built here: the RPM spec
# parses (rpmspec -P), has no rpmlint errors, and its %files cover exactly
# what its own `make install` line installs; the Homebrew formula is valid
# Ruby and passes only directory knobs packaging.mk has; the AppArmor
# profile parses (fully with AppArmor 4; without the 4.0-only lines on older
# parsers) and attaches to the installed sbxd; every place that names the
# version names the same one. Each tool that is missing skips its part.
. tests/integration/pkg-lib.sh

spec=packaging/rpm/sbx.spec formula=packaging/homebrew/sbx.rb
profile=packaging/apparmor/sbxd
version=$(pkg_version)
[ -n "$version" ] || fail "no VERSION from make"
checked=
pkg_bins >/dev/null
pkg_policies >/dev/null

# --- versions ---------------------------------------------------------------
v=$(sed -n 's/^Version: *//p' "$spec")
[ "$v" = "$version" ] || fail "$spec Version $v, make says $version"
v=$(sed -n 's|^ *url ".*/sbx-\(.*\)\.tar\.gz"|\1|p' "$formula")
[ "$v" = "$version" ] || fail "$formula url is for $v, make says $version"
v=$(sed -n '1s/^sbx (\([^-]*\)-.*/\1/p' packaging/debian/changelog)
[ "$v" = "$version" ] || fail "debian/changelog is at $v, make says $version"

# --- RPM spec ---------------------------------------------------------------
if command -v rpmspec >/dev/null 2>&1; then
	# systemd-rpm-macros is Fedora's; give its two directories here.
	rpmspec -P -D '_unitdir /usr/lib/systemd/system' \
		-D '_userunitdir /usr/lib/systemd/user' "$spec" >"$pkg_tmp/spec" 2>"$pkg_tmp/spec.err" ||
		fail "rpmspec -P: $(cat "$pkg_tmp/spec.err")"
	# The make install line of %install (continuations joined), minus the
	# buildroot and install program, run against a scratch DESTDIR.
	vars=$(sed -n '/^%install/,/^%/p' "$pkg_tmp/spec" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
		grep 'make install' | tr ' ' '\n' | grep -E '^[A-Z_]+=' |
		grep -v -e '^DESTDIR=' -e '^INSTALL=')
	stage=$pkg_tmp/rpmroot
	# shellcheck disable=SC2086
	pkg_make install DESTDIR="$stage" $vars || fail "make install with the spec's variables"
	# What the spec removes after installing.
	sed -n '/^%install/,/^%/s|^rm -f [^ ]*BUILDROOT/[^/]*||p' "$pkg_tmp/spec" |
		while read -r f; do rm -f "$stage$f"; done
	patterns=$(sed -n '/^%files/,/^%changelog/p' "$pkg_tmp/spec" | grep '^[%/]' |
		grep -v -e '^%files' -e '^%changelog' -e '^%dir' | sed 's/^%[a-z]*([^)]*) *//; s/^%[a-z]* *//')
	(cd "$stage" && find . -type f | sed 's|^\.||' | sort) >"$pkg_tmp/staged"
	while read -r f; do
		hit=
		for p in $patterns; do
			# shellcheck disable=SC2254 # %files entries are globs
			case $f in $p | ${p%/}/*) hit=1; break ;; esac
		done
		[ -n "$hit" ] || fail "installed but not in the spec's %files: $f"
	done <"$pkg_tmp/staged"
	for p in $patterns; do
		grep -q "^${p%/}" "$pkg_tmp/staged" ||
			case $p in *'*'*) (cd "$stage" && set -- .$p && [ -e "$1" ]) ;; *) false ;; esac ||
			fail "%files lists $p, which make install does not install"
	done
	sed -n '/^%files/,/^%changelog/s/^%dir //p' "$pkg_tmp/spec" | while read -r d; do
		[ -d "$stage$d" ] || fail "%dir $d is not installed"
	done
	checked="$checked rpmspec"
	if command -v rpmlint >/dev/null 2>&1; then
		out=$(rpmlint "$spec" 2>&1)
		echo "$out" | grep -q ' 0 errors' || fail "rpmlint: $out"
		checked="$checked rpmlint"
	fi
fi

# --- Homebrew formula -------------------------------------------------------
if command -v ruby >/dev/null 2>&1; then
	ruby -c "$formula" >/dev/null || fail "$formula is not valid Ruby"
	checked="$checked ruby"
fi
for k in $(sed -n 's/^ *"\([A-Z_]*\)=.*/\1/p' "$formula"); do
	grep -q "^$k ?=" packaging/packaging.mk || grep -q "^$k ?=" Makefile ||
		fail "$formula passes $k, which no Makefile knows"
done

# --- AppArmor profile -------------------------------------------------------
grep -q '^profile sbxd /usr/bin/sbxd flags=(unconfined) {' "$profile" ||
	fail "$profile does not attach to /usr/bin/sbxd unconfined"
grep -q '^  userns,$' "$profile" || fail "$profile lacks the userns rule"
pkg_make install DESTDIR="$pkg_tmp/aa" PREFIX=/opt/sbx || fail "make install"
grep -q '^profile sbxd /opt/sbx/bin/sbxd ' "$pkg_tmp/aa/etc/apparmor.d/sbxd" ||
	fail "installed profile does not attach to the installed sbxd"
if command -v apparmor_parser >/dev/null 2>&1; then
	if apparmor_parser -Q -K "$profile" >/dev/null 2>&1; then
		checked="$checked apparmor_parser"
	else
		# AppArmor 3 (Debian 12) knows neither abi/4.0 nor userns: check
		# the rest, as the .deb's postinst disables the profile there.
		grep -v -e '^abi <abi/4.0>,$' -e '^  userns,$' "$profile" >"$pkg_tmp/sbxd.aa3"
		apparmor_parser -Q -K "$pkg_tmp/sbxd.aa3" >/dev/null 2>"$pkg_tmp/aa.err" ||
			fail "apparmor_parser: $(cat "$pkg_tmp/aa.err")"
		checked="$checked apparmor_parser(<4, without the 4.0 lines)"
	fi
fi
note "PASS (checked with:${checked:- nothing but grep})"
