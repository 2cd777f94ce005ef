#!/bin/bash
# network.parentProxy: allowed names reach the upstream proxy the test
# runs (plain HTTP in absolute form, CONNECT and SOCKS5 as CONNECT, each
# with the policy's credentials); denied and unknown names never reach
# it; noProxy names go direct (and keep the address check); the
# credentials never show inside the sandbox, in events, the daemon's log,
# policy show or describe; a workspace cannot set it; "env" takes the
# daemon's own https_proxy.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
. "$HERE/violations-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
SECRET=s3cr3t-Pw
start_server web http "$T/www"
WEB=$SRV_PORT
start_script up upstreamproxy.py "$T/up.log" --auth "alice:$SECRET" \
	--map a.test=127.0.0.1 --map b.test=127.0.0.1 --map c.test=127.0.0.1
UP=$SRV_PORT
# A direct (noProxy) destination: a server on one of this host's own
# non-loopback addresses, allowed with allowPrivate.
ADDR=$(private_addr)
hosts=
if [ -n "$ADDR" ]; then
	start_server direct http --bind "$ADDR" "$T/www"
	DIRECT=$SRV_PORT
	hosts="$ADDR direct.test"
fi
start_proxy_daemon '{"network": {
  "allowedDomains": ["a.test", "b.test",
    {"domain": "direct.test", "allowPrivate": true}],
  "deniedDomains": [{"domain": "b.test", "id": "no-b"}],
  "parentProxy": {"http": "http://alice:'"$SECRET"'@127.0.0.1:'"$UP"'",
    "noProxy": "direct.test, 10.0.0.0/8"}}}' "$hosts"
cd "$WS"
subscribe ev --json
CURL=(curl -sS -o /dev/null -w '%{http_code}')
lines() { grep -c "$1" "$T/up.log"; }

expect_eq "plain HTTP through the upstream" \
	"$(sbx run -- "${CURL[@]}" "http://a.test:$WEB/hello.txt" 2>"$T/err")" 200
check "... sent in absolute form with the credentials" \
	grep -qx "GET http://a.test:$WEB/hello.txt auth=ok" "$T/up.log"
expect_eq "... and the origin got it from the upstream" "$(conns web)" 1
expect_eq "CONNECT through the upstream" \
	"$(sbx run -- "${CURL[@]}" -p "http://a.test:$WEB/hello.txt" 2>"$T/err")" 200
check "... as CONNECT with the credentials" \
	grep -qx "CONNECT a.test:$WEB auth=ok" "$T/up.log"
expect_eq "SOCKS5 through the upstream" \
	"$(sbx run -- sh -c 'exec curl -sS -o /dev/null -w "%{http_code}" -x "$ALL_PROXY" "$0"' \
	"http://a.test:$WEB/hello.txt" 2>"$T/err")" 200
expect_eq "... as a second CONNECT" "$(lines "^CONNECT a.test:$WEB auth=ok")" 2
# The tunnel check still runs on what goes through: a Host for another
# name is refused before anything of it reaches the upstream's far end.
out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" tunnel a.test "$WEB" \
	'GET / HTTP/1.1\r\nHost: b.test\r\n\r\n' 2>/dev/null)
expect_eq "a tunnel naming another host is closed" "$out" "done 0"

n=$(wc -l <"$T/up.log")
expect_eq "denied: refused" \
	"$(sbx run -- "${CURL[@]}" "http://b.test:$WEB/" 2>/dev/null)" 403
expect_eq "unknown: refused" \
	"$(sbx run -- curl -sS -o /dev/null -w '%{http_connect}' -p "http://c.test:$WEB/" 2>/dev/null)" 403
expect_eq "... neither reached the upstream" "$(wc -l <"$T/up.log")" "$n"
check "... nor was named to it" eval '! grep -q "b\.test\|c\.test" "$T/up.log"'

if [ -n "$ADDR" ]; then
	expect_eq "noProxy: direct" \
		"$(sbx run -- "${CURL[@]}" "http://direct.test:$DIRECT/hello.txt" 2>/dev/null)" 200
	expect_eq "... the server got it" "$(conns direct)" 1
	check "... the upstream never saw it" eval '! grep -q direct.test "$T/up.log"'
else
	echo "note: no private or reserved address here: noProxy not run"
fi

# The credentials: not in the sandbox's environment (the client's own
# https_proxy with them is replaced), /proc, the policy file, events,
# the daemon's log, policy show, describe.
https_proxy="http://alice:$SECRET@127.0.0.1:$UP" sbx run -- sh -c \
	'env; cat /proc/self/environ /proc/1/environ /proc/1/cmdline; cat "$0"' \
	"$T/policy.json" >"$T/inside" 2>&1
check "the sandbox sees no credentials" eval '! grep -q "$SECRET" "$T/inside"'
check "... the policy file holding them is masked" \
	eval '! grep -q parentProxy "$T/inside"'
sbx policy show >"$T/show" 2>&1
check "policy show hides them" eval '! grep -q "$SECRET" "$T/show"'
check "... and shows the upstream" grep -q "http http://\*\*\*@127.0.0.1:$UP" "$T/show"
sbx policy show --json >"$T/show.json" 2>&1
check "policy show --json hides them" eval '! grep -q "$SECRET" "$T/show.json"'
sbx describe >"$T/describe" 2>&1
check "describe has none" eval '! grep -q "$SECRET" "$T/describe"'
stop_sub() { kill "$SUB"; wait "$SUB" 2>/dev/null; }
stop_sub
check "events were seen" grep -q b.test "$T/ev"
check "events have none" eval '! grep -q "$SECRET" "$T/ev"'

# Wrong credentials: the upstream's 407 is the client's answer.
stop_daemon
check "the daemon's log has none" eval '! grep -q "$SECRET" "$T/sbxd.log"'
start_proxy_daemon '{"network": {"allowedDomains": ["a.test"],
  "parentProxy": {"https": "http://alice:Wr0ngPw@127.0.0.1:'"$UP"'"}}}'
expect_eq "wrong credentials: CONNECT refused" \
	"$(sbx run -- curl -sS -o /dev/null -w '%{http_connect}' -p "http://a.test:$WEB/" 2>"$T/err")" 502
sbx run -- "$PY" "$HERE/proxyprobe.py" http \
	"CONNECT a.test:$WEB HTTP/1.1\\r\\nHost: a.test:$WEB\\r\\n\\r\\n" >"$T/err" 2>&1
check "... saying so" grep -q "refused CONNECT a.test:$WEB: status 407" "$T/err"
check "... not quoting them" eval '! grep -q Wr0ngPw "$T/err"'

stop_daemon

# An upstream that never answers CONNECT: the client gets a 504 saying so
# (after the connect timeout, 10 s).
start_script mute upstreamproxy.py "$T/mute.log" --mute 1
start_proxy_daemon '{"network": {"allowedDomains": ["a.test"],
  "parentProxy": {"https": "http://127.0.0.1:'"$SRV_PORT"'"}}}'
sbx run -- "$PY" "$HERE/proxyprobe.py" http \
	"CONNECT a.test:$WEB HTTP/1.1\\r\\nHost: a.test:$WEB\\r\\n\\r\\n" >"$T/err" 2>&1
check "a mute upstream: 504" grep -q "^HTTP/1.1 504" "$T/err"
check "... saying why" grep -q "did not answer CONNECT within 10 s" "$T/err"
check "... after it was asked" grep -qx "CONNECT a.test:$WEB auth=none" "$T/mute.log"

# A workspace layer cannot redirect traffic.
mkdir -p "$WS/.sbx"
printf '%s\n' '{"network": {"parentProxy": {"http": "http://127.0.0.1:9"}}}' \
	>"$WS/.sbx/policy.json"
sbx run -- true 2>"$T/err"
expect_eq "a workspace parentProxy refuses the run" $? 125
check "... saying why" grep -q "a workspace policy cannot redirect traffic" "$T/err"
rm -r "$WS/.sbx"
stop_daemon

# Without a network namespace another session's proxy port is on the
# host's loopback: never an upstream either.
start_proxy_daemon '{"network": {"allowedDomains": ["a.test"]}}' "" --no-netns
mkfifo "$WS/hold"
sbx run -- sh -c 'echo "$HTTP_PROXY" >b-proxy.new && mv b-proxy.new b-proxy &&
	read x <hold' &
held=$!
wait_for "the other session's proxy port" test -s "$WS/b-proxy"
bport=$(sed 's|.*:||' "$WS/b-proxy")
printf '%s\n' '{"network": {"allowedDomains": ["a.test"],
  "parentProxy": {"https": "http://127.0.0.1:'"$bport"'"}}}' >"$T/policy.json"
expect_eq "another session's proxy port as the upstream: refused" \
	"$(sbx run -- sh -c 'exec curl -sS -o /dev/null -w "%{http_connect}" --noproxy "" -p "$0"' \
	"http://a.test:$WEB/" 2>"$T/err")" 403
check "... as an sbx proxy listener" grep -q "is an sbx proxy listener" "$T/err"
echo >"$WS/hold"
wait "$held"
rm -f "$WS/hold" "$WS/b-proxy"
stop_daemon

# "env": the daemon's own https_proxy and no_proxy.
printf '%s\n' '{"network": {"allowedDomains": ["a.test"], "parentProxy": "env"}}' \
	>"$T/policy.json"
https_proxy="http://alice:$SECRET@127.0.0.1:$UP" no_proxy=other.test \
	start_daemon --policy "$T/policy.json"
n=$(lines "^CONNECT a.test:$WEB auth=ok")
expect_eq "env: CONNECT through the daemon's https_proxy" \
	"$(sbx run -- "${CURL[@]}" -p "http://a.test:$WEB/hello.txt" 2>/dev/null)" 200
expect_eq "... with its credentials" "$(lines "^CONNECT a.test:$WEB auth=ok")" $((n + 1))
sbx policy show >"$T/show" 2>&1
check "... policy show says env" grep -q "network.parentProxy: env" "$T/show"
stop_daemon
done_test
