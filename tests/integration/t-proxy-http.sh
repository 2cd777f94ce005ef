#!/bin/bash
# The HTTP proxy: absolute-URI forwarding (keep-alive, chunked bodies),
# CONNECT, denials by rule and by default with a 403 and an event naming
# the rule, Host/URI disagreement, IPv4 shorthand, DNS rebinding, and that
# a denied request never reaches the server.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
head -c 300000 /dev/urandom >"$T/www/big.bin"
head -c 8000000 /dev/urandom >"$T/www/huge.bin"
start_server web http "$T/www"
WEB=$SRV_PORT
start_server other http "$T/www"
OTHER=$SRV_PORT
start_proxy_daemon '{"network": {
  "allowedDomains": ["127.0.0.1:'"$WEB"'", "localhost"],
  "deniedDomains": [{"domain": "127.0.0.1:'"$OTHER"'", "id": "no-other",
                     "reason": "the other server is off limits"}],
  "unknownHosts": "deny"}}' "127.0.0.1 rebind.test"
cd "$WS"

out=$(sbx run -- curl -sS "http://127.0.0.1:$WEB/hello.txt")
expect_eq "allowed: forwarded through HTTP_PROXY" "$out" hello
expect_eq "the server saw one connection" "$(conns web)" 1

# Keep-alive: two requests, one upstream connection.
out=$(sbx run -- curl -sS "http://127.0.0.1:$WEB/hello.txt" \
	"http://127.0.0.1:$WEB/hello.txt")
expect_eq "two requests on one connection" "$out" "hello
hello"
expect_eq "keep-alive reused the upstream" "$(conns web)" 2
sum=$(sbx run -- sh -c "curl -sS http://127.0.0.1:$WEB/big.bin | md5sum")
expect_eq "300 KB body intact" "$sum" "$(md5sum <"$T/www/big.bin")"
# Long bodies go by splice; each must end where its length says, and the
# connection must carry the next one.
u="http://127.0.0.1:$WEB/huge.bin"
n=$(conns web)
sums=$(sbx run -- sh -c "curl -sS -m 60 $u $u $u $u $u | md5sum")
want=$(cat "$T/www/huge.bin" "$T/www/huge.bin" "$T/www/huge.bin" \
	"$T/www/huge.bin" "$T/www/huge.bin" | md5sum)
expect_eq "5 x 8 MB on one connection, intact" "$sums" "$want"
expect_eq "... over one upstream connection" "$(conns web)" $((n + 1))
n=$(conns web)
out=$(sbx run -- curl -sS -I "http://127.0.0.1:$WEB/big.bin" \
	"http://127.0.0.1:$WEB/hello.txt" | tr -d '\r' | grep -c '^HTTP/1.[01] 200')
expect_eq "HEAD answers frame the next exchange" "$out" 2
expect_eq "... on one upstream connection" "$(conns web)" $((n + 1))

# Chunked request body, forwarded as it is.
sum=$(sbx run -- sh -c "curl -sS -H 'Transfer-Encoding: chunked' \
	--data-binary @- http://127.0.0.1:$WEB/echo | md5sum" <"$T/www/big.bin")
expect_eq "chunked upload echoed intact" "$sum" "$(md5sum <"$T/www/big.bin")"

# CONNECT: a plain-HTTP tunnel whose Host names the CONNECT host.
out=$(sbx run -- curl -sS -p "http://127.0.0.1:$WEB/hello.txt")
expect_eq "CONNECT tunnel" "$out" hello
# A tunnel copies small answers and splices once bulk flows: a small
# answer, then long ones, on one tunnel, each intact.
sums=$(sbx run -- sh -c "curl -sS -m 60 -p http://127.0.0.1:$WEB/hello.txt \
	$u $u | md5sum")
want=$( (echo hello; cat "$T/www/huge.bin" "$T/www/huge.bin") | md5sum)
expect_eq "small then 2 x 8 MB through one CONNECT tunnel, intact" "$sums" "$want"

# localhost is allowed by name and reaches loopback.
out=$(sbx run -- curl -sS "http://localhost:$WEB/hello.txt")
expect_eq "localhost by name" "$out" hello

# Denied by a rule: 403 with the reason, an event on stderr, no connection.
n=$(conns other)
out=$(sbx run -- curl -sS -w '%{http_code}' -o "$WS/body" \
	"http://127.0.0.1:$OTHER/hello.txt" 2>"$T/err")
expect_eq "denied by rule: 403" "$out" 403
check "403 body names the rule" grep -q 'deniedDomains "127.0.0.1:'"$OTHER"'" id no-other' "$WS/body"
check "event line on stderr" grep -q "^sbx: blocked network 127.0.0.1:$OTHER (matches deniedDomains; user policy $T/policy.json, rule no-other) — the other server is off limits" "$T/err"
out=$(sbx run -- curl -sS -p -o /dev/null -w '%{http_connect}' \
	"http://127.0.0.1:$OTHER/" 2>/dev/null)
expect_eq "denied CONNECT: 403" "$out" 403
expect_eq "nothing reached the denied server" "$(conns other)" "$n"

# Not in allowedDomains, unknownHosts deny.
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://unknown.test:$WEB/" 2>"$T/err")
expect_eq "unknown host: 403" "$out" 403
check "event names unknownHosts" grep -q "user policy $T/policy.json, rule network.unknownHosts \"deny\"" "$T/err"

# The Host field must agree with the URI.
n_other=$(conns other)
n=$(conns web)
out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" http \
	"GET http://127.0.0.1:$WEB/hello.txt HTTP/1.1\r\nHost: evil.test\r\n\r\n" 2>/dev/null)
check "Host mismatch: 403 ($out)" grep -q '^HTTP/1.1 403 .*Host field names another host' <<<"$out"
expect_eq "Host mismatch reached nobody" "$(conns web)" "$n"

# Names some servers fold to framing fields ('_' read as '-') are
# refused, not forwarded as ordinary fields beside the real framing.
# So are the framing irregularities servers resolve differently.
for f in "Content_Length: 5=field name" "Transfer_Encoding: chunked=field name" \
	"content_length: 5=field name" \
	"Content-Length: 5\r\nContent_Length: 0=field name" \
	"Content-Length : 5=before ':'" "X: a\r\n Content-Length: 5=folding" \
	"Content-Length: 5\r\nContent-Length: 6=duplicate Content-Length" \
	"Content-Length: 5\r\nTransfer-Encoding: chunked=both"; do
	out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" http \
		"POST http://127.0.0.1:$WEB/echo HTTP/1.1\r\nHost: 127.0.0.1:$WEB\r\n${f%=*}\r\n\r\nhello" 2>/dev/null)
	check "${f%=*}: 400 ($out)" grep -q "^HTTP/1.1 400 .*${f#*=}" <<<"$out"
done
expect_eq "framing look-alikes reached nobody" "$(conns web)" "$n"

# IPv4 shorthand is the same address as the rule that denies it.
for h in 2130706433 0x7f.1 127.1 0177.0.0.1; do
	out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" http \
		"GET http://$h:$OTHER/ HTTP/1.1\r\nHost: $h:$OTHER\r\n\r\n" 2>/dev/null)
	check "shorthand $h denied ($out)" grep -q "^HTTP/1.1 403 .*blocked 127.0.0.1:$OTHER" <<<"$out"
done
out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" http \
	"GET http://2130706433:$WEB/hello.txt HTTP/1.1\r\nHost: 2130706433:$WEB\r\nConnection: close\r\n\r\n" 2>/dev/null)
expect_eq "shorthand of an allowed address allowed" "$out" "HTTP/1.1 200 OK hello"
expect_eq "and no shorthand reached the denied server" "$(conns other)" "$n_other"

# DNS rebinding: a name (any name) that resolves to loopback is refused
# unless a rule names the address; 127.0.0.1:$WEB is named, the port
# $OTHER is not.
n=$(conns web)
out=$(sbx run --allow-domain rebind.test -- curl -sS -o /dev/null \
	-w '%{http_code}' "http://rebind.test:$WEB/" 2>"$T/err")
expect_eq "request layer cannot widen: rebind.test unknown" "$out" 403
stop_daemon
start_proxy_daemon '{"network": {"allowedDomains": ["rebind.test", "*.rebind.test"]}}' \
	"127.0.0.1 rebind.test sub.rebind.test"
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://rebind.test:$WEB/" 2>"$T/err")
expect_eq "rebinding to loopback refused" "$out" 403
check "event says why (address check)" grep -q "(resolves to a non-public address: its address is 127.0.0.1 (loopback); address check)" "$T/err"
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://sub.rebind.test:$WEB/" 2>/dev/null)
expect_eq "wildcard rule does not open loopback" "$out" 403
expect_eq "rebinding reached nobody" "$(conns web)" "$n"

# Without the proxy there is no way out at all.
sbx run -- curl -sS --noproxy '*' --max-time 5 "http://127.0.0.1:$WEB/" \
	>/dev/null 2>&1
check "direct connection fails" test $? -ne 0
expect_eq "direct connection reached nobody" "$(conns web)" "$n"
stop_daemon
done_test
