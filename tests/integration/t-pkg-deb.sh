#!/bin/sh
# `make deb`: the package holds exactly the install layout, owned by root
# with sane modes, /etc files as conffiles, working maintainer scripts. As
# root (and with no sbx package already installed) it is installed with
# dpkg -i: the user socket gets enabled for all users, the installed units
# verify, the installed sbxctl runs `sbxctl run -- true` against the
# installed sbxd, and dpkg --purge leaves nothing behind. Otherwise it is
# unpacked with dpkg -x into a scratch root and checked and run from there.
. tests/integration/pkg-lib.sh

for t in dpkg-deb dpkg-gencontrol dpkg-shlibdeps dpkg-architecture; do
	need $t "apt-get install dpkg-dev"
done
pkg_bins
pkg_policies
version=$(pkg_version)-1

deb=$(pkg_make deb BUILD="$pkg_tmp/build" 2>"$pkg_tmp/deb.err" | tail -n 1) ||
	fail "make deb: $(cat "$pkg_tmp/deb.err")"
[ -f "$deb" ] || fail "make deb made no package: $(cat "$pkg_tmp/deb.err")"
case $deb in */sbx_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb) ;;
*) fail "unexpected package name $deb" ;; esac

# --- what is in it --------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = sbx ] && [ "$(field Version)" = "$version" ] ||
	fail "control: Package/Version are $(field Package) $(field Version)"
if [ $pkg_real_bins = 1 ]; then
	field Depends | grep -q libc6 || fail "no shared-library dependencies: $(field Depends)"
fi

expected='./etc/apparmor.d/sbxd
./etc/sbx/default.json
./etc/sbx/strict.json
./lib/systemd/system/sbxd@.service
./lib/systemd/system/sbxd@.socket
./usr/bin/sbxctl
./usr/bin/sbxd
./usr/lib/systemd/user/sbxd.service
./usr/lib/systemd/user/sbxd.socket
./usr/share/bash-completion/completions/sbxctl
./usr/share/doc/sbx/changelog.Debian.gz
./usr/share/doc/sbx/copyright
./usr/share/lintian/overrides/sbx
./usr/share/man/man1/sbxctl.1.gz
./usr/share/man/man5/sbx-policy.5.gz
./usr/share/man/man8/sbxd.8.gz
./usr/share/sbx/sbx.proto
./usr/share/zsh/vendor-completions/_sbxctl'
for p in $(cd "$pkg_policy_dir" && find . -name '*.json' | sed 's|^\./||'); do
	expected="$expected
./usr/share/sbx/policies/$p"
done
expected=$(printf '%s\n' "$expected" | sort)
dpkg-deb --fsys-tarfile "$deb" | tar -tvf - >"$pkg_tmp/list" || fail "dpkg-deb -c"
got=$(awk '$1 !~ /^d/ { print $6 }' "$pkg_tmp/list" | sort)
[ "$got" = "$expected" ] || fail "package contents differ from the install layout:
$(printf '%s\n' "$expected" >"$pkg_tmp/e"; printf '%s\n' "$got" | diff -u "$pkg_tmp/e" - )"
# Owner root/root; executables 0755, other files 0644, directories 0755.
bad=$(awk '$2 != "root/root" ||
	($1 ~ /^d/ && $1 != "drwxr-xr-x") ||
	($1 ~ /^-/ && $6 ~ /^\.\/usr\/bin\// && $1 != "-rwxr-xr-x") ||
	($1 ~ /^-/ && $6 !~ /^\.\/usr\/bin\// && $1 != "-rw-r--r--")' "$pkg_tmp/list")
[ -z "$bad" ] || fail "wrong owner or mode:
$bad"

ctl=$pkg_tmp/control
mkdir "$ctl" && dpkg-deb -e "$deb" "$ctl" || fail "dpkg-deb -e"
[ "$(cat "$ctl/conffiles")" = "$(printf '%s\n' "$got" | sed -n 's|^\./etc/|/etc/|p')" ] ||
	fail "conffiles are not exactly the /etc files: $(cat "$ctl/conffiles")"
for s in postinst prerm postrm; do
	[ -x "$ctl/$s" ] || fail "$s missing or not executable"
	sh -n "$ctl/$s" || fail "$s does not parse"
	! grep -q '#DEBHELPER#' "$ctl/$s" || fail "$s still has the #DEBHELPER# token"
done
dpkg-deb -x "$deb" "$pkg_tmp/x" || fail "dpkg-deb -x"
(cd "$pkg_tmp/x" && md5sum -c --quiet "$ctl/md5sums") || fail "md5sums do not match"
if command -v lintian >/dev/null 2>&1; then
	errs=$(lintian --no-cfg "$deb" 2>/dev/null | grep '^E:')
	[ -z "$errs" ] || fail "lintian:
$errs"
	note "lintian: no errors"
fi
note "package: $(basename "$deb"), $(printf '%s\n' "$got" | wc -l) files, modes and conffiles right"

# --- installed: dpkg -i as root, else dpkg -x into a scratch root ---------
installed=0
known=$(dpkg-query -W -f='${db:Status-Status}' sbx 2>/dev/null) || known=
if [ "$(id -u)" = 0 ] && command -v dpkg >/dev/null 2>&1 &&
	{ [ -z "$known" ] || [ "$known" = not-installed ]; }; then
	installed=1
	pkg_cleanup_hook='[ $installed = 1 ] && dpkg --purge sbx >/dev/null 2>&1'
	dpkg -i "$deb" >"$pkg_tmp/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$pkg_tmp/dpkg.log")"
	root=
	[ "$(dpkg-query -W -f='${Status}' sbx)" = "install ok installed" ] ||
		fail "dpkg -i did not leave sbx installed"
	if command -v deb-systemd-helper >/dev/null 2>&1 || command -v systemctl >/dev/null 2>&1; then
		[ -L /etc/systemd/user/sockets.target.wants/sbxd.socket ] ||
			fail "postinst did not enable sbxd.socket for all users"
	fi
	if command -v systemd-analyze >/dev/null 2>&1; then
		out=$(systemd-analyze --man=no verify /lib/systemd/system/sbxd@1000.socket \
			/lib/systemd/system/sbxd@1000.service 2>&1) && [ -z "$out" ] &&
			out=$(XDG_RUNTIME_DIR=$pkg_tmp systemd-analyze --man=no --user verify \
				/usr/lib/systemd/user/sbxd.socket /usr/lib/systemd/user/sbxd.service 2>&1) &&
			[ -z "$out" ] || fail "installed units do not verify: $out"
	fi
	note "dpkg -i: installed, user socket enabled, installed units verify"
else
	root=$pkg_tmp/x
	note "not root, or an sbx package is already on this host: unpacked into a scratch root (maintainer scripts not run)"
fi
while read -r mode _ _ _ _ path; do
	case $mode in d*) continue ;; esac
	f=$root${path#.}
	[ -f "$f" ] || fail "installed file missing: $f"
	m=$(stat -c %a "$f")
	case $path in ./usr/bin/*) want=755 ;; *) want=644 ;; esac
	[ "$m" = $want ] || fail "$f has mode $m"
done <"$pkg_tmp/list"

# --- sbxctl run -- true, installed sbxctl against installed sbxd ----------
ran=0
if [ $pkg_real_bins = 1 ]; then
	home=$pkg_tmp/home run=$pkg_tmp/run sock=$pkg_tmp/run/sbx.sock
	mkdir -p "$home" && mkdir -m 0700 "$run" && mkfifo "$pkg_tmp/ready"
	HOME=$home XDG_RUNTIME_DIR=$run XDG_CONFIG_HOME=$home/.config \
		"$root/usr/bin/sbxd" --foreground --socket "$sock" --ready-fd 3 \
		3>"$pkg_tmp/ready" 2>"$pkg_tmp/sbxd.log" &
	dpid=$!
	pkg_cleanup_hook="kill $dpid 2>/dev/null; $pkg_cleanup_hook"
	# Returns on the daemon's ready line, or at EOF if it died first.
	timeout 30 head -n 1 <"$pkg_tmp/ready" >/dev/null || true
	kill -0 $dpid 2>/dev/null || fail "installed sbxd did not start: $(cat "$pkg_tmp/sbxd.log")"
	(cd "$home" && HOME=$home XDG_RUNTIME_DIR=$run \
		timeout 60 "$root/usr/bin/sbxctl" --socket "$sock" run -- true) ||
		fail "installed sbxctl run -- true exited $?: $(cat "$pkg_tmp/sbxd.log")"
	rc=0
	(cd "$home" && HOME=$home XDG_RUNTIME_DIR=$run \
		timeout 60 "$root/usr/bin/sbxctl" --socket "$sock" run -- false) || rc=$?
	[ $rc = 1 ] || fail "installed sbxctl run -- false exited $rc, not 1"
	kill -TERM $dpid
	rc=0; wait $dpid || rc=$?
	[ $rc = 0 ] || fail "installed sbxd exited $rc on SIGTERM: $(cat "$pkg_tmp/sbxd.log")"
	ran=1
	note "installed binaries: sbxctl run -- true/false give 0/1, sbxd stops cleanly"
else
	note "SKIP part: sbxctl run -- true with the installed binaries: $SBX_BUILD/sbxd not built yet"
fi

# --- purge ----------------------------------------------------------------
if [ $installed = 1 ]; then
	dpkg --purge sbx >"$pkg_tmp/dpkg.log" 2>&1 || fail "dpkg --purge: $(cat "$pkg_tmp/dpkg.log")"
	installed=0
	known=$(dpkg-query -W -f='${db:Status-Status}' sbx 2>/dev/null) || known=
	[ -z "$known" ] || [ "$known" = not-installed ] ||
		fail "sbx still known to dpkg after purge ($known)"
	left=$(while read -r mode _ _ _ _ path; do
		case $mode in d*) continue ;; esac
		[ -e "${path#.}" ] || [ -L "${path#.}" ] && echo "${path#.}"
	done <"$pkg_tmp/list")
	for f in /etc/sbx /etc/systemd/user/sockets.target.wants/sbxd.socket \
		/etc/apparmor.d/disable/sbxd /var/lib/systemd/deb-systemd-user-helper-enabled/sbxd.socket.dsh-also; do
		[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
	done
	[ -z "$left" ] || fail "left after purge: $left"
	note "dpkg --purge: nothing left behind"
fi
note "PASS$([ $ran = 1 ] || echo ' (without the run part)')"
