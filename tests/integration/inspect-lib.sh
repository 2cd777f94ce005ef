# Shared by the TLS inspection tests (sourced after proxy-lib.sh): a test
# CA standing for a corporate one, a server certificate it signs for
# l7.test and other.test, a self-signed one for bad.test, and servers.
command -v curl >/dev/null || skip "curl not installed"
command -v openssl >/dev/null || skip "openssl not installed"
mkcert() { # mkcert NAME SANS [CA]: $T/NAME.pem, $T/NAME.key
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T/$1.key" -out "$T/$1.csr" -subj "/CN=$1" \
		>/dev/null 2>&1 || return 1
	printf 'subjectAltName=%s\n' "$2" >"$T/$1.ext"
	if [ -n "${3:-}" ]; then
		openssl x509 -req -in "$T/$1.csr" -CA "$T/$3.pem" \
			-CAkey "$T/$3.key" -CAcreateserial -days 1 \
			-extfile "$T/$1.ext" -out "$T/$1.pem" >/dev/null 2>&1
	else
		openssl x509 -req -in "$T/$1.csr" -signkey "$T/$1.key" \
			-days 1 -extfile "$T/$1.ext" -out "$T/$1.pem" \
			>/dev/null 2>&1
	fi
}
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$T/corp.key" -out "$T/corp.pem" -days 1 -subj "/CN=test corp CA" \
	-addext basicConstraints=critical,CA:TRUE >/dev/null 2>&1 &&
	mkcert srv "DNS:l7.test,DNS:other.test" corp &&
	mkcert bad "DNS:bad.test" || skip "openssl cannot make test certificates"
HOSTS="127.0.0.1 l7.test other.test bad.test"

# start_web_daemon RULES: server "web" (l7.test at $WEB, $URL its
# hello.txt) and a daemon whose policy allows it with request rules
# RULES ('' for none: no inspection); cd to the workspace.
start_web_daemon() {
	[ -n "${WEB:-}" ] || {
		start_server web http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
		WEB=$SRV_PORT
	}
	rm -f "$T/policy.json"
	start_proxy_daemon "$(printf '{"network": {"allowedDomains": ["l7.test", "127.0.0.1:%s"],
	  "requestRules": [%s]}}' "$WEB" "$1")" "$HOSTS" --upstream-ca "$T/corp.pem"
	cd "$WS"
	URL="https://l7.test:$WEB/hello.txt"
}
