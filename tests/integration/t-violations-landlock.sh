#!/bin/bash
# Landlock audit records as a violation source: privileged mode (a root
# daemon may read the audit log), Linux >= 6.15 (Landlock ABI 7) with
# kernel audit on. A signal to the sandbox's init is reported with the
# process, the Landlock right and the rule; the domain is mapped to its
# session. Writes that
# read-only mounts refuse (EROFS) are seen by no source, and the summary
# makes no guess about them.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
[ "$(id -u)" -eq 0 ] || skip "Landlock audit records need a root daemon (privileged mode)"
user=${SBX_TEST_USER:-sbxtest}
id "$user" >/dev/null 2>&1 || skip "no user $user"
was=$("$PY" "$HERE/auditctl.py" get 2>/dev/null) ||
	skip "no kernel audit on this machine (CONFIG_AUDIT off, or no netlink audit here)"
# Audit is a machine-wide switch: turned on for this test only, put back.
restore() { [ "$was" = 1 ] || "$PY" "$HERE/auditctl.py" set 0; cleanup; }
trap restore EXIT
[ "$was" = 1 ] || "$PY" "$HERE/auditctl.py" set 1 || skip "cannot turn kernel audit on"
chown "$user": "$WS"
chmod 755 "$T"
start_daemon --user "$user"
chmod 755 "$XDG_RUNTIME_DIR"
as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
s() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
abi=$(s --json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["landlock_abi"])')
[ "$abi" -ge 7 ] || skip "Landlock ABI $abi: no audit records before ABI 7 (Linux 6.15)"
s --json status >"$T/status"
grep -q '"landlock_audit": true' "$T/status" ||
	skip "the daemon reads no Landlock records here: $(grep -o 'Landlock audit: [^"]*' "$T/status")"
cd "$WS"

# Every path a sandbox may not write is also a read-only mount (EROFS, seen
# by no source) or, for /proc, has no such name (ENOENT): in a namespace
# sandbox Landlock's filesystem rules are the second line and never decide
# first. What Landlock alone refuses here is a signal to the init.
s run --json -- sh -c "$P kill 1; $P write /etc/sbx-ll-$$" >"$T/out" 2>"$T/err"
expect_eq "Landlock refused the signal, the mount the write" "$(cat "$T/out")" "EPERM
EROFS"
expect_eq "the Landlock denial, with its right and rule" \
	"$(v "$T/err" groups kind target operation rule rule_id layer |
	   sed 's/(pid [0-9]*)/(pid N)/')" \
	"signal|process sbx-init (pid N)|signal|builtin Landlock scope|landlock.scope.signal|builtin"
expect_eq "the EROFS write is not among them" \
	"$(v "$T/err" violations fs_unobserved)" "1
false"

s run -- sh -c "$P kill 1 >/dev/null; $P write /etc/sbx-ll-$$ >/dev/null" 2>"$T/err"
# The EROFS write was seen by nothing: no line guesses at it.
expect_eq "the text summary, no guess" "$(sed 's/(pid [0-9]*)/(pid N)/' "$T/err")" \
"sbx: blocked signal process sbx-init (pid N) (outside the sandbox's Landlock domain; builtin Landlock scope, rule landlock.scope.signal) — processes outside the sandbox cannot be signalled from inside it"
stop_daemon
done_test
