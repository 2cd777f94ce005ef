# Shared by the credential tests (sourced after lib.sh): inspect-lib.sh's
# certificates and names, tokens, the HTTPS servers credentials go to or
# must not, scripts that stand for a credential's command, and a daemon
# whose user layer names the credentials.
. "$HERE/proxy-lib.sh"
. "$HERE/inspect-lib.sh"

# make_token VAR PREFIX N: VAR is PREFIX and N random letters and digits
# (the test is skipped when they cannot be made).
make_token() {
	local t
	t=$2$(head -c 1024 /dev/urandom | tr -dc 'A-Za-z0-9' | head -c "$3")
	[ ${#t} = $((${#2} + $3)) ] || skip "cannot make a token"
	printf -v "$1" '%s' "$t"
}

# start_api [other]: server api (l7.test at $API, logging the
# Authorization it gets) and, with "other", server other (other.test at
# $OTHER); $ALLOW lists them for allowedDomains.
start_api() {
	start_server api http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
	API=$SRV_PORT
	ALLOW='"l7.test", "127.0.0.1:'$API'"'
	[ "${1:-}" = other ] || return 0
	start_server other http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
	OTHER=$SRV_PORT
	ALLOW='"l7.test", "other.test", "127.0.0.1:'$API'", "127.0.0.1:'$OTHER'"'
}

# start_cred_daemon POLICY_JSON: a daemon with that user layer, resolving
# the test names and trusting their CA upstream; cd to the workspace.
start_cred_daemon() {
	start_proxy_daemon "$1" "$HOSTS" --upstream-ca "$T/corp.pem"
	cd "$WS"
}

# cred_script NAME LINE...: $T/NAME, a shell script of those lines that
# any user can run (a credential's command); $T/out, which any user can
# write, for what the scripts record.
cred_script() {
	local name=$1
	shift
	[ -d "$T/out" ] || mkdir -m 777 "$T/out"
	{ echo '#!/bin/sh'; printf '%s\n' "$@"; } >"$T/$name"
	chmod 755 "$T" "$T/$name"
}

# command_policy ID SCRIPT: a user layer whose one credential, ID, is
# what $T/SCRIPT prints, for l7.test at $API (start_api first).
command_policy() {
	printf '{"network": {"allowedDomains": [%s],
	  "credentials": [{"id": "%s", "command": ["%s"], "hosts": ["l7.test:%s"],
	                   "format": "Bearer {}"}]}}' "$ALLOW" "$1" "$T/$2" "$API"
}
