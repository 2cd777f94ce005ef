#!/bin/bash
# The SOCKS5 proxy: CONNECT by name, IPv4 and IPv6 address, denial with
# reply 02 and an event, BIND and UDP ASSOCIATE refused with 07, an
# upstream refusal with 05.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
start_server web http "$T/www"
WEB=$SRV_PORT
start_server denied raw
DENIED=$SRV_PORT
v6=0
if "$PY" -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	start_server web6 http --bind ::1 "$T/www"
	WEB6=$SRV_PORT
	v6=1
fi
# A port nothing listens on, for the refusal.
CLOSED=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_proxy_daemon '{"network": {
  "allowedDomains": ["127.0.0.1:'"$WEB"'", "127.0.0.1:'"$CLOSED"'", "[::1]",
                     "localhost:'"$WEB"'"],
  "deniedDomains": [{"domain": "127.0.0.1:'"$DENIED"'", "id": "socks-denied"}]}}'
cd "$WS"
sp() { sbx run -- "$PY" "$HERE/proxyprobe.py" "$@" 2>/dev/null; }
# curl through the sandbox's SOCKS5 listener (ALL_PROXY's), as SCHEME.
socks() { # socks SCHEME CURL-ARGS...
	sbx run -- sh -c 'p=${ALL_PROXY#socks5h://}; s=$1; shift
		exec curl -sS -x "$s://$p" "$@"' sh "$@"
}

out=$(socks socks5h "http://localhost:$WEB/hello.txt")
expect_eq "CONNECT by domain name (socks5h)" "$out" hello
out=$(socks socks5 "http://127.0.0.1:$WEB/hello.txt")
expect_eq "CONNECT by IPv4 address" "$out" hello
out=$(sbx run -- sh -c "unset HTTP_PROXY http_proxy; \
	curl -sS http://localhost:$WEB/hello.txt")
expect_eq "ALL_PROXY (socks5h) carries what HTTP_PROXY does not" "$out" hello
if [ $v6 = 1 ]; then
	out=$(socks socks5 "http://[::1]:$WEB6/hello.txt")
	expect_eq "CONNECT by IPv6 address" "$out" hello
	expect_eq "the IPv6 server saw it" "$(conns web6)" 1
	out=$(sbx run -- curl -sS "http://[::1]:$WEB6/hello.txt")
	expect_eq "IPv6 literal through the HTTP proxy" "$out" hello
else
	echo "note: no IPv6 loopback here; IPv6 cases not run"
fi

expect_eq "denied name: reply 02" "$(sp socks 1 3 127.0.0.1 "$DENIED")" "rep 2"
expect_eq "denied IPv4: reply 02" "$(sp socks 1 1 127.0.0.1 "$DENIED")" "rep 2"
expect_eq "denied shorthand: reply 02" "$(sp socks 1 3 2130706433 "$DENIED")" "rep 2"
socks socks5h "http://127.0.0.1:$DENIED/" \
	>/dev/null 2>"$T/err"
check "event names the rule" grep -q "^sbx: blocked network 127.0.0.1:$DENIED (matches deniedDomains; user policy $T/policy.json, rule socks-denied)" "$T/err"
expect_eq "nothing reached the denied server" "$(conns denied)" 0
expect_eq "unknown host: reply 02" "$(sp socks 1 3 unknown.test 80)" "rep 2"
expect_eq "BIND refused: 07" "$(sp socks 2 1 127.0.0.1 "$WEB")" "rep 7"
expect_eq "UDP ASSOCIATE refused: 07" "$(sp socks 3 1 0.0.0.0 0)" "rep 7"
expect_eq "upstream refusal: 05" "$(sp socks 1 1 127.0.0.1 "$CLOSED")" "rep 5"
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://127.0.0.1:$CLOSED/" 2>&1)
expect_eq "upstream refusal through HTTP: 502" "$out" 502
stop_daemon
done_test
