#!/bin/bash
# network.hostServices: a service on the host's loopback is reached inside
# the sandbox at the same address (bytes relayed both ways, psql to a real
# postgres), each connection an event naming the rule's id; every other
# port of the host's loopback stays out of reach, directly (the sandbox's
# own loopback) and through the proxy (403 whose remedy names the key);
# a workspace policy cannot add one; describe and policy show list them.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
P=$BIN/sbx-probe
start_server db dump
DB=$SRV_PORT
start_server other dump
OTHER=$SRV_PORT
v6=0
if "$PY" -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	start_server db6 dump --bind ::1
	DB6=$SRV_PORT
	v6=1
fi
svc6=
[ $v6 = 1 ] && svc6=', {"service": "[::1]:'"$DB6"'", "id": "db6"}'
start_proxy_daemon '{"network": {"allowedDomains": ["example.com"],
  "hostServices": [{"service": "localhost:'"$DB"'", "id": "db",
                    "reason": "the test database"}'"$svc6"'],
  "unknownHosts": "deny"}}'
cd "$WS"
# Host services and published ports need a network namespace
# (t-forward-nonetns tests the host without one).
sbx status | grep -Eq '^namespaces: .*\bnet\b' || skip "no network namespace (SBXD_ARGS?)"
cat >"$WS/client.py" <<'PY'
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(sys.argv[3].encode())
s.shutdown(socket.SHUT_WR)
print("closed" if s.recv(16) == b"" else "data")
PY

bc() { "$PY" "$HERE/brokerclient.py" "$SOCK" "$WS" "$@"; }
bc lifecycle 1 >"$T/life" 2>&1 &
LIFE=$!
wait_for "the lifecycle subscription" grep -qs '^subscribed' "$T/life"
out=$(sbx run -- "$PY" client.py 127.0.0.1 "$DB" ping-v4 2>&1)
expect_eq "the sandbox's 127.0.0.1:$DB reaches the host's ($out)" "$out" closed
check "the host's service got the bytes" grep -qx "data ping-v4" "$T/db.log"
wait "$LIFE"
check "the connection is an event naming the rule's id ($(cat "$T/life"))" \
	grep -qx "forwarded id=3 kind=host-service rule=db target=127.0.0.1:$DB error=" "$T/life"
check "and a log line" \
	grep -q "host-service db: connection to 127.0.0.1:$DB\$" "$T/sbxd.log"
if [ $v6 = 1 ]; then
	out=$(sbx run -- "$PY" client.py ::1 "$DB6" ping-v6 2>&1)
	expect_eq "[::1]:$DB6 too ($out)" "$out" closed
	check "the host's IPv6 service got the bytes" grep -qx "data ping-v6" "$T/db6.log"
	check "event for db6" grep -q "host-service db6: connection to \[::1\]:$DB6\$" "$T/sbxd.log"
fi

# Nothing else of the host's loopback: the sandbox's own loopback has
# nothing at the other port, and the proxy refuses it.
expect_eq "another host port is not there" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$OTHER")" ECONNREFUSED
expect_eq "nor another loopback address at the service's port" \
	"$(sbx run -- "$P" connect 127.0.0.2 "$DB")" ECONNREFUSED
out=$(sbx run -- curl -sS -x http://127.0.0.1:3128 -w '%{http_code}' -o /dev/null \
	"http://127.0.0.1:$OTHER/" 2>"$T/err")
expect_eq "through the proxy: 403" "$out" 403
check "the remedy names network.hostServices" grep -q "network.hostServices" "$T/err"
expect_eq "the other server got nothing" "$(conns other)" 0
expect_eq "the service one connection" "$(conns db)" 1

# A workspace layer only narrows: it cannot expose a host service.
mkdir -p "$WS/.sbx"
printf '{"network": {"hostServices": ["127.0.0.1:%s"]}}\n' "$OTHER" >"$WS/.sbx/policy.json"
expect_eq "a workspace's hostServices exposes nothing" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$OTHER")" ECONNREFUSED
expect_eq "the other server still got nothing" "$(conns other)" 0
rm -r "$WS/.sbx"

out=$(sbx describe)
check "describe lists the host services ($out)" \
	grep -q "Host services reachable at the same address.*localhost:$DB" <<<"$out"
out=$(sbx policy show --json)
check "policy show too" "$PY" -c '
import json, sys
r = json.loads(sys.argv[1])["network"]["hostServices"]
assert any(x["service"] == "localhost:" + sys.argv[2] and x["id"] == "db" for x in r), r
' "$out" "$DB"

# psql to a postgres on the host's loopback (TCP), as the issue asks.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -x "${PGBIN:-}/initdb" ] && command -v psql >/dev/null; then
	pg() { "$@"; }
	if [ "$(id -u)" -eq 0 ]; then
		# initdb refuses root: the cluster is the test user's.
		id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1 || pg=skip
		pg() { setpriv --reuid="${SBX_TEST_USER:-sbxtest}" \
			--regid="${SBX_TEST_USER:-sbxtest}" --init-groups "$@"; }
	fi
	if [ "${pg:-}" != skip ]; then
		PGPORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
		mkdir "$T/pg"
		chmod 777 "$T/pg"
		pg "$PGBIN/initdb" -N -A trust -U postgres -D "$T/pg/data" >/dev/null
		pg "$PGBIN/pg_ctl" -D "$T/pg/data" -l "$T/pg/log" -w -o \
			"-k $T/pg -c listen_addresses=127.0.0.1 -p $PGPORT" start >/dev/null
		stop_daemon
		start_proxy_daemon '{"network": {"hostServices": [{"service": "localhost:'"$PGPORT"'", "id": "pg"}]}}'
		out=$(sbx run -- psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -Atc 'select 40 + 2' 2>&1)
		expect_eq "psql in the sandbox to the host's postgres" "$out" 42
		check "its event" grep -q "host-service pg: connection to 127.0.0.1:$PGPORT\$" "$T/sbxd.log"
		pg "$PGBIN/pg_ctl" -D "$T/pg/data" -w -m immediate stop >/dev/null
	fi
fi
stop_daemon
done_test
