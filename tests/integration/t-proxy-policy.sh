#!/bin/bash
# Where the proxy's policy comes from and what the command is told: the
# sbxd --policy user layer, narrowed by run --policy and --allow-domain;
# bad policies refused with their location; no policy, no network; the
# proxy variables, overriding the client's own.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
start_server web http "$T/www"
WEB=$SRV_PORT
start_server two http "$T/www"
TWO=$SRV_PORT
cd "$WS"
code() { sbx run "$@" 2>/dev/null; }
CURL=(curl -sS -o /dev/null -w '%{http_code}')

# No policy at all: nothing is allowed.
start_daemon
expect_eq "no policy: denied" "$(code -- "${CURL[@]}" "http://127.0.0.1:$WEB/")" 403
out=$(sbx run --allow-domain "127.0.0.1:$WEB" -- "${CURL[@]}" \
	"http://127.0.0.1:$WEB/" 2>/dev/null)
expect_eq "a request layer alone grants nothing" "$out" 403
stop_daemon

start_proxy_daemon '{"network": {"allowedDomains": ["127.0.0.1"]}}'
expect_eq "user layer allows" "$(code -- "${CURL[@]}" "http://127.0.0.1:$WEB/")" 200
expect_eq "--allow-domain narrows to one port: in" \
	"$(code --allow-domain "127.0.0.1:$WEB" -- "${CURL[@]}" "http://127.0.0.1:$WEB/")" 200
expect_eq "--allow-domain narrows to one port: out" \
	"$(code --allow-domain "127.0.0.1:$WEB" -- "${CURL[@]}" "http://127.0.0.1:$TWO/")" 403
printf '%s\n' '{"network": {"deniedDomains": [{"domain": "127.0.0.1:'"$TWO"'",
  "id": "req-deny", "reason": "denied by the request"}]}}' >"$WS/req.json"
expect_eq "--policy file adds a denial" \
	"$(code --policy req.json -- "${CURL[@]}" "http://127.0.0.1:$TWO/")" 403
sbx run --policy req.json -- "${CURL[@]}" "http://127.0.0.1:$TWO/" 2>"$T/err" >/dev/null
check "... reported with its file and layer" grep -q "(network.deniedDomains \"127.0.0.1:$TWO\" id req-deny, request policy $WS/req.json: matches deniedDomains) — denied by the request" "$T/err"
expect_eq "--policy leaves the rest" \
	"$(code --policy req.json -- "${CURL[@]}" "http://127.0.0.1:$WEB/")" 200

printf '{"network": {"allowedDomains": [\n  "a b"]}}\n' >"$WS/bad.json"
sbx run --policy bad.json -- true 2>"$T/err"
expect_eq "bad --policy refused" $? 125
check "... with file:line:col" grep -q "$WS/bad.json:2:3: error" "$T/err"
sbx run --allow-domain 'http://x/' -- true 2>"$T/err"
expect_eq "bad --allow-domain refused" $? 125
check "... saying which" grep -q -- '--allow-domain: error: network.allowedDomains "http://x/"' "$T/err"

# The environment.
out=$(sbx run -e HTTP_PROXY=http://elsewhere:1 -e no_proxy=localhost \
	-e GIT_CONFIG_COUNT=1 -e GIT_CONFIG_KEY_0=user.name \
	-e GIT_CONFIG_VALUE_0=t -e JAVA_TOOL_OPTIONS=-Xmx64m -- env)
for want in HTTP_PROXY=http://127.0.0.1:3128 http_proxy=http://127.0.0.1:3128 \
	HTTPS_PROXY=http://127.0.0.1:3128 https_proxy=http://127.0.0.1:3128 \
	ALL_PROXY=socks5h://127.0.0.1:1080 all_proxy=socks5h://127.0.0.1:1080 \
	NO_PROXY= no_proxy= PIP_PROXY=http://127.0.0.1:3128 \
	npm_config_proxy=http://127.0.0.1:3128 GRPC_PROXY=http://127.0.0.1:3128 \
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_KEY_1=http.proxy \
	GIT_CONFIG_VALUE_1=http://127.0.0.1:3128 CLOUDSDK_PROXY_PORT=3128 \
	DOCKER_HTTPS_PROXY=http://127.0.0.1:3128; do
	check "env has $want" grep -qxF "$want" <<<"$out"
done
check "JAVA_TOOL_OPTIONS keeps the client's, then the proxy" \
	grep -qx 'JAVA_TOOL_OPTIONS=-Xmx64m -Dhttp.proxyHost=127.0.0.1 .*' <<<"$out"
expect_eq "the client's proxy is replaced, once" "$(grep -ci '^http_proxy=' <<<"$out")" 2
expect_eq "no loopback hole in NO_PROXY" \
	"$(grep -ic '^no_proxy=.*\(localhost\|127\|::1\)' <<<"$out")" 0
if command -v git >/dev/null; then
	expect_eq "git sees http.proxy" \
		"$(sbx run -- git config --get http.proxy)" http://127.0.0.1:3128
fi
stop_daemon

# A broken user layer stops sbxd from starting, with the reason.
printf '{"network": {"unknownHosts": "maybe"}}\n' >"$T/broken.json"
"$BIN/sbxd" --socket "$T/other.sock" --policy "$T/broken.json" 2>"$T/err"
check "sbxd refuses a bad --policy" test $? -ne 0
check "... naming the place" grep -q "$T/broken.json:1:" "$T/err"
done_test
