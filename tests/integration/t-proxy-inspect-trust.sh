#!/bin/bash
# Trust inside the sandbox, only with TLS inspection on: the
# distribution's CA bundle holds sbx's CA too (for programs that read no
# variable), and SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE,
# CURL_CA_BUNDLE, GIT_SSL_CAINFO and PIP_CERT name it: curl, Python,
# Node and Go reach an inspected host with nothing set by the test. Without
# request rules the bundle is the host's and no variable is set.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
. "$HERE/inspect-lib.sh"
BUNDLE=
for b in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt; do
	[ -r "$b" ] && { BUNDLE=$b; break; }
done
[ -n "$BUNDLE" ] || skip "no CA bundle of a known distribution"
# The tests' own environment may name bundles: the sandbox must not need it.
unset SSL_CERT_FILE SSL_CERT_DIR NODE_EXTRA_CA_CERTS REQUESTS_CA_BUNDLE \
	CURL_CA_BUNDLE GIT_SSL_CAINFO PIP_CERT NIX_SSL_CERT_FILE AWS_CA_BUNDLE
host_certs=$(grep -c "BEGIN CERTIFICATE" "$BUNDLE")

start_web_daemon '{"host": "l7.test", "readOnly": true}'

expect_eq "the bundle inside holds one more certificate" \
	"$(sbx run -- grep -c "BEGIN CERTIFICATE" "$BUNDLE")" $((host_certs + 1))
check "... sbx's CA" sh -c "sbx run -- cat '$BUNDLE' | openssl storeutl -noout -text -certs /dev/stdin 2>/dev/null | grep -q 'Subject: CN=sbx inspection CA'"
check "... which the host's bundle does not" bash -c "! grep -q 'sbx inspection' '$BUNDLE' && [ \$(grep -c 'BEGIN CERTIFICATE' '$BUNDLE') = $host_certs ]"
env_out=$(sbx run -- env)
for v in SSL_CERT_FILE NODE_EXTRA_CA_CERTS REQUESTS_CA_BUNDLE CURL_CA_BUNDLE GIT_SSL_CAINFO PIP_CERT; do
	check "$v names the bundle" grep -qx "$v=$BUNDLE" <<<"$env_out"
done
expect_eq "curl trusts it" "$(sbx run -- curl -sS "$URL")" hello
expect_eq "curl with no CA variable (the mounted bundle)" \
	"$(sbx run -- env -u SSL_CERT_FILE -u CURL_CA_BUNDLE curl -sS "$URL")" hello
expect_eq "Python urllib trusts it" "$(sbx run -- "$PY" -c '
import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' "$URL")" hello
if command -v node >/dev/null; then
	# Node's https has no proxy support of its own: CONNECT by hand,
	# then TLS with Node's default trust (NODE_EXTRA_CA_CERTS).
	out=$(sbx run -- node -e '
const http = require("http"), https = require("https"), tls = require("tls");
const p = new URL(process.env.HTTPS_PROXY), u = new URL(process.argv[1]);
http.request({host: p.hostname, port: p.port, method: "CONNECT",
              path: u.host}).on("connect", (res, sock) => {
  https.get(u, {socket: sock, agent: false, servername: u.hostname,
                createConnection: () => tls.connect({socket: sock,
                  servername: u.hostname})}, (r) => {
    r.setEncoding("utf8"); r.on("data", (d) => process.stdout.write(d));
  }).on("error", (e) => { console.error(e.message); process.exit(1); });
}).end();' "$URL" 2>"$T/node.err")
	expect_eq "Node https trusts it" "$out" hello
	[ "$out" = hello ] || cat "$T/node.err" >&2
fi
if command -v go >/dev/null; then
	# Go reads the system's bundle (SSL_CERT_FILE unset here): the
	# mounted one. Built on the host, static.
	mkdir -p "$WS/go"
	cat >"$WS/go/get.go" <<'GO'
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	r, err := http.Get(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer r.Body.Close()
	io.Copy(os.Stdout, r.Body)
}
GO
	(cd "$WS/go" && GOCACHE="$T/gocache" GOPATH="$T/gopath" CGO_ENABLED=0 \
		GO111MODULE=off go build -o get get.go) || fail "go build"
	expect_eq "Go's net/http trusts it with no CA variable" \
		"$(sbx run -- env -u SSL_CERT_FILE -u SSL_CERT_DIR go/get "$URL" 2>"$T/go.err")" hello
	grep -q . "$T/go.err" && cat "$T/go.err" >&2
fi
stop_daemon

# No request rules: no inspection, no change to trust.
start_web_daemon ''
expect_eq "without inspection the bundle is the host's" \
	"$(sbx run -- grep -c "BEGIN CERTIFICATE" "$BUNDLE")" "$host_certs"
check "... and no CA variable is set" bash -c "! sbx run -- env | grep -q '^SSL_CERT_FILE='"
stop_daemon
done_test
