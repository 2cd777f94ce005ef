#!/bin/bash
# Privileged mode: a policy file the user points at a fresh pty must not
# give the root daemon (a session leader, as systemd starts it) a
# controlling terminal the user holds the master of: a ^C written there
# would be SIGINT to the daemon's process group, a hangup SIGHUP.
. "$(dirname "$0")/lib.sh"
not() { ! "$@"; }
need_served_user
H=$T/home
mkdir -p "$H/.config/sbx" "$WS/.sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
SBXD_WRAP=setsid start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
expect_eq "the daemon has no controlling terminal at start" \
	"$(awk '{print $7}' "/proc/$DPID/stat")" 0
cd "$WS"
# As the user: a new pty, the workspace policy a link to its slave, one
# run (which reads that policy), then the daemon's tty and a ^C.
out=$(setpriv --reuid="$user" --regid="$user" --init-groups "$PY" -c '
import os, subprocess, sys
m, s = os.openpty()
name = os.ttyname(s)
os.close(s)
os.symlink(name, ".sbx/policy.json")
subprocess.run([sys.argv[1], "--no-autostart", "--socket", sys.argv[2],
                "run", "-q", "--", "true"], stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
tty = open("/proc/%s/stat" % sys.argv[3]).read().rsplit(")", 1)[1].split()[4]
print(tty)
os.write(m, b"\x03")
' "$BIN/sbxctl" "$SOCK" "$DPID")
expect_eq "the daemon took no controlling terminal from the user's pty" \
	"$out" 0
# SIGINT stops the daemon (and every session of the user's) at once.
check "the daemon is still running after a ^C on the user's pty" \
	not wait_exit "$DPID" 5
sbx status >/dev/null 2>&1
expect_eq "the daemon still answers" "$?" 0
done_test
