#!/bin/bash
# --publish [ADDR:]HOSTPORT[:SANDBOXPORT]: a server the sandbox runs on its
# own loopback is opened from the host (curl), IPv4 and IPv6; only the
# served user's connections are relayed (another uid's is closed before
# the sandbox sees it); a port in use is a clear error; the port is freed
# when the run ends; the same for a long-lived sandbox (sandbox create
# --publish); a bad spec is refused.
. "$(dirname "$0")/lib.sh"
command -v curl >/dev/null || skip "curl not installed"
start_daemon
cd "$WS"
# Host services and published ports need a network namespace
# (t-forward-nonetns tests the host without one).
sbx status | grep -Eq '^namespaces: .*\bnet\b' || skip "no network namespace (SBXD_ARGS?)"
mkdir "$WS/www"
echo hello >"$WS/www/hello.txt"
freeport() { # freeport [ADDR]
	"$PY" -c 'import socket, sys
a = sys.argv[1]
s = socket.socket(socket.AF_INET6 if ":" in a else socket.AF_INET)
s.bind((a, 0))
print(s.getsockname()[1])' "${1:-127.0.0.1}"
}
# The sandbox's server: HTTP on its loopback at PORT (ADDR), serving N
# requests then exiting; it says "ready" first and logs each request it
# serves.
cat >"$WS/serve.py" <<'PY'
import functools, http.server, socket, sys
addr, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
class S(http.server.HTTPServer):
    address_family = socket.AF_INET6 if ":" in addr else socket.AF_INET
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        with open("served.log", "a") as f:
            f.write("served %s\n" % self.path)
s = S((addr, port), functools.partial(H, directory="www"))
with open("ready", "w") as f:
    f.write("ready\n")
for _ in range(n):
    s.handle_request()
PY
# Nothing listens at 127.0.0.1:PORT (a server may listen there: the
# relayed connections' TIME_WAIT does not count, as for any server).
port_free() {
	"$PY" -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1)' "$1"
}
: >"$WS/served.log"
served() { grep -c '^served' "$WS/served.log"; }

# The sandbox's server says "ready" in the fifo $WS/ready, which the test
# holds open on fd 7, and bg_run writes "exited RC" there when the command
# ends: a run that fails before its server is up cannot hang the test.
mkfifo "$WS/ready"
exec 7<>"$WS/ready"
bg_run() { # bg_run OUT CMD...: in the background
	local out=$1; shift
	{ "$@" >"$out" 2>&1; echo "exited $?" >&7; } &
}
# next_line WANT: the fifo's next line must be WANT (else the test ends).
next_line() {
	local line
	read -r line <&7
	[ "$line" = "$1" ] && return 0
	cat "$T/run.out" "$T/exec.out" 2>/dev/null
	fail "expected '$1' from the sandbox, got '$line'"
	done_test
}
# run_server SPEC ADDR PORT N: sbx run --publish SPEC of serve.py in the
# background, returning once the server listens.
run_server() {
	bg_run "$T/run.out" sbx run --publish "$1" -- "$PY" serve.py "$2" "$3" "$4"
	next_line ready
}

HP=$(freeport)
run_server "$HP:8000" 127.0.0.1 8000 2
out=$(curl -sS "http://127.0.0.1:$HP/hello.txt" 2>&1)
expect_eq "curl on the host reaches the sandbox's server" "$out" hello
check "an event for the connection" \
	grep -q "published-port 127.0.0.1:$HP:8000: connection to 127.0.0.1:8000\$" "$T/sbxd.log"
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	out=$(setpriv --reuid="${SBX_TEST_USER:-sbxtest}" \
		--regid="${SBX_TEST_USER:-sbxtest}" --clear-groups \
		curl -sS -m 10 "http://127.0.0.1:$HP/hello.txt" 2>&1)
	check "another uid's connection is closed unanswered ($out)" \
		grep -Eq "Empty reply|reset|Recv failure" <<<"$out"
	check "and logged" grep -q "proxy connection refused: it comes from uid $(id -u "${SBX_TEST_USER:-sbxtest}")" "$T/sbxd.log"
	expect_eq "the sandbox's server saw one request" "$(served)" 1
fi
out=$(curl -sS "http://127.0.0.1:$HP/hello.txt" 2>&1)
expect_eq "a second request" "$out" hello
next_line "exited 0"
ok "the run ends when its server does"
expect_eq "the server served two" "$(served)" 2
check "the host port is free again" port_free "$HP"

# The server on the sandbox's ::1 only: the relay tries 127.0.0.1, then ::1.
if "$PY" -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	HP6=$(freeport ::1)
	run_server "[::1]:$HP6:8001" ::1 8001 1
	out=$(curl -sS -g "http://[::1]:$HP6/hello.txt" 2>&1)
	expect_eq "IPv6 on both sides" "$out" hello
	next_line "exited 0"
fi

# A port in use: the run does not start.
start_listener() {
	mkfifo "$T/lready"
	"$PY" -c 'import signal, socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); signal.pause()' >"$T/lready" &
	LPID=$!
	read -r BUSY <"$T/lready"
}
start_listener
out=$(sbx run --publish "$BUSY" -- touch "$WS/ran" 2>&1); rc=$?
expect_eq "port in use: exit 125" "$rc" 125
check "says so ($out)" grep -q "publish 127.0.0.1:$BUSY:$BUSY: cannot listen on the host: Address already in use (another program has that port)" <<<"$out"
check "the command never ran" test ! -e "$WS/ran"
kill "$LPID"

out=$(sbx run --publish 0.0.0.0: -- true 2>&1); rc=$?
expect_eq "bad spec: exit 125" "$rc" 125
check "says why ($out)" grep -q 'publish "0.0.0.0:": no host port' <<<"$out"

# A long-lived sandbox publishes for its life.
HP=$(freeport)
id=$(sbx sandbox create --publish "127.0.0.1:$HP:8002")
check "sandbox ls names the published port" \
	bash -c "sbx sandbox ls | grep -qx '  published 127.0.0.1:$HP:8002'"
bg_run "$T/exec.out" sbx sandbox exec "$id" -- "$PY" serve.py 127.0.0.1 8002 1
next_line ready
out=$(curl -sS "http://127.0.0.1:$HP/hello.txt" 2>&1)
expect_eq "a long-lived sandbox's published port" "$out" hello
next_line "exited 0"
out=$(sbx sandbox exec "$id" --publish 9 -- true 2>&1); rc=$?
check "exec cannot publish ($out)" grep -q "published when it is created" <<<"$out"
sbx sandbox rm "$id"
wait_for "the port freed with the sandbox" port_free "$HP"
stop_daemon
done_test
