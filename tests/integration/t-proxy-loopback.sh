#!/bin/bash
# A server inside the sandbox, called from inside the same run: loopback is
# exempt from the proxy (NO_PROXY names localhost, 127.0.0.1 and ::1; Java
# keeps its default nonProxyHosts), so curl, wget, python's urllib and the
# JDK's client reach it. The sandbox's loopback is its own: a host server on
# 127.0.0.1 gets nothing. Through the proxy loopback is the host's, and the
# 403 never advises allowing 127.0.0.1:PORT. Without a network namespace a
# direct loopback connect stays confined to the session's proxy ports.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
unset CURL_HOME # curl as a command has it: honouring NO_PROXY
start_server host http "$T/www"
HOSTP=$SRV_PORT
start_proxy_daemon '{"network": {"allowedDomains": ["svc.test"],
  "allowLocalBinding": true, "unknownHosts": "deny"}}' "127.0.0.1 svc.test"
cd "$WS"
# The first part needs the sandboxes' own network namespaces; the test
# runs --no-netns itself below.
sbx status | grep -Eq '^namespaces: .*\<net\>' ||
	skip "no network namespaces for sandboxes here (SBXD_ARGS=${SBXD_ARGS:-})"
mkdir www
echo inside >www/page.txt
cp "$HERE/loopserver.py" .
have_java=0
if command -v javac >/dev/null && command -v java >/dev/null; then
	javac -d "$WS" "$HERE/Get.java" 2>"$T/javac.err" && have_java=1
fi
have_wget=0
command -v wget >/dev/null && have_wget=1
cat >run.sh <<'SH'
#!/bin/sh
# run.sh PYTHON HOST_PORT: a server and its clients, all in this run.
mkfifo "$PWD/ready"
"$1" "$PWD/loopserver.py" "$PWD/ready" "$PWD/www" &
srv=$!
read -r port <"$PWD/ready"
echo "no_proxy $no_proxy"
echo "curl localhost $(curl -sS "http://localhost:$port/page.txt" 2>&1)"
echo "curl 127.0.0.1 $(curl -sS "http://127.0.0.1:$port/page.txt" 2>&1)"
echo "curl ::1 $(curl -sS "http://[::1]:$port/page.txt" 2>&1)"
[ -n "$(command -v wget)" ] &&
	echo "wget $(wget -qO- "http://localhost:$port/page.txt" 2>&1)"
echo "urllib $("$1" -c 'import sys, urllib.request
print(urllib.request.urlopen("http://localhost:%s/page.txt" % sys.argv[1]).read().decode(), end="")' "$port" 2>&1)"
[ -f Get.class ] &&
	echo "java $(java -cp . Get "http://localhost:$port/page.txt" 2>/dev/null)"
curl -sS -o /dev/null "http://127.0.0.1:$2/hello.txt" 2>/dev/null
echo "host server: curl exit $?"
kill "$srv"
SH
sbx run -- sh run.sh "$PY" "$HOSTP" >"$T/out" 2>"$T/err"
expect_eq "the command's NO_PROXY" "$(sed -n 's/^no_proxy //p' "$T/out")" \
	"localhost,127.0.0.1,::1"
for c in "curl localhost" "curl 127.0.0.1" "curl ::1" urllib; do
	expect_eq "$c reaches the server inside the run" \
		"$(sed -n "s/^$c //p" "$T/out")" inside
done
if [ $have_wget = 1 ]; then
	expect_eq "wget reaches it" "$(sed -n 's/^wget //p' "$T/out")" inside
else
	echo "note: wget not installed"
fi
if [ $have_java = 1 ]; then
	expect_eq "the JDK's client reaches it" \
		"$(sed -n 's/^java //p' "$T/out")" inside
else
	echo "note: no JDK"
fi
# The sandbox's loopback is its own: nothing listens at the host's port
# there (curl: 7, could not connect), and the host server saw nothing.
expect_eq "127.0.0.1 of the host is not reachable directly" \
	"$(sed -n 's/^host server: //p' "$T/out")" "curl exit 7"
expect_eq "the host server got nothing" "$(conns host)" 0
check "no sbx line for what worked" eval '! grep -q "^sbx:" "$T/err"'

# Through the proxy, loopback is the host's: refused, and the remedy does
# not advise a rule for 127.0.0.1:PORT (unknown host, then a name that
# resolves to loopback).
sbx run -- sh -c "curl -sS --noproxy '' -x \"\$HTTP_PROXY\" \
	http://127.0.0.1:$HOSTP/hello.txt; curl -sS --noproxy '' \
	-x \"\$HTTP_PROXY\" http://svc.test:$HOSTP/hello.txt" >"$T/out" 2>"$T/err"
expect_eq "the host server still got nothing" "$(conns host)" 0
check "403 for 127.0.0.1 says where loopback servers are reached" grep -qF \
	"blocked network 127.0.0.1:$HOSTP (not in allowedDomains; user policy $T/policy.json, rule network.unknownHosts \"deny\") — loopback through the proxy is the host's: a server started in the sandbox is called directly (NO_PROXY lists localhost, 127.0.0.1 and ::1); a service on the host is reached at its own address in the sandbox once the user lists it in network.hostServices (\"localhost:5432\")" "$T/err"
check "and for a name that resolves to loopback" grep -qF \
	"blocked network svc.test:$HOSTP (resolves to a non-public address: its address is 127.0.0.1 (loopback); address check) — loopback through the proxy is the host's" "$T/err"
check "never advises allowing 127.0.0.1:PORT" \
	eval '! grep -q "allowedDomains \"127" "$T/err" "$T/out"'
stop_daemon

# Without a network namespace: the loopback is the host's, and a direct
# connect reaches only the session's proxy ports.
: >"$T/host.log"
start_proxy_daemon '{"network": {"allowedDomains": ["svc.test"],
  "unknownHosts": "deny"}}' "" --no-netns
sbx run -- sh -c 'echo "$no_proxy"; curl -sS -o /dev/null \
	http://127.0.0.1:'"$HOSTP"'/hello.txt; echo "curl exit $?"' \
	>"$T/out" 2>"$T/err"
expect_eq "--no-netns: NO_PROXY" "$(head -1 "$T/out")" "localhost,127.0.0.1,::1"
expect_eq "--no-netns: the direct connect fails" "$(tail -1 "$T/out")" \
	"curl exit 7"
expect_eq "--no-netns: the host server got nothing" "$(conns host)" 0
# (Reported where sbxd makes connect() itself; status says when not.)
sbx status | grep -q "^degraded: *connect() is not made by sbxd" ||
	check "--no-netns: the refused connect is reported" \
		grep -q "^sbx: blocked network 127.0.0.1:$HOSTP " "$T/err"
stop_daemon
done_test
