#!/bin/bash
# Privileged mode (a root daemon serving the test user): a published port
# relays the served user's connections only; root's own is closed before
# the sandbox sees it, though root runs the daemon that listens. A host
# service listed by the user's policy is reached at its address, and no
# other host port.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
need_served_user
command -v curl >/dev/null || skip "curl not installed"
H=$T/home
mkdir -p "$H" "$WS/www"
echo hello >"$WS/www/hello.txt"
cat >"$WS/serve.py" <<'PY'
import functools, http.server, sys
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        with open("served.log", "a") as f:
            f.write("served %s\n" % self.path)
s = http.server.HTTPServer(("127.0.0.1", 8000),
                           functools.partial(H, directory="www"))
with open("ready", "w") as f:
    f.write("ready\n")
s.handle_request()
PY
: >"$WS/served.log"
mkfifo "$WS/ready"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
ctl() { as env HOME="$H" "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_server db dump
DB=$SRV_PORT
start_server other dump
OTHER=$SRV_PORT
printf '{"network": {"hostServices": [{"service": "127.0.0.1:%s", "id": "db"}]}}\n' \
	"$DB" >"$T/policy.json"
start_daemon --user "$user" --home "$H" --policy "$T/policy.json"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
out=$(ctl run -- "$PY" -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"as-user"); s.shutdown(socket.SHUT_WR); print(s.recv(9) == b"")' "$DB" 2>&1)
expect_eq "the host service from the served user's sandbox ($out)" "$out" True
check "the service got the bytes" grep -qx "data as-user" "$T/db.log"
expect_eq "another host port is not there" \
	"$(ctl run -- "$BIN/sbx-probe" connect 127.0.0.1 "$OTHER")" ECONNREFUSED
expect_eq "the other server got nothing" "$(conns other)" 0
HP=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The fifo held open here (fd 7): the run's end is a line there too, so a
# run that fails before its server is up cannot hang the test.
exec 7<>"$WS/ready"
{ ctl run --publish "$HP:8000" -- "$PY" serve.py >"$T/run.out" 2>&1
  echo "exited $?" >&7; } &
read -r line <&7
[ "$line" = ready ] || { cat "$T/run.out"; fail "server: $line"; done_test; }
out=$(curl -sS -m 10 "http://127.0.0.1:$HP/hello.txt" 2>&1)
check "root's connection is closed unanswered ($out)" \
	grep -Eq "Empty reply|reset|Recv failure" <<<"$out"
check "and logged" grep -q "proxy connection refused: it comes from uid 0" "$T/sbxd.log"
expect_eq "the sandbox's server saw nothing" "$(grep -c served "$WS/served.log")" 0
out=$(as curl -sS -m 10 "http://127.0.0.1:$HP/hello.txt" 2>&1)
expect_eq "the served user's connection reaches it" "$out" hello
read -r line <&7
expect_eq "the run ends with its server" "$line" "exited 0"
stop_daemon
done_test
