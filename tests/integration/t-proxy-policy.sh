#!/bin/bash
# Where the proxy's policy comes from and what the command is told: the
# session's effective policy (the sbxd --policy user layer here), narrowed
# by run --policy and --allow-domain; bad policies refused with their
# location; without a user policy the shipped defaults, which do not allow
# loopback; the proxy variables, overriding the client's own.
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

# No user policy: the shipped defaults (registries only; others asked,
# and sbxctl has no terminal here to ask on).
start_daemon
expect_eq "defaults: denied" "$(code -- "${CURL[@]}" "http://127.0.0.1:$WEB/")" 403
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
check "... reported with its file and layer" grep -q "(matches deniedDomains; request policy $WS/req.json, rule req-deny) — denied by the request" "$T/err"
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
# In a network namespace of its own the sandbox's proxy is at fixed ports;
# without one (SBXD_ARGS=--no-netns) at two ports of its session's own.
hp=$(sed -n 's|^HTTP_PROXY=http://127\.0\.0\.1:\([0-9]*\)$|\1|p' <<<"$out")
sp=$(sed -n 's|^ALL_PROXY=socks5h://127\.0\.0\.1:\([0-9]*\)$|\1|p' <<<"$out")
case " ${SBXD_ARGS:-} " in
*" --no-netns "*) check "ports of the session's own ($hp $sp)" test "$hp" != 3128 ;;
*) expect_eq "the proxy's fixed ports" "$hp $sp" "3128 1080" ;;
esac
for want in HTTP_PROXY=http://127.0.0.1:$hp http_proxy=http://127.0.0.1:$hp \
	HTTPS_PROXY=http://127.0.0.1:$hp https_proxy=http://127.0.0.1:$hp \
	ALL_PROXY=socks5h://127.0.0.1:$sp all_proxy=socks5h://127.0.0.1:$sp \
	NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1 PIP_PROXY=http://127.0.0.1:$hp \
	npm_config_proxy=http://127.0.0.1:$hp GRPC_PROXY=http://127.0.0.1:$hp \
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_KEY_1=http.proxy \
	GIT_CONFIG_VALUE_1=http://127.0.0.1:$hp CLOUDSDK_PROXY_PORT=$hp \
	DOCKER_HTTPS_PROXY=http://127.0.0.1:$hp; do
	check "env has $want" grep -qxF "$want" <<<"$out"
done
# Java: in a network namespace the JDKs' net.properties name the proxy
# (t-java-quiet) and the client's JAVA_TOOL_OPTIONS passes as it is;
# without one the session's ports follow it there.
case " ${SBXD_ARGS:-} " in
*" --no-netns "*)
	check "JAVA_TOOL_OPTIONS keeps the client's, then the proxy" \
		grep -qx 'JAVA_TOOL_OPTIONS=-Xmx64m -Dhttp.proxyHost=127.0.0.1 .*' <<<"$out" ;;
*)	check "JAVA_TOOL_OPTIONS is the client's" \
		grep -qx 'JAVA_TOOL_OPTIONS=-Xmx64m' <<<"$out" ;;
esac
expect_eq "the client's proxy is replaced, once" "$(grep -ci '^http_proxy=' <<<"$out")" 2
expect_eq "NO_PROXY is loopback only, the client's replaced" \
	"$(grep -ic '^no_proxy=' <<<"$out")" 2
check "Java keeps its default nonProxyHosts (loopback)" \
	eval '! grep -q "nonProxyHosts" <<<"$out"'
if command -v git >/dev/null; then
	expect_eq "git sees http.proxy, HTTP_PROXY's" "$(sbx run -- sh -c \
		'echo "$(git config --get http.proxy) $HTTP_PROXY"' |
		awk '$1 == $2 { print $1 }' | grep -c '^http://127\.0\.0\.1:')" 1
fi
stop_daemon

# A broken user layer that never parsed fails every run, with the reason
# (the policy store reads layers per run; sbxd itself starts).
printf '{"network": {"unknownHosts": "maybe"}}\n' >"$T/broken.json"
start_daemon --policy "$T/broken.json"
sbx run -- true 2>"$T/err"
expect_eq "a run under a bad --policy is refused" $? 125
check "... naming the place" grep -q "$T/broken.json:1:" "$T/err"
stop_daemon
done_test
