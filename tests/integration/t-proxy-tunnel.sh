#!/bin/bash
# CONNECT tunnels: HTTPS end to end, and the first-bytes check: a TLS
# server name or an HTTP Host naming another host than the tunnel's closes
# the tunnel, is reported, and not one byte of it reaches the server.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
command -v openssl >/dev/null || skip "openssl not installed"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" \
	-out "$T/cert.pem" -days 1 -subj /CN=tls.test \
	-addext subjectAltName=DNS:tls.test >/dev/null 2>&1 ||
	skip "openssl cannot make a test certificate"
start_server tls tls "$T/cert.pem" "$T/key.pem"
TLS=$SRV_PORT
start_server raw raw
RAW=$SRV_PORT
# tls.test is a name, so it may reach loopback only because a rule names
# the address with the port.
start_proxy_daemon '{"network": {
  "allowedDomains": ["tls.test", "127.0.0.1:'"$TLS"'", "127.0.0.1:'"$RAW"'"]}}' \
	"127.0.0.1 tls.test other.test"
cd "$WS"
sp() { sbx run -- "$PY" "$HERE/proxyprobe.py" "$@" 2>"$T/err"; }

out=$(sbx run -- curl -sS -k "https://tls.test:$TLS/")
expect_eq "HTTPS through CONNECT, SNI tls.test" "$out" "tls ok tls.test"
out=$(sbx run -- sh -c 'exec curl -sS -k -x "$ALL_PROXY" "$0"' \
	"https://tls.test:$TLS/")
expect_eq "HTTPS through SOCKS5" "$out" "tls ok tls.test"
expect_eq "SNI matching the tunnel passes" "$(sp connect-tls tls.test "$TLS" tls.test)" "ok tls ok tls.test"

# Domain fronting: a tunnel to tls.test asking for other.test.
expect_eq "SNI naming another host: closed" "$(sp connect-tls tls.test "$TLS" other.test)" closed
check "reported with both names" grep -q "^sbx: blocked network tls.test:$TLS (the TLS server name is another host: it names other.test; tunnel check)" "$T/err"
expect_eq "SNI of another host over an address tunnel: closed" "$(sp connect-tls 127.0.0.1 "$TLS" tls.test)" closed
expect_eq "only the three matching handshakes were served" \
	"$(grep -c '^served tls.test$' "$T/tls.log")/$(grep -c '^served' "$T/tls.log")" 3/3

# The raw server counts the bytes that reached it.
tls_hello=$("$PY" -c '
import ssl
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
i, o = ssl.MemoryBIO(), ssl.MemoryBIO()
s = ctx.wrap_bio(i, o, server_hostname="other.test")
try: s.do_handshake()
except ssl.SSLWantReadError: pass
print("".join("\\x%02x" % b for b in o.read()))')
# (The raw server never answers: "done 0" either way; the event says
# the tunnel was refused.)
expect_eq "fronted ClientHello: tunnel ends" "$(sp tunnel 127.0.0.1 "$RAW" "$tls_hello")" "done 0"
check "... refused by the tunnel check" grep -q "it names other.test; tunnel check" "$T/err"
expect_eq "plain HTTP naming another Host: tunnel ends" \
	"$(sp tunnel 127.0.0.1 "$RAW" 'GET / HTTP/1.1\r\nHost: other.test\r\n\r\n')" "done 0"
check "... refused by the tunnel check" grep -q "it names other.test; tunnel check" "$T/err"
expect_eq "plain HTTP naming another port: tunnel ends" \
	"$(sp tunnel 127.0.0.1 "$RAW" "GET / HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n")" "done 0"
check "... refused by the tunnel check" grep -q "it names 127.0.0.1:1; tunnel check" "$T/err"
"$PY" - "$T/raw.log" <<'PYEOF' >"$T/bytes"
import sys
print(sorted(set(l.split()[1] for l in open(sys.argv[1]) if l.startswith("bytes"))))
PYEOF
expect_eq "not one byte of a refused tunnel reached the server" "$(cat "$T/bytes")" "['0']"
n=$(grep -c '^bytes' "$T/raw.log")
expect_eq "matching Host passes" \
	"$(sp tunnel 127.0.0.1 "$RAW" "GET / HTTP/1.1\r\nHost: 127.0.0.1:$RAW\r\n\r\n")" "done 0"
check "... with nothing refused" bash -c "! grep -q 'tunnel check' '$T/err'"
expect_eq "protocols naming no host pass (SSH banner)" \
	"$(sp tunnel 127.0.0.1 "$RAW" 'SSH-2.0-OpenSSH_9.2\r\n')" "done 0"
check "and those bytes arrived" grep -q '^bytes 21$' "$T/raw.log"
check "the matching request arrived" grep -Eq "^bytes (3[0-9]|4[0-9])\$" "$T/raw.log"
stop_daemon
done_test
