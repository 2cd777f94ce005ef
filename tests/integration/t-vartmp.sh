#!/bin/bash
# /var/tmp is private to the workspace like /tmp: writable inside, kept for
# the workspace's next run, never the host's (nor another workspace's);
# it is a directory of the workspace's tmpfs, 0700 and the user's
# (privileged mode too). A home (sbxd --home) under /tmp or /var/tmp still gets its
# overlay: paths the daemon mounts are made in the private ones.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
[ -d /var/tmp ] && [ ! -L /var/tmp ] || skip "this host has no /var/tmp directory"
uid=$(id -u)
decoy=$(mktemp /var/tmp/sbx-vt-decoy.XXXXXX)
echo host-decoy >"$decoy"
trap 'rm -rf "$decoy" "${HT:-}" "${HV:-}" "${WV:-}"; cleanup' EXIT
start_daemon
cd "$WS"
expect_eq "the host's /var/tmp files are not there" "$(sbx run -- "$P" read "$decoy")" ENOENT
expect_eq "writing /var/tmp works" "$(sbx run -- "$P" write /var/tmp/vt-mine)" ok
check "the write is not on the host's /var/tmp" test ! -e /var/tmp/vt-mine
expect_eq "and the decoy is unchanged" "$(cat "$decoy")" host-decoy
expect_eq "kept for the workspace's next run" \
	"$(sbx run -- sh -c 'ls /var/tmp')" vt-mine
mkdir "$T/ws2"
expect_eq "not seen from another workspace" \
	"$(sbx run --workspace "$T/ws2" -C "$T/ws2" -- "$P" read /var/tmp/vt-mine)" ENOENT
check "kept in the workspace's tmpfs, not in the runtime dir" \
	test -z "$(find "$XDG_RUNTIME_DIR" -name vt-mine)"
expect_eq "a directory of the user's, 0700" \
	"$(sbx run -- stat -c '%u %a' /var/tmp)" "$uid 700"
expect_eq "the workspace under /var/tmp's parent is still the real one" \
	"$(sbx run -- "$P" write "$WS/through")" ok
check "which lands on the host" test -f "$WS/through"
# A workspace under the host's /var/tmp is mounted there all the same.
WV=$(mktemp -d /var/tmp/sbx-vt-ws.XXXXXX)
chmod 755 "$WV"
expect_eq "a workspace under /var/tmp is writable" \
	"$(sbx run --workspace "$WV" -C "$WV" -- "$P" write "$WV/in")" ok
check "and the write lands on the host" test -f "$WV/in"
expect_eq "its cwd is that workspace" \
	"$(sbx run --workspace "$WV" -C "$WV" -- pwd)" "$WV"
stop_daemon

# A home under /tmp, then under /var/tmp: its overlay is mounted (made in
# the private directory), reads show it, writes stay in the overlay.
for base in /tmp /var/tmp; do
	H=$(mktemp -d "$base/sbx-vt-home.XXXXXX")
	[ "$base" = /tmp ] && HT=$H || HV=$H
	chmod 755 "$H"
	echo home-file >"$H/f"
	start_daemon --home "$H"
	if sbx status | grep -q 'no home overlay'; then
		stop_daemon
		continue
	fi
	out=$(sbx run -- cat "$H/f" 2>&1)
	expect_eq "home under $base: its files are seen" "$out" home-file
	expect_eq "home under $base: writable (overlay)" \
		"$(sbx run -- "$P" write "$H/new")" ok
	check "home under $base: the host's home is untouched" test ! -e "$H/new"
	stop_daemon
done

# Privileged mode: the served user's, made by root from its own fd.
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	user=${SBX_TEST_USER:-sbxtest}
	chown "$user": "$WS"
	chmod 755 "$T"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
	out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- sh -c \
		"echo p >/var/tmp/priv && $P read $decoy")
	expect_eq "privileged: /var/tmp private and writable" "$out" ENOENT
	check "privileged: not in root's runtime dir" \
		test -z "$(find "/run/sbx/$(id -u "$user")" -name priv)"
	expect_eq "privileged: a directory of the user's, 0700" \
		"$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- \
		stat -c '%U %a' /var/tmp)" "$user 700"
	stop_daemon
fi
done_test
