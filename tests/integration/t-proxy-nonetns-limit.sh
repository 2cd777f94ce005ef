#!/bin/bash
# A host where no network namespace can be made, for real: sbxd runs in a
# user namespace whose user.max_net_namespaces is 0 (nonetns.py), so its
# own probe fails (ENOSPC) while user namespaces still work. It says so in
# status and confines the network as with --no-netns: the proxy works, a
# direct connection fails with EACCES and reaches nothing, UDP is EPERM.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
"$PY" "$HERE/nonetns.py" true 2>/dev/null ||
	skip "cannot make a user namespace to limit"
P=$BIN/sbx-probe
start_server web http "$T/www"
WEB=$SRV_PORT
start_server other raw
OTHER=$SRV_PORT
SBXD_WRAP="$PY $HERE/nonetns.py" start_proxy_daemon '{"network": {
  "allowedDomains": ["127.0.0.1:'"$WEB"'"], "unknownHosts": "deny"}}'
cd "$WS"
sbx status >"$T/status"
grep -q 'Landlock ABI [4-9]' "$T/status" ||
	skip "Landlock ABI < 4: t-proxy-nonetns covers that case"
check "status: the probe's own reason, whole" grep -q "^degraded: *no network namespace (cannot make one: unshare(.*CLONE_NEWNET): No space left on device, user.max_net_namespaces): sandboxes share the host's network; .* (seccomp)$" "$T/status"
check "no net namespace listed" grep -Eq '^namespaces: +user mnt pid ipc uts$' "$T/status"
out=$(sbx run -- curl -sS "http://127.0.0.1:$WEB/hello.txt")
expect_eq "allowed host through the proxy" "$out" hello
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://127.0.0.1:$OTHER/" 2>"$T/err")
expect_eq "another host: 403" "$out" 403
check "with a violation" grep -q "^sbx: blocked network 127.0.0.1:$OTHER (not in allowedDomains; user policy $T/policy.json, rule network.unknownHosts \"deny\")" "$T/err"
expect_eq "direct connect: EACCES" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$OTHER")" EACCES
expect_eq "nothing reached the other server" "$(conns other)" 0
expect_eq "UDP socket: EPERM" "$(sbx run -- "$P" socket 2 2 0)" EPERM
expect_eq "the sandbox shares the daemon's network namespace" \
	"$(sbx run -- readlink /proc/self/ns/net)" \
	"$(readlink "/proc/$DPID/ns/net")"
stop_daemon
done_test
