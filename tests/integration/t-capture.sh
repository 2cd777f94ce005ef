#!/bin/bash
# Transparent capture: programs that ignore the proxy variables reach an
# allowed name through the sandbox's DNS stub and captured TCP (Python
# with every proxy variable unset, Node's built-in fetch, IPv4 and IPv6);
# a name no rule allows is answered NXDOMAIN and never reaches the
# daemon's name server (the test's, which logs every question); a literal
# address is decided by address rules; other UDP is refused.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
sbx_status() { sbx status 2>&1; }
start_server dns dns pub.test=127.0.0.1 secret.test=127.0.0.1
printf 'nameserver 127.0.0.1:%s\n' "$SRV_PORT" >"$T/resolv.conf"
start_server web http "$T/www"
WEB=$SRV_PORT
tls=0
if command -v openssl >/dev/null && openssl req -x509 -newkey rsa:2048 \
	-nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 1 \
	-subj /CN=tls.test -addext subjectAltName=DNS:tls.test >/dev/null 2>&1; then
	start_server tls tls "$T/cert.pem" "$T/key.pem"
	TLS=$SRV_PORT
	tls=1
fi
start_proxy_daemon '{"network": {
  "allowedDomains": ["pub.test:'"$WEB"'", "127.0.0.1:'"$WEB"'",
                     "web.test:'"$WEB"'", "tls.test:'"${TLS:-1}"'",
                     "127.0.0.1:'"${TLS:-1}"'"]}}' \
	"127.0.0.1 web.test tls.test other.test" --resolv-conf "$T/resolv.conf"
if sbx_status | grep -q 'no transparent capture'; then
	skip "no transparent capture here: $(sbx_status | grep 'transparent capture')"
fi
cd "$WS"
# Every proxy variable of the sandbox unset, then the command.
cat >"$WS/noproxy.sh" <<'SH'
for v in $(env | sed -n 's/^\([A-Za-z_]*_[Pp][Rr][Oo][Xx][Yy]\)=.*/\1/p'); do
	unset "$v"
done
unset GIT_CONFIG_COUNT
exec "$@"
SH
np() { sbx run -- sh "$WS/noproxy.sh" "$@"; }
absent() { ! grep -q "$@"; }

out=$(np sh -c 'env | grep -ic _proxy=')
expect_eq "no proxy variable left" "$out" 0
out=$(np "$PY" -c 'import urllib.request,sys
print(urllib.request.urlopen("http://pub.test:'"$WEB"'/hello.txt").read().decode().strip())' 2>&1)
expect_eq "Python, no proxy variables: an allowed name" "$out" hello
check "the daemon resolved pub.test with its name server" grep -qx 'query pub.test' "$T/dns.log"
out=$(np "$PY" -c 'import urllib.request
print(urllib.request.urlopen("http://web.test:'"$WEB"'/hello.txt").read().decode().strip())' 2>&1)
expect_eq "a --hosts-file name" "$out" hello
out=$(np node -e 'fetch("http://pub.test:'"$WEB"'/hello.txt").then(r => r.text()).then(t => process.stdout.write(t))' 2>&1)
expect_eq "Node's built-in fetch" "$out" hello
addr=$(np getent ahostsv4 pub.test | awk 'NR==1{print $1}')
case $addr in 198.1[89].*) ok "the name's address is a made-up one ($addr)" ;;
*) fail "pub.test resolved to '$addr' inside" ;; esac

# IPv6: the stub's AAAA, captured over IPv6.
out=$(np curl -sS -6 --noproxy '*' "http://pub.test:$WEB/hello.txt" 2>&1)
expect_eq "IPv6: curl -6 to an allowed name" "$out" hello
addr6=$(np getent ahostsv6 pub.test | awk 'NR==1{print $1}')
case $addr6 in fd73:6278:7800::*) ok "AAAA is a made-up ULA ($addr6)" ;;
*) fail "pub.test AAAA was '$addr6'" ;; esac

# What travels inside is checked as in a tunnel: the TLS server name and
# the HTTP Host must be the name connected to.
if [ $tls = 1 ]; then
	sni() { np "$PY" -c 'import socket, ssl, sys
c = ssl.create_default_context(); c.check_hostname = False
c.verify_mode = ssl.CERT_NONE
try:
    s = c.wrap_socket(socket.create_connection(("tls.test", int(sys.argv[1])), 5),
                      server_hostname=sys.argv[2])
    s.sendall(b"GET / HTTP/1.0\r\n\r\n"); print(s.recv(200).decode().splitlines()[-1])
except OSError as e:
    print("refused")' "$TLS" "$1" 2>"$T/err"; }
	expect_eq "TLS to tls.test naming tls.test" "$(sni tls.test)" "tls ok tls.test"
	expect_eq "TLS to tls.test naming other.test: refused" "$(sni other.test)" refused
	check "the tunnel check says why" grep -q 'blocked network tls.test:'"$TLS"'.*TLS server name is another host' "$T/err"
	check "the server served only the first" eval '[ "$(grep -c ^served "$T/tls.log")" = 1 ]'
else
	echo "note: no openssl: TLS cases not run"
fi
out=$(np "$PY" -c 'import socket
s = socket.create_connection(("pub.test", '"$WEB"'), 5)
s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: other.test\r\n\r\n")
print(len(s.recv(100)))' 2>"$T/err")
expect_eq "HTTP naming another Host: closed unanswered" "$out" 0
check "the tunnel check says why" grep -q 'blocked network pub.test:'"$WEB"'.*another host' "$T/err"

# The sandbox's own host name is its loopback; reverse lookups find
# nothing; neither is a violation.
out=$(sbx run -- getent ahostsv4 sbx 2>"$T/err" | awk 'NR==1{print $1}')
expect_eq "the sandbox's host name is its loopback" "$out" 127.0.0.1
sbx run -- getent hosts 198.18.0.1 >/dev/null 2>>"$T/err"
check "no violation for either" absent '^sbx: blocked' "$T/err"

# A name no rule allows: NXDOMAIN from the stub, nothing asked outside.
: >"$T/dns.log.before"
np getent hosts secret.test >/dev/null 2>"$T/err"
expect_eq "secret.test does not resolve (getent exit 2)" "$?" 2
np "$PY" -c 'import socket
try:
    socket.getaddrinfo("secret.test", 443)
except socket.gaierror as e:
    print(e.errno == socket.EAI_NONAME)' >"$T/out" 2>/dev/null
expect_eq "getaddrinfo: EAI_NONAME, not EAI_AGAIN" "$(cat "$T/out")" True
check "the daemon's name server never heard of secret.test" absent secret "$T/dns.log"
sbx run -- getent hosts secret.test >/dev/null 2>"$T/err"
check "the denial is a violation" grep -q 'blocked network secret.test' "$T/err"
# Asked of any name server, at any address: the stub answers.
out=$(np "$PY" -c 'import socket,struct
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.settimeout(5)
q=b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x06secret\x04test\x00\x00\x01\x00\x01"
s.sendto(q,("192.0.2.53",53)); r=s.recv(512); print(r[3]&15)')
expect_eq "a query sent to 192.0.2.53 gets the stub's NXDOMAIN" "$out" 3
check "still nothing asked outside" absent secret "$T/dns.log"

# Literal addresses: decided by address rules. A refused connection is
# told why in HTTP when it speaks HTTP, else reset. (The reset may come
# before connect() returns, which the supervisor makes, or after.)
lit() { np "$PY" -c 'import socket, sys
try:
    s=socket.create_connection(("192.0.2.7", 80), 5)
    s.sendall(sys.argv[1].encode()); print(s.recv(300).decode().splitlines()[0])
except OSError as e:
    print(e.errno)' "$1" 2>"$T/err"; }
expect_eq "a literal address no rule allows, HTTP: 403" \
	"$(lit $'GET / HTTP/1.0\r\n\r\n')" "HTTP/1.1 403 Forbidden"
check "its violation names the address" grep -q 'blocked network 192.0.2.7:80' "$T/err"
expect_eq "a literal address no rule allows, other bytes: reset" \
	"$(lit $'\x01\x02binary')" 104
# Other UDP: refused by the kernel's ICMP answer.
out=$(np "$PY" -c 'import socket
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.settimeout(5)
s.connect(("192.0.2.9", 4433)); s.send(b"x")
try:
    s.recv(10)
except OSError as e:
    print(e.errno)')
expect_eq "UDP elsewhere: ECONNREFUSED" "$out" 111
# The explicit proxy still serves programs that use it.
out=$(sbx run -- curl -sS "http://pub.test:$WEB/hello.txt" 2>&1)
expect_eq "curl through HTTP_PROXY" "$out" hello
# A server of the sandbox on its own loopback is not captured.
out=$(np "$PY" -c 'import socket
l=socket.socket(); l.bind(("127.0.0.1",0)); l.listen()
c=socket.create_connection(l.getsockname()); a,_=l.accept(); a.sendall(b"own")
print(c.recv(3).decode())')
expect_eq "the sandbox's own loopback server" "$out" own
check "describe says programs are captured" eval \
	'sbx describe | grep -q "whether a program uses HTTP_PROXY/ALL_PROXY or not"'
stop_daemon

# Privileged mode (a root daemon serving another user): the same.
user=${SBX_TEST_USER:-sbxtest}
if [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	chown -R "$user": "$WS"
	chmod 755 "$T"
	start_daemon --user "$user" --policy "$T/policy.json" \
		--hosts-file "$T/hosts" --resolv-conf "$T/resolv.conf"
	chmod 755 "$XDG_RUNTIME_DIR"
	out=$(setpriv --reuid="$user" --regid="$user" --init-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- \
		sh "$WS/noproxy.sh" "$PY" -c 'import urllib.request
print(urllib.request.urlopen("http://pub.test:'"$WEB"'/hello.txt").read().decode().strip())' 2>&1)
	expect_eq "privileged: an allowed name, no proxy variables" "$out" hello
	stop_daemon
fi

# Without a network namespace nothing can be captured safely: status and
# describe say so.
start_proxy_daemon '{}' "" --no-netns
check "--no-netns: status says there is no capture" eval \
	'sbx status | grep -q "no transparent capture without a network namespace"'
check "--no-netns: describe says so" eval \
	'sbx describe | grep -q "no transparent capture here"'
stop_daemon
done_test
