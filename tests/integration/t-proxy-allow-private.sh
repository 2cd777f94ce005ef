#!/bin/bash
# allowPrivate: an allowedDomains rule that says so lets its name resolve
# to a private or reserved address (a --hosts-file entry for one of this
# host's own non-loopback addresses); without it, or from a workspace
# layer, the proxy refuses before connecting and names the rule and key
# that would allow it. Loopback stays closed whatever the rule says.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
# An address of this host that is not public and not loopback.
ADDR=$(private_addr)
[ -n "$ADDR" ] || skip "this host has no private or reserved IPv4 address"
start_server web http --bind "$ADDR" "$T/www"
WEB=$SRV_PORT
start_proxy_daemon '{"network": {"allowedDomains": [
  {"domain": "mirror.test", "allowPrivate": true},
  {"domain": "loop.test", "allowPrivate": true},
  {"domain": "plain.test", "id": "plain"},
  "ws.test"]}}' "$ADDR mirror.test
$ADDR plain.test
$ADDR ws.test
127.0.0.1 loop.test"
cd "$WS"
CURL=(curl -sS -o /dev/null -w '%{http_code}')

expect_eq "allowPrivate: reached at $ADDR" \
	"$(sbx run -- "${CURL[@]}" "http://mirror.test:$WEB/hello.txt" 2>/dev/null)" 200
expect_eq "... the server saw it" "$(conns web)" 1
expect_eq "allowPrivate through a CONNECT tunnel" \
	"$(sbx run -- curl -sS -p -o /dev/null -w '%{http_code}' \
	"http://mirror.test:$WEB/hello.txt" 2>/dev/null)" 200
expect_eq "... the server saw it" "$(conns web)" 2

expect_eq "no allowPrivate: refused" \
	"$(sbx run -- "${CURL[@]}" "http://plain.test:$WEB/hello.txt" 2>"$T/err")" 403
expect_eq "... before connecting" "$(conns web)" 2
check "... the denial says what it resolved to" \
	grep -q "blocked network plain.test:$WEB (resolves to a non-public address: its address is $ADDR " "$T/err"
check "... and names the rule and the key that would allow it" \
	grep -qF "add \"allowPrivate\": true to the rule network.allowedDomains \"plain.test\" id plain" "$T/err"

expect_eq "allowPrivate never opens loopback" \
	"$(sbx run -- "${CURL[@]}" "http://loop.test:$WEB/hello.txt" 2>"$T/err")" 403
check "... said as loopback" grep -q "127.0.0.1 (loopback)" "$T/err"

sbx policy show >"$T/show" 2>&1
check "policy show marks the rule" grep -qx '  mirror.test (allowPrivate)' "$T/show"

# A workspace cannot widen: its allowPrivate is dropped with a warning.
mkdir -p "$WS/.sbx"
printf '%s\n' '{"network": {"allowedDomains": [
  {"domain": "ws.test", "allowPrivate": true}]}}' >"$WS/.sbx/policy.json"
expect_eq "a workspace's allowPrivate is ignored" \
	"$(sbx run -- "${CURL[@]}" "http://ws.test:$WEB/hello.txt" 2>/dev/null)" 403
expect_eq "... nothing reached the server" "$(conns web)" 2
sbx policy check --layer workspace "$WS/.sbx/policy.json" >"$T/check" 2>&1
check "... and policy check says why" \
	grep -q 'workspace network.allowedDomains "ws.test": allowPrivate ignored' "$T/check"
rm -r "$WS/.sbx"
done_test
