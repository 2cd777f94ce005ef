#!/bin/bash
# Privileged mode (a root daemon serving the test user): TLS inspection
# with a file credential readable only by the user (read with the user's
# rights, never root's), the CA bundle inside the sandbox, the value at
# the server and not in the sandbox.
. "$(dirname "$0")/lib.sh"
need_served_user
. "$HERE/proxy-lib.sh"
. "$HERE/inspect-lib.sh"
H=$T/home
mkdir -p "$H"
KEY=k-$(head -c 32 /dev/urandom | base64 | tr -dc 'a-z0-9' | head -c 24)
printf '%s\n' "$KEY" >"$H/apikey"
chmod 600 "$H/apikey"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
start_server api http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
API=$SRV_PORT
ctl() { as env HOME="$H" CURL_HOME="$CURL_HOME" "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_proxy_daemon '{"network": {
  "allowedDomains": ["l7.test", "127.0.0.1:'"$API"'"],
  "requestRules": [{"host": "l7.test", "readOnly": true}],
  "credentials": [{"id": "key", "file": "'"$H/apikey"'", "hosts": ["l7.test"],
                   "header": "X-Api-Key"}]},
  "filesystem": {"denyRead": ["'"$H/apikey"'"]}}' "$HOSTS" \
	--user "$user" --home "$H" --upstream-ca "$T/corp.pem"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
out=$(ctl run -- curl -sS "https://l7.test:$API/headers" 2>"$T/err")
check "inspected, trusted with no variable set by the test ($(head -c 200 "$T/err"))" grep -q "^X-Api-Key: k-" <<<"$out"
check "the user's file credential reached the server" grep -qx "key $KEY" "$T/api.log"
check "... and came back redacted" bash -c "! grep -q '$KEY' <<<'$out'"
code=$(ctl run -- curl -sS -o /dev/null -w '%{http_code}' -X POST "https://l7.test:$API/hello.txt" 2>/dev/null)
expect_eq "readOnly refuses POST" "$code" 403
got=$(ctl run -- cat "$H/apikey" 2>/dev/null)
check "the file stays unreadable inside" test "$got" != "$KEY"
stop_daemon
check "the value is not in sbxd's log" bash -c "! grep -aq '$KEY' '$T/sbxd.log'"
done_test
