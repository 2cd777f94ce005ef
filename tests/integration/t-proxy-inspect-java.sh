#!/bin/bash
# Java trusts sbx's CA with nothing set by the test: with TLS inspection
# on, the JDKs' trust store (cacerts, Debian's /etc/ssl/certs/java) is
# replaced inside the sandbox by one holding the system's roots and sbx's
# CA, so a plain HttpsURLConnection reaches an inspected host (through
# the proxy the JDK's net.properties or capture give it). keytool reads
# the store with the distributions' password; the host's store is
# untouched; without inspection the sandbox sees the host's.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
. "$HERE/inspect-lib.sh"
command -v java >/dev/null && command -v javac >/dev/null ||
	skip "no JDK (java and javac)"
STORE=$(readlink -f "$(dirname "$(readlink -f "$(command -v java)")")/../lib/security/cacerts")
[ -f "$STORE" ] || skip "the JDK has no lib/security/cacerts"
unset JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS SSL_CERT_FILE
host_sum=$(sha256sum <"$STORE")
host_n=$(keytool -list -cacerts -storepass changeit 2>/dev/null | grep -c trustedCertEntry)
[ "$host_n" -gt 0 ] || skip "keytool cannot list the JDK's trust store"

mkdir -p "$WS/j"
cat >"$WS/j/Get.java" <<'JAVA'
import java.io.InputStream;
import java.net.URL;

public class Get {
	public static void main(String[] a) throws Exception {
		try (InputStream in = new URL(a[0]).openConnection().getInputStream()) {
			System.out.print(new String(in.readAllBytes()));
		}
	}
}
JAVA
javac -d "$WS/j" "$WS/j/Get.java" || fail "javac"
chmod -R a+rX "$WS/j"

start_web_daemon '{"host": "l7.test", "readOnly": true}'
out=$(sbx run -- java -cp j Get "$URL" 2>"$T/java.err")
expect_eq "Java's HTTPS GET through inspection" "$out" hello
[ "$out" = hello ] || tail -5 "$T/java.err" >&2
check "... reached the server" grep -q "^req GET /hello.txt" "$T/web.log"
sbx run -- keytool -list -cacerts -storepass changeit >"$T/list" 2>&1
expect_eq "the trust store inside holds one more certificate" \
	"$(grep -c trustedCertEntry "$T/list")" $((host_n + 1))
check "... sbx's CA, its digest checked with changeit" grep -q "^sbx-inspection-ca-" "$T/list"
expect_eq "the host's store is untouched" "$(sha256sum <"$STORE")" "$host_sum"
stop_daemon

start_web_daemon ''
expect_eq "without inspection the store is the host's" \
	"$(sbx run -- sh -c "sha256sum <'$STORE'")" \
	"$host_sum"
stop_daemon
done_test
