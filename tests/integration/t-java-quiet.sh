#!/bin/bash
# A JVM in the sandbox reaches the network through the proxy and prints
# nothing of its own on stderr: in a network namespace the JDKs'
# net.properties carry the proxy (a copy bound read-only over each JDK's,
# read by the JVM silently), not JAVA_TOOL_OPTIONS, which every JVM echoes
# ("Picked up JAVA_TOOL_OPTIONS: ..."). The host's file is unchanged and
# the sandbox cannot write the copy. With transparent capture the JVM's
# own connections reach the proxy: no copy is bound at all, the JDK's file
# is the host's. Without a network namespace the
# session's ports go in JAVA_TOOL_OPTIONS, and the fetch works all the same.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v javac >/dev/null && command -v java >/dev/null || skip "no JDK"
javac -d "$WS" "$HERE/Get.java" || skip "javac failed"
JH=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
PROPS=$(readlink -f "$JH/conf/net.properties")
[ -f "$PROPS" ] || skip "no conf/net.properties in $JH"
before=$(sha256sum <"$PROPS")
start_server web http "$T/www"
WEB=$SRV_PORT
start_proxy_daemon '{"network": {"allowedDomains": ["java.test",
  "127.0.0.1:'"$WEB"'"], "unknownHosts": "deny"}}' "127.0.0.1 java.test"
cd "$WS"
# The first part needs the sandboxes' own network namespaces; the test
# runs --no-netns itself below.
sbx status | grep -Eq '^namespaces: .*\<net\>' ||
	skip "no network namespaces for sandboxes here (SBXD_ARGS=${SBXD_ARGS:-})"

sbx run -- java -cp . Get "http://java.test:$WEB/hello.txt" >"$T/out" 2>"$T/err"
expect_eq "the JDK's client fetched through the proxy" "$(cat "$T/out")" hello
expect_eq "stderr holds nothing (no 'Picked up ...')" "$(cat "$T/err")" ""
check "the server saw it" test "$(conns web)" -ge 1
out=$(sbx run -- sh -c 'echo "${JAVA_TOOL_OPTIONS-unset}"')
expect_eq "no JAVA_TOOL_OPTIONS of ours" "$out" unset
out=$(sbx run -e JAVA_TOOL_OPTIONS=-Xmx64m -- sh -c 'echo "$JAVA_TOOL_OPTIONS"')
expect_eq "the caller's own passes unchanged" "$out" -Xmx64m
if sbx status | grep -q 'no transparent capture'; then
	check "the copy names the proxy" eval 'sbx run -- cat "$PROPS" | grep -qx "https.proxyPort=3128"'
	check "and keeps the JDK's own settings" eval 'sbx run -- cat "$PROPS" | grep -q "^http.nonProxyHosts=localhost"'
else
	expect_eq "captured: the JDK's file is the host's, unbound" \
		"$(sbx run -- sh -c 'sha256sum <"$1"' sh "$PROPS")" "$before"
	check "captured: no proxy lines" eval '! sbx run -- cat "$PROPS" | grep -q "sbx: the sandbox"'
fi
expect_eq "the sandbox cannot write it" \
	"$(sbx run -- "$BIN/sbx-probe" write "$PROPS")" EROFS
expect_eq "the host's file is unchanged" "$(sha256sum <"$PROPS")" "$before"
expect_eq "nothing left in /dev/shm" "$(sbx run -- ls -A /dev/shm)" ""
# A link planted where the home's JDKs are looked for (earlier runs write
# the home's layer) names no JDK: the file it leads to is not rebound with
# the proxy lines. A fresh workspace: a fresh template, which looks.
mkdir -p "$T/ws2" "$HOME/.jdks/sbx-test-decoy/conf"
echo decoy >"$T/ws2/decoy"
ln -s "$T/ws2/decoy" "$HOME/.jdks/sbx-test-decoy/conf/net.properties"
out=$(cd "$T/ws2" && sbx run -- cat decoy)
rm -rf "$HOME/.jdks/sbx-test-decoy"
rmdir "$HOME/.jdks" 2>/dev/null
expect_eq "a planted link's file is not rebound" "$out" decoy
cd "$WS"
stop_daemon

# Without a network namespace: JAVA_TOOL_OPTIONS (the ports are the
# session's), and the fetch works.
start_proxy_daemon '{"network": {"allowedDomains": ["java.test",
  "127.0.0.1:'"$WEB"'"], "unknownHosts": "deny"}}' "127.0.0.1 java.test" \
	--no-netns
sbx run -- java -cp . Get "http://java.test:$WEB/hello.txt" >"$T/out" 2>"$T/err"
expect_eq "--no-netns: fetched through the proxy" "$(cat "$T/out")" hello
check "--no-netns: JAVA_TOOL_OPTIONS carries the ports" \
	grep -q "^Picked up JAVA_TOOL_OPTIONS: -Dhttp.proxyHost=127.0.0.1 " "$T/err"
stop_daemon

# Privileged mode (a root daemon serving the test user): the same copy,
# made by root's template.
user=${SBX_TEST_USER:-sbxtest}
if [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	chown -R "$user": "$WS"
	chmod 755 "$T"
	start_proxy_daemon '{"network": {"allowedDomains": ["java.test",
  "127.0.0.1:'"$WEB"'"], "unknownHosts": "deny"}}' "127.0.0.1 java.test" \
		--user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	setpriv --reuid="$user" --regid="$user" --init-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- \
		java -cp . Get "http://java.test:$WEB/hello.txt" >"$T/out" 2>"$T/err"
	expect_eq "privileged: fetched through the proxy" "$(cat "$T/out")" hello
	expect_eq "privileged: stderr holds nothing" "$(cat "$T/err")" ""
	expect_eq "privileged: the host's file is unchanged" \
		"$(sha256sum <"$PROPS")" "$before"
	stop_daemon
fi
done_test
