#!/bin/bash
# TLS inspection, opt-in per host: a host named by network.requestRules is
# terminated with a leaf of sbxd's CA and each request is checked (method
# and path, the rule and layer in the 403 and the event, nothing refused
# reaches the server); every other host stays an opaque tunnel with the
# server's own certificate; the upstream is verified against the system's
# roots plus --upstream-ca; excludeDomains refuses rather than let rules
# go unenforced; a git smart-HTTP server can be cloned but not pushed to.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
. "$HERE/inspect-lib.sh"
command -v git >/dev/null || skip "git not installed"

git init -q --bare "$T/git/repo.git"
git -C "$T/git/repo.git" config http.receivepack true
git init -q "$T/seed" && git -C "$T/seed" -c user.email=t@t -c user.name=t \
	commit -q --allow-empty -m seed && git -C "$T/seed" push -q \
	"$T/git/repo.git" HEAD:refs/heads/main
git -C "$T/git/repo.git" symbolic-ref HEAD refs/heads/main
chmod -R a+rX "$T/git"
refs_before=$(git -C "$T/git/repo.git" show-ref)

start_server web http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
WEB=$SRV_PORT
start_server git git --tls "$T/srv.pem" "$T/srv.key" "$T/git"
GIT=$SRV_PORT
start_server bad http --tls "$T/bad.pem" "$T/bad.key" "$T/www"
BAD=$SRV_PORT
start_server plain http "$T/www"
PLAIN=$SRV_PORT
start_proxy_daemon '{"network": {
  "allowedDomains": ["l7.test", "other.test", "bad.test", "pinned.test",
    "127.0.0.1:'"$WEB"'", "127.0.0.1:'"$GIT"'", "127.0.0.1:'"$BAD"'",
    "127.0.0.1:'"$PLAIN"'"],
  "requestRules": [
    {"host": "l7.test:'"$WEB"'", "readOnly": true, "deny": ["GET /secret*"],
     "id": "web-ro"},
    {"host": "l7.test:'"$GIT"'", "allow": ["GET /*", "POST /*/git-upload-pack"],
     "deny": ["* /*git-receive-pack*"], "id": "clone-only",
     "reason": "pushing is not allowed"},
    {"host": "bad.test", "readOnly": true},
    {"host": "l7.test:'"$PLAIN"'", "readOnly": true},
    {"host": "pinned.test", "readOnly": true}],
  "tls": {"excludeDomains": ["pinned.test"]}}}' \
	"$HOSTS
127.0.0.1 pinned.test" --upstream-ca "$T/corp.pem"
cd "$WS"

out=$(sbx run -- curl -sS -v "https://l7.test:$WEB/hello.txt" 2>"$T/curl.err")
expect_eq "allowed GET through inspection" "$out" hello
check "... served with a leaf of sbx's CA" grep -q "issuer: CN=sbx inspection CA" "$T/curl.err"
check "... for the host" grep -q "subject: CN=l7.test" "$T/curl.err"
check "... the server saw the request" grep -q "^req GET /hello.txt$" "$T/web.log"
check "... over HTTP/1.1 (h2 negotiated down)" grep -q "ALPN: server accepted http/1.1" "$T/curl.err"

# The other host is a tunnel: its certificate is the test CA's, which
# the sandbox does not trust (-k); the inspected ones need no -k.
out=$(sbx run -- curl -sS -k -v "https://other.test:$WEB/hello.txt" 2>"$T/curl.err")
expect_eq "a host no rule names: opaque tunnel" "$out" hello
check "... with the server's own certificate" grep -q "issuer: CN=test corp CA" "$T/curl.err"

n=$(grep -c '^req' "$T/web.log")
code=$(sbx run -- curl -sS -o "$WS/body" -w '%{http_code}' -X DELETE \
	"https://l7.test:$WEB/hello.txt" 2>"$T/err")
expect_eq "DELETE under readOnly: 403" "$code" 403
check "... the body names the rule" grep -q 'network.requestRules "l7.test:'"$WEB"': allow GET,HEAD,OPTIONS \*" id web-ro' "$WS/body"
check "... and the layer" grep -q "DELETE /hello.txt (user layer" "$WS/body"
check "... the event names rule and layer" grep -q "request not allowed by the request rules: DELETE /hello.txt (user layer" "$T/err"
code=$(sbx run -- curl -sS -o "$WS/body" -w '%{http_code}' \
	"https://l7.test:$WEB/secret.txt" 2>"$T/err")
expect_eq "a deny rule for a path: 403" "$code" 403
check "... naming the deny rule" grep -q 'deny GET /secret\*' "$WS/body"
out=$(sbx run -- curl -sS -I -o /dev/null -w '%{http_code}' "https://l7.test:$WEB/hello.txt")
expect_eq "HEAD allowed by readOnly" "$out" 200
expect_eq "refused requests never reached the server" "$(grep -c '^req' "$T/web.log")" $((n + 1))

# Keep-alive: the second request on the connection is checked too.
out=$(sbx run -- curl -sS -o /dev/null -o /dev/null -w '%{http_code} ' \
	"https://l7.test:$WEB/hello.txt" "https://l7.test:$WEB/secret.txt" 2>/dev/null)
expect_eq "each request of a kept-alive connection is decided" "$out" "200 403 "

# Paths are decided as the server reads them: percent-encoded letters
# decoded, and a dot segment (which servers resolve, past an allowed
# prefix or around a denied one) refused; none of them reaches it.
n=$(grep -c '^req' "$T/web.log")
for p in /%73ecret.txt /%2573ecret.txt /x/../secret.txt /x/%2e%2E/secret.txt /./secret.txt //secret.txt; do
	code=$(sbx run -- curl -sS --path-as-is -o /dev/null -w '%{http_code}' \
		"https://l7.test:$WEB$p" 2>/dev/null)
	case $p in
	/%2573*) expect_eq "$p is not the denied path: it passes" "$code" 404 ;;
	*) expect_eq "$p is the denied path: 403" "$code" 403 ;;
	esac
done
expect_eq "... only the one that is not reached the server" "$(grep -c '^req' "$T/web.log")" $((n + 1))
# Plain HTTP to a host with rules is decided the same way.
expect_eq "plain HTTP GET under readOnly" "$(sbx run -- curl -sS "http://l7.test:$PLAIN/hello.txt")" hello
n=$(conns plain)
code=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' -X DELETE \
	"http://l7.test:$PLAIN/hello.txt" 2>"$T/err")
expect_eq "plain HTTP DELETE under readOnly: 403" "$code" 403
check "... reported with the rule" grep -q "request not allowed by the request rules: DELETE /hello.txt" "$T/err"
expect_eq "... and the server was not even dialled" "$(conns plain)" "$n"

# WebSocket: the Upgrade request is decided, then bytes pass both ways.
out=$(sbx run -- "$PY" -c '
import os, socket, ssl, sys, urllib.parse
p = urllib.parse.urlsplit(os.environ["HTTPS_PROXY"])
host, port = "l7.test", int(sys.argv[1])
s = socket.create_connection((p.hostname, p.port))
s.sendall(b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host.encode(), port))
head = b""
while b"\r\n\r\n" not in head:
    head += s.recv(1)
t = ssl.create_default_context().wrap_socket(s, server_hostname=host)
t.sendall(b"GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
          b"Connection: Upgrade\r\n\r\n" % (host.encode(), port))
resp = b""
while b"\r\n\r\n" not in resp:
    resp += t.recv(1)
print(resp.split(b"\r\n")[0].decode())
msg = b"\x81\x05hello not HTTP at all"
t.sendall(msg)
got = b""
while len(got) < len(msg):
    got += t.recv(100)
print("echo ok" if got == msg else "echo bad")' "$WEB" 2>"$T/err")
expect_eq "WebSocket through inspection" "$out" "HTTP/1.1 101 Switching Protocols
echo ok"
code=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' -H "Upgrade: h2c" \
	-H "Connection: Upgrade" "https://l7.test:$WEB/ws" 2>"$T/err")
expect_eq "an Upgrade to h2c: 403" "$code" 403
check "... reported" grep -q "an Upgrade to another protocol than WebSocket" "$T/err"

# The upstream is verified: bad.test's certificate is self-signed.
code=$(sbx run -- curl -sS -o "$WS/body" -w '%{http_code}' \
	"https://bad.test:$BAD/hello.txt" 2>"$T/err")
expect_eq "an upstream no root trusts: 502" "$code" 502
check "... reported" grep -q "the upstream's TLS failed: certificate" "$T/err"
expect_eq "... and no request reached it" "$(grep -c '^req' "$T/bad.log")" 0

# Excluded yet named by rules: refused, not let through unchecked.
code=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' \
	"https://pinned.test:$WEB/hello.txt" 2>"$T/err")
expect_eq "rules on an excluded host: refused" "$code" 000
check "... reported" grep -q "request rules or credentials name a host in network.tls.excludeDomains" "$T/err"

# git: clone allowed, push refused before it reaches the server.
sbx run -- git clone -q "https://l7.test:$GIT/repo.git" \
	"$WS/clone" 2>"$T/err"
check "git clone through inspection" test -d "$WS/clone/.git"
git -C "$WS/clone" -c user.email=t@t -c user.name=t commit -q --allow-empty -m x
sbx run -- git -C "$WS/clone" push -q origin HEAD:main \
	>"$T/out" 2>"$T/err" && fail "git push succeeded"
check "... push refused by the rule" grep -q "deny \* /\*git-receive-pack\*\" id clone-only" "$T/err"
expect_eq "... the server's refs unchanged" "$(git -C "$T/git/repo.git" show-ref)" "$refs_before"
check "... and it never saw receive-pack" bash -c "! grep -q receive-pack '$T/git.log'"
check "... but served upload-pack" grep -q "^req POST /repo.git/git-upload-pack$" "$T/git.log"
stop_daemon
done_test
