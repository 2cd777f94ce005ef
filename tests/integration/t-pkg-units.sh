#!/bin/sh
# The systemd units: `make install` puts them where systemd looks with the
# installed daemon's path, `systemd-analyze verify` accepts every one of them
# (templates as instances too) without a word, their [Install] sections
# enable what they should, and none carries a hardening option that would
# stop sbxd from building sandboxes. Needs no running systemd.
. tests/integration/pkg-lib.sh

need systemd-analyze "apt-get install systemd"
need systemctl "apt-get install systemd"
pkg_bins
pkg_policies

# 1. An install whose ExecStart= exists on this host: the prefix is the
# scratch directory itself, so no DESTDIR and nothing outside it.
p=$pkg_tmp/prefix
pkg_make install PREFIX="$p" SYSCONFDIR="$p/etc" DESTDIR= || fail "make install"
sysdir=$p/lib/systemd/system userdir=$p/lib/systemd/user
for u in "$userdir/sbxd.socket" "$userdir/sbxd.service" \
	"$sysdir/sbxd@.socket" "$sysdir/sbxd@.service"; do
	[ -f "$u" ] || fail "not installed: $u"
done
grep -qx "ExecStart=$p/bin/sbxd --foreground" "$userdir/sbxd.service" ||
	fail "user service does not run the installed sbxd"
grep -qx "ExecStart=$p/bin/sbxd --foreground --user %i" "$sysdir/sbxd@.service" ||
	fail "template service does not run the installed sbxd"

# 2. systemd-analyze verify, checking Documentation= against the installed
# man pages where man(1) exists. Any output is a finding.
man=no
command -v man >/dev/null 2>&1 && man=yes
verify()
{
	out=$(MANPATH="$p/share/man:" XDG_RUNTIME_DIR="$pkg_tmp/run" \
		systemd-analyze "$@" 2>&1) && [ -z "$out" ] ||
		fail "systemd-analyze $*:
$out"
}
mkdir -m 0700 "$pkg_tmp/run"
verify --man=$man verify "$sysdir/sbxd@.socket" "$sysdir/sbxd@.service"
verify --man=$man verify "$sysdir/sbxd@1000.socket" "$sysdir/sbxd@1000.service"
verify --man=$man --user verify "$userdir/sbxd.socket" "$userdir/sbxd.service"
note "systemd-analyze verify: 4 units and 2 instances clean (man pages checked: $man)"

# 3. The interface the clients rely on.
val() { sed -n "s/^$2=//p" "$1"; }
[ "$(val systemd/sbxd.socket ListenStream)" = '%t/sbx/sbxd.sock' ] ||
	fail "user socket not at %t/sbx/sbxd.sock"
[ "$(val systemd/sbxd@.socket ListenStream)" = '/run/sbx/%i/sbxd.sock' ] &&
	[ "$(val systemd/sbxd@.socket DirectoryMode)" = 0711 ] ||
	fail "privileged socket not in root's /run/sbx/UID (0711)"
[ "$(val systemd/sbxd.socket SocketMode)" = 0600 ] &&
	[ "$(val systemd/sbxd.socket DirectoryMode)" = 0700 ] &&
	[ "$(val systemd/sbxd@.socket SocketMode)" = 0600 ] &&
	[ "$(val systemd/sbxd@.socket SocketUser)" = %i ] ||
	fail "socket ownership or modes wrong"
for s in systemd/sbxd.service systemd/sbxd@.service; do
	[ "$(val $s Type)" = notify ] && [ "$(val $s NotifyAccess)" = main ] &&
		[ -n "$(val $s WatchdogSec)" ] || fail "$s: not Type=notify with a watchdog"
done

# 4. Options that would break namespace creation, hide workspaces, or bind
# every sandboxed command (see the comments in the units). In a user manager
# any mount-namespace option needs unprivileged user namespaces itself.
forbidden='RestrictNamespaces|PrivateUsers|ProtectHome|PrivateTmp|PrivateDevices'
forbidden="$forbidden|ProtectKernelTunables|ProtectKernelLogs|ProtectKernelModules"
forbidden="$forbidden|ProtectProc|ProcSubset|ProtectControlGroups|ProtectClock"
forbidden="$forbidden|SystemCallFilter|SystemCallArchitectures|RestrictAddressFamilies"
forbidden="$forbidden|MemoryDenyWriteExecute|LockPersonality|RestrictRealtime"
forbidden="$forbidden|RestrictSUIDSGID|NoNewPrivileges|DynamicUser|UMask"
for u in systemd/*.service systemd/*.socket; do
	bad=$(grep -E "^($forbidden)=" "$u") && fail "$u: $bad"
done
for u in systemd/sbxd.service systemd/sbxd.socket; do
	bad=$(grep -E '^(ProtectSystem|ProtectHostname|ReadOnlyPaths|InaccessiblePaths|ReadWritePaths|TemporaryFileSystem|BindPaths|BindReadOnlyPaths|PrivateMounts|PrivateIPC|PrivateNetwork)=' "$u") &&
		fail "$u (user manager) needs user namespaces for: $bad"
done
grep -Eq '^ProtectSystem=(strict|full)' systemd/sbxd@.service &&
	fail "sbxd@.service: ProtectSystem= beyond yes makes workspaces or /etc/sbx read-only"

# 5. Enabling, offline: what `systemctl --global enable` (the .deb's
# postinst) and the admin's per-user enable create.
r=$pkg_tmp/root
pkg_make install DESTDIR="$r" PREFIX=/usr || fail "make install DESTDIR"
systemctl --root="$r" --global enable sbxd.service >/dev/null 2>&1 ||
	fail "systemctl --global enable sbxd.service"
[ -L "$r/etc/systemd/user/sockets.target.wants/sbxd.socket" ] ||
	fail "enabling the user service did not enable its socket (Also=)"
systemctl --root="$r" enable sbxd@1000.socket >/dev/null 2>&1 ||
	fail "systemctl enable sbxd@1000.socket"
[ -L "$r/etc/systemd/system/user@1000.service.wants/sbxd@1000.socket" ] ||
	fail "sbxd@1000.socket is not wanted by user@1000.service"
note "PASS"
