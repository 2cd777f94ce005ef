#!/bin/bash
# A tunnel's check holds for the whole stream: every plain HTTP request of
# it (pipelined, after a body by length or chunked) must name the
# tunnel's host; first bytes that are neither a ClientHello with a server
# name, an HTTP request head nor an SSH banner close the tunnel (a leading
# LF or space, garbage, a TLS record before the ClientHello, a ClientHello
# without SNI), as do fields some servers take for framing, an Upgrade
# request and a body on GET (which a server may read as a request). Two virtual
# hosts (web.test, other.test) on one address; the server logs every byte
# it receives, and a refused request must not be among them.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
start_server dump dump
P=$SRV_PORT
start_proxy_daemon '{"network": {
  "allowedDomains": ["web.test", "127.0.0.1:'"$P"'"]}}' \
	"127.0.0.1 web.test other.test"
cd "$WS"
sp() { sbx run -- "$PY" "$HERE/proxyprobe.py" "$@" 2>>"$T/err"; }
t() { sp tunnel web.test "$P" "$1" >/dev/null; }
tls() { sp tunnel-tls web.test "$P" "$@" >/dev/null; }
G='HTTP/1.1\r\nHost: web.test'

# Refused: the marker of each must never reach the server (what came
# before it in the stream, anyN, may or may not have).
t "GET /any1 $G\r\n\r\nGET /no-pipelined HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "\nGET /no-lf HTTP/1.1\r\nHost: other.test\r\n\r\n"
t " GET /no-space HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "\r\n\nGET /no-crlf-lf HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "POST /any2 $G\r\nContent-Length: 5\r\n\r\nhelloGET /no-after-length HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "POST /any3 $G\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /no-after-chunked HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "GET /any4 $G\r\nContent-Length: 47\r\n\r\nGET /no-get-body HTTP/1.1\r\nHost: other.test\r\n\r\n"
t "\x01\x02garbage /no-garbage"
t "GET /no-underscore-length $G\r\nContent_Length: 5\r\n\r\nhello"
t "POST /no-underscore-te $G\r\nTransfer_Encoding: chunked\r\n\r\n0\r\n\r\n"
t "GET /no-upgrade $G\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\nGET /no-upgrade2 HTTP/1.1\r\nHost: other.test\r\n\r\n"
tls alert other.test no-alert
tls ccs other.test no-ccs
tls plain - no-nosni
tls split other.test no-split
# Passed: the same shapes naming the tunnel's host.
t "GET /ok-d $G\r\n\r\nPOST /ok-e $G\r\nContent-Length: 3\r\n\r\nabcPOST /ok-f $G\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n\r\nGET /ok-g $G:$P\r\n\r\n"
t "\r\nGET /ok-h $G\r\n\r\n"
t 'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n\x00\x00\x01ok-i'
tls plain web.test ok-j
tls split web.test ok-k
# To an address no server name is expected (none may name an address).
sp tunnel-tls 127.0.0.1 "$P" plain - ok-l >/dev/null

# The server logs each connection when it ends; wait for all of them.
wait_for "every connection logged" bash -c \
	'[ "$(grep -c ^conn "$0")" = "$(grep -c ^data "$0")" ]' "$T/dump.log"
for m in ok-d ok-e ok-f ok-g ok-h ok-i ok-j ok-k ok-l; do
	check "$m reached the server" grep -q "$m" "$T/dump.log"
done
for m in no-pipelined no-lf no-space no-crlf-lf \
	no-after-length no-after-chunked no-get-body no-garbage no-underscore-length \
	no-underscore-te no-upgrade no-upgrade2 no-alert no-ccs no-nosni \
	no-split; do
	check "$m did not reach the server" bash -c "! grep -q '$m' '$T/dump.log'"
done
check "pipelined request reported" grep -q "^sbx: blocked network web.test:$P (the HTTP request inside is for another host: it names other.test; tunnel check)" "$T/err"
check "garbage reported" grep -q "(the first bytes are not TLS, SSH or an HTTP request; tunnel check)" "$T/err"
check "no SNI reported" grep -q "(a TLS ClientHello without a server name to a tunnel opened by name; tunnel check)" "$T/err"
check "look-alike field reported" grep -q "field name with '_'" "$T/err"
check "the daemon still answers" sbx status
stop_daemon
done_test
