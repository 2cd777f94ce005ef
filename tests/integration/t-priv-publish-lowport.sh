#!/bin/bash
# Privileged mode: --publish binds as the served user could. A port below
# the host's ip_unprivileged_port_start is root's to bind: a root daemon
# asked by an unprivileged user for one refuses the run (nothing listens
# on that port on the host), as the user's own daemon would; a port above
# it is published.
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
mkdir -p "$H"
start=$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start)
[ "$start" -gt 1 ] || skip "every port is unprivileged here"
# A free privileged port on the host's loopback.
LOW=$("$PY" -c 'import socket, sys
for p in range(int(sys.argv[1]) - 1, 0, -1):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()' "$start")
[ -n "$LOW" ] || skip "no free port below $start"
mkfifo "$WS/started" "$WS/hold"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
ctl() { as env HOME="$H" "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
# The run's start or its end, whichever comes, is a line on fd 7.
exec 7<>"$WS/started"
{ ctl run --publish "127.0.0.1:$LOW:8000" -- sh -c 'echo started >started; cat hold' \
	>"$T/run.out" 2>&1; echo "exited $?" >&7; } &
read -r line <&7
reach() { "$PY" -c 'import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5).close()
    print("connected")
except OSError as e:
    print(e.__class__.__name__)' "$1"; }
got=$(reach "$LOW")
[ "$line" != started ] || echo >"$WS/hold"
[ "$line" = started ] && read -r line <&7
expect_eq "nothing listens on 127.0.0.1:$LOW on the host" "$got" \
	ConnectionRefusedError
check "the run was refused ($line)" [ "$line" != "exited 0" ]
check "and told why" grep -q "below $start" "$T/run.out"
# An unprivileged port is still published.
HP=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ ctl run --publish "127.0.0.1:$HP:8000" -- sh -c 'echo started >started; cat hold' \
	>"$T/run.out" 2>&1; echo "exited $?" >&7; } &
read -r line <&7
expect_eq "a port from $start up is published" "$line" started
expect_eq "it listens on the host" "$(reach "$HP")" connected
echo >"$WS/hold"
read -r line <&7
expect_eq "that run ends" "$line" "exited 0"
stop_daemon
done_test
