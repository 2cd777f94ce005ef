#!/bin/bash
# Unix sockets inside the sandbox: a server and client in /tmp, in the
# workspace (by a relative path too) and at an abstract name work;
# python's multiprocessing.Manager and tmux work. Sockets outside the
# sandbox (a host listener, the daemon's) stay unreachable, and the host
# listener receives nothing, unless network.allowUnixSockets names one.
# Datagram Unix sockets stay refused (a send names its address in memory
# the filter cannot read).
. "$(dirname "$0")/lib.sh"
case " ${SBXD_ARGS:-} " in
*" --landlock-only "* | *" --no-netns "*) netns=0 ;;
*) netns=1 ;;
esac
P=$BIN/sbx-probe
cd "$WS"
cp "$HERE/unixpair.py" "$WS/unixpair.py"
host_listen "sbx-us-$$"
trap 'kill "$LPID" 2>/dev/null; cleanup' EXIT
start_daemon
sbx --json describe >"$T/describe.json"
unix=$("$PY" -c 'import json,sys; print(1 if json.load(open(sys.argv[1]))["unix_sockets"] == "sandbox" else 0)' "$T/describe.json")
if [ $netns = 0 ] || [ "$unix" = 0 ]; then
	# No network namespace (abstract names would be the host's) or no
	# supervisor to make the connects: refused, and said.
	expect_eq "AF_UNIX refused here" "$(sbx run -q -- "$P" unix-socket)" EPERM
	check "describe says Unix sockets are refused and why" \
		grep -q 'Unix sockets: refused' <(sbx describe)
	stop_daemon
	done_test
fi

expect_eq "server and client in /tmp" \
	"$(sbx run -q -- "$PY" unixpair.py /tmp/s.sock)" HELLO
expect_eq "server and client in the workspace" \
	"$(sbx run -q -- "$PY" unixpair.py "$WS/s.sock")" HELLO
mkdir "$WS/sub"
expect_eq "... by a path relative to the cwd" \
	"$(sbx run -q -C "$WS/sub" -- "$PY" ../unixpair.py rel.sock)" HELLO
expect_eq "server and client at an abstract name" \
	"$(sbx run -q -- "$PY" unixpair.py @sbx-us-inside)" HELLO
# The supervisor makes every connect(), TCP included: blocking, and
# non-blocking (EINPROGRESS, then writable).
out=$(sbx run -q -- "$PY" -c '
import errno, select, socket
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(4)
a = socket.create_connection(srv.getsockname())
b = socket.socket(); b.setblocking(False)
e = b.connect_ex(srv.getsockname())
select.select([], [b], [], 10)
print(errno.errorcode.get(e, e), b.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))
c = socket.socket(socket.AF_UNIX); c.setblocking(False)
print(errno.errorcode.get(c.connect_ex("/tmp/none.sock")))' 2>&1)
expect_eq "TCP in the sandbox, blocking and not; a missing socket" "$out" "EINPROGRESS 0
ENOENT"
out=$(sbx run -q -- "$PY" -c '
from multiprocessing import Manager
with Manager() as m:
    d = m.dict(); d["k"] = 42; print(d["k"])' 2>&1)
expect_eq "multiprocessing.Manager" "$out" 42
if command -v tmux >/dev/null; then
	# The server (forked by new-session) and each client meet at a
	# socket in /tmp; the window is a pty of the sandbox's own.
	cat >"$WS/tmux.sh" <<'SH'
tmux -L t new-session -d -x 80 -y 20 sh || exit 1
# The keys may arrive before the shell's prompt: the output is found in
# the pane, not the typed line (which shows $((...)) unexpanded).
tmux -L t send-keys 'echo sbx-$((6*7))' Enter
i=0
while [ $i -lt 3000 ] && ! tmux -L t capture-pane -p | grep -q sbx-42; do
	i=$((i + 1)); sleep 0.01
done
# On failure, what the pane shows, for the log.
tmux -L t capture-pane -p | grep -o sbx-42 || tmux -L t capture-pane -p
tmux -L t kill-server
SH
	out=$(sbx run -q -- sh tmux.sh 2>&1)
	expect_eq "tmux new-session, send-keys, capture-pane" "$out" sbx-42
else
	ok "SKIP tmux: not installed"
fi

# Outside the sandbox: refused (EACCES), reported; the listener got
# nothing. The daemon's socket is masked (a device node: ECONNREFUSED,
# or gone with its directory: ENOENT).
expect_eq "connect to a host Unix socket" \
	"$(sbx run -q -- "$P" unix-stream "$T/out/host.sock")" EACCES
out=$(sbx run -- "$P" unix-stream "$T/out/host.sock" 2>&1)
check "... reported with the socket's path ($out)" grep -q "$T/out/host.sock" <<<"$out"
ln -s "$T/out/host.sock" "$WS/link.sock"
expect_eq "... through a link in the workspace" \
	"$(sbx run -q -- "$P" unix-stream "$WS/link.sock")" EACCES
expect_eq "datagram Unix socket refused" \
	"$(sbx run -q -- "$P" unix-dgram "$T/out/host-d.sock")" EPERM
expect_eq "host abstract name is not the sandbox's" \
	"$(sbx run -q -- "$P" unix-stream "@sbx-us-$$")" ECONNREFUSED
d=$(sbx run -q -- "$P" connect-unix "$SOCK")
check "connect to the daemon's socket refused ($d)" \
	grep -Eqx 'ENOENT|ECONNREFUSED|EACCES' <<<"$d"
# A thread swapping the address while the connect waits gains nothing:
# the supervisor connects what it read once.
"$PY" "$HERE/hostlisten.py" --settle "$UDP"
check "the host listener got nothing" test ! -s "$T/listen.log"

# allowUnixSockets names the host socket: connected.
cat >"$T/pol.json" <<JSON
{"network": {"allowUnixSockets": ["$T/out/host.sock"]}}
JSON
stop_daemon
start_daemon --policy "$T/pol.json"
expect_eq "allowUnixSockets lets the named socket through" \
	"$(sbx run -q -- "$P" unix-stream "$T/out/host.sock")" ok
"$PY" "$HERE/hostlisten.py" --settle "$UDP"
check "... and the listener saw it" grep -q unix-stream "$T/listen.log"
sbx describe >"$T/describe.txt"
check "describe names the allowed socket" grep -q "$T/out/host.sock" "$T/describe.txt"
stop_daemon
done_test
