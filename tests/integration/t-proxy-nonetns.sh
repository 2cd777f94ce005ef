#!/bin/bash
# Without a network namespace (sbxd --no-netns, as on a host that cannot
# make one): the proxy listens on the host's loopback at two ports of each
# session's own; Landlock lets a sandbox connect to those two only, seccomp
# refuses UDP, other IP protocols, listen() and TCP Fast Open; a second
# session cannot use the first one's ports, directly or through its own
# proxy; a connection from another uid is not served. Exact errnos, and
# what reached the servers.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
P=$BIN/sbx-probe
start_server web http "$T/www"
WEB=$SRV_PORT
start_server other raw
OTHER=$SRV_PORT
start_proxy_daemon '{"network": {
  "allowedDomains": ["127.0.0.1"],
  "deniedDomains": [{"domain": "127.0.0.1:'"$OTHER"'", "id": "no-other",
                     "reason": "the other server is off limits"}],
  "unknownHosts": "deny"}}' "" --no-netns
cd "$WS"
sbx status >"$T/status"
abi=$(sed -n 's/^backend: .*Landlock ABI \([0-9]*\).*/\1/p' "$T/status")
check "no net namespace listed" \
	grep -Eq '^namespaces: +user mnt pid ipc uts$|^namespaces: +mnt pid ipc uts$' "$T/status"
if [ "${abi:-0}" -lt 4 ]; then
	# No Landlock TCP rules: no sound way to confine TCP, so no IP at all.
	check "status: no IP sockets at all" grep -q "^degraded: *no network namespace (sbxd --no-netns) and Landlock ABI ${abi:-0} < 4 (no TCP rules): sandboxes get no IP sockets at all" "$T/status"
	expect_eq "TCP socket refused" "$(sbx run -- "$P" socket 2 1 0)" EPERM
	expect_eq "IPv6 TCP socket refused" "$(sbx run -- "$P" socket 10 1 0)" EPERM
	stop_daemon
	done_test
fi
# The daemon makes each connect() (seccomp user notification, the
# command's socket taken with pidfd_getfd); where it cannot, status says
# that Landlock's rule matches the ports on any address.
mediated=1 made="; connect() made by sbxd"
grep -q "^degraded: *connect() is not made by sbxd" "$T/status" &&
	mediated=0 made=
check "status names the degradation and what it means" grep -qF "no network namespace (sbxd --no-netns): sandboxes share the host's network; TCP only, to their session's two proxy ports only (Landlock$made); no UDP, raw sockets or listening (seccomp)" "$T/status"

read -r H S <<<"$(sbx run -- sh -c 'echo "$HTTP_PROXY $ALL_PROXY"')"
check "HTTP_PROXY is a host loopback port of the session's own ($H)" \
	eval '[[ $H =~ ^http://127\.0\.0\.1:[0-9]+$ && $H != *:3128 ]]'
check "ALL_PROXY too ($S)" eval '[[ $S =~ ^socks5h://127\.0\.0\.1:[0-9]+$ ]]'

# Through the proxy: allowed, and denied with a violation.
out=$(sbx run -- curl -sS "http://127.0.0.1:$WEB/hello.txt")
expect_eq "allowed host through HTTP_PROXY" "$out" hello
out=$(sbx run -- sh -c "curl -sS -x \"\$ALL_PROXY\" http://127.0.0.1:$WEB/hello.txt")
expect_eq "and through ALL_PROXY (SOCKS5)" "$out" hello
expect_eq "the server saw two connections" "$(conns web)" 2
out=$(sbx run -- curl -sS -w '%{http_code}' -o "$WS/body" \
	"http://127.0.0.1:$OTHER/" 2>"$T/err")
expect_eq "denied host: 403" "$out" 403
check "violation names the rule" grep -q "^sbx: blocked network 127.0.0.1:$OTHER (matches deniedDomains; user policy $T/policy.json, rule no-other) — the other server is off limits" "$T/err"

# Around the proxy: Landlock refuses TCP to any other port, seccomp what
# Landlock does not see.
expect_eq "direct connect to a loopback server: EACCES" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$OTHER")" EACCES
expect_eq "the same over IPv6 (v4-mapped): EACCES" \
	"$(sbx run -- "$P" connect ::ffff:127.0.0.1 "$OTHER")" EACCES
expect_eq "TCP Fast Open (sendto MSG_FASTOPEN): EPERM" \
	"$(sbx run -- "$P" fastopen 127.0.0.1 "$OTHER")" EPERM
expect_eq "direct connect to an allowed server: EACCES too" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$WEB" 2>"$T/err")" EACCES
if [ $mediated = 1 ]; then
	check "reported as a network violation" grep -q "^sbx: blocked network 127.0.0.1:$WEB (builtin seccomp deny set, rule seccomp.connect) — only the session's proxy can be connected to" "$T/err"
fi
expect_eq "a blocking connect to its own proxy: ok" \
	"$(sbx run -- sh -c "$P connect 127.0.0.1 \${HTTP_PROXY##*:}")" ok
# Made by a thread that does not lead its process (Go, Java, a libuv pool):
# the daemon still finds the caller (a pidfd of the thread).
expect_eq "the same from a second thread: ok" \
	"$(sbx run -- sh -c "$P connect-thread 127.0.0.1 \${HTTP_PROXY##*:}")" ok
expect_eq "nothing reached the other server" "$(conns other)" 0
expect_eq "nor the allowed one" "$(conns web)" 2
expect_eq "TCP socket allowed" "$(sbx run -- "$P" socket 2 1 0)" ok
expect_eq "UDP socket: EPERM" "$(sbx run -- "$P" socket 2 2 0)" EPERM
expect_eq "UDP IPv6 socket: EPERM" "$(sbx run -- "$P" socket 10 2 0)" EPERM
expect_eq "ICMP (ping) socket: EPERM" "$(sbx run -- "$P" socket 2 2 1)" EPERM
expect_eq "SCTP stream socket: EPERM" "$(sbx run -- "$P" socket 2 1 132)" EPERM
expect_eq "MPTCP socket: EPERM" "$(sbx run -- "$P" socket 10 1 262)" EPERM
expect_eq "raw socket: EPERM" "$(sbx run -- "$P" socket 2 3 6)" EPERM
expect_eq "bind: EACCES" "$(sbx run -- "$P" bind 127.0.0.1 0)" EACCES
expect_eq "listen (no bind needed): EPERM" "$(sbx run -- "$P" listen)" EPERM
if sbx --json status | grep -q '"seccomp_notify": true'; then
	sbx run -- sh -c "$P socket 2 2 0; $P listen" >/dev/null 2>"$T/err"
	check "UDP refusal reported" grep -q "^sbx: blocked syscall socket(AF_INET, SOCK_DGRAM) (builtin seccomp deny set, rule seccomp.ip-socket)" "$T/err"
	check "listen refusal reported" grep -q "^sbx: blocked syscall listen (builtin seccomp deny set, rule seccomp.listen)" "$T/err"
fi

# A second session: neither the first one's ports nor, through its own
# proxy, the first one's proxy (a rule allows all of 127.0.0.1 here). The
# first, once told, tries a server on another loopback address that
# listens on its own proxy port: Landlock would let that through (it
# matches ports); the daemon does not.
mkfifo "$WS/ready" "$WS/go"
sbx run -- sh -c 'echo "$HTTP_PROXY $ALL_PROXY" >ready; read x <go
	'"$P"' connect 127.0.0.2 ${HTTP_PROXY##*:} >far.out; exit 0' \
	2>"$T/first.err" &
FIRST=$!
read -r H1 S1 <"$WS/ready"
p1=${H1##*:}
s1=${S1##*:}
start_server far raw --bind 127.0.0.2 --port "$p1"
read -r H2 <<<"$(sbx run -- sh -c 'echo "$HTTP_PROXY"')"
check "each session has its own ports ($H1, $H2)" test "$H1" != "$H2"
expect_eq "another session's HTTP port: EACCES" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$p1")" EACCES
expect_eq "another session's SOCKS5 port: EACCES" \
	"$(sbx run -- "$P" connect 127.0.0.1 "$s1")" EACCES
out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"http://127.0.0.1:$p1/" 2>"$T/err")
expect_eq "nor through its own proxy: 403" "$out" 403
check "the proxy says why" grep -q "^sbx: blocked network 127.0.0.1:$p1 (is an sbx proxy listener: 127.0.0.1:$p1 serves another session; proxy check)" "$T/err"

# The first session's port, from outside any sandbox: served to its user
# only. Another uid's connection is closed unanswered, forwards nothing.
ask() { # ask PORT: a proxy request for the allowed server; what came back
	"$PY" -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(("GET http://127.0.0.1:%s/hello.txt HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n"
           "Connection: close\r\n\r\n" % (sys.argv[2], sys.argv[2])).encode())
data = b""
try:
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
except ConnectionResetError:
    print("reset"); sys.exit(0)
print(data.split(b"\r\n")[0].decode() if data else "closed")' "$1" "$WEB"
}
n=$(conns web)
expect_eq "the user's own process, unsandboxed: served" "$(ask "$p1")" \
	"HTTP/1.1 200 OK"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		bash -c "$(declare -f ask); PY=$PY WEB=$WEB ask $p1")
	check "another uid: closed unanswered ($out)" \
		eval '[ "$out" = closed ] || [ "$out" = reset ]'
	expect_eq "and nothing was forwarded" "$(conns web)" $((n + 1))
	check "the daemon logged it" grep -q "session [0-9]*: proxy connection refused: it comes from uid $(id -u nobody)" "$T/sbxd.log"
else
	ok "another uid: not tested (needs root to be another user)"
fi
echo >"$WS/go"
wait "$FIRST"
expect_eq "the first session ended well" $? 0
if [ $mediated = 1 ]; then
	expect_eq "its own port on another address: EACCES" \
		"$(cat "$WS/far.out")" EACCES
	expect_eq "and that server saw nothing" "$(conns far)" 0
	check "reported" grep -q "^sbx: blocked network 127.0.0.2:$p1 (builtin seccomp deny set, rule seccomp.connect)" "$T/first.err"
else
	ok "its own port on another address: reachable here (not mediated)"
fi
stop_daemon
done_test
