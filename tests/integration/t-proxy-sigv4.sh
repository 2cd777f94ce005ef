#!/bin/bash
# AWS SigV4 credentials: the sandbox has sentinels for the access key id
# and the secret and signs with them; sbxd signs each request again with
# the real ones on the way to the credential's host (the server verifies
# with the real secret); presigned, streaming and body-without-hash forms
# are refused with the reason; the real values never enter the sandbox.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
KID=AKIA$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Z0-9' | head -c 16)
[ ${#KID} = 20 ] || skip "cannot make keys"
make_token SECRET "" 40
SIGV4_SECRET=$SECRET start_server aws http --tls "$T/srv.pem" "$T/srv.key" "$T/www"
AWS=$SRV_PORT
start_cred_daemon '{"network": {
  "allowedDomains": ["l7.test", "127.0.0.1:'"$AWS"'"],
  "credentials": [{"id": "aws", "env": "AWS_SECRET_ACCESS_KEY",
                   "sigv4": "AWS_ACCESS_KEY_ID", "hosts": ["l7.test"]}]}}'
export AWS_ACCESS_KEY_ID=$KID AWS_SECRET_ACCESS_KEY=$SECRET
env_in=$(sbx run -- env)
skid=$(grep '^AWS_ACCESS_KEY_ID=' <<<"$env_in" | cut -d= -f2)
check "the key id inside is a sentinel" test "$skid" != "$KID"
expect_eq "... of its length" "${#skid}" 20
check "so is the secret" bash -c "grep -q '^AWS_SECRET_ACCESS_KEY=' <<<'$env_in' && ! grep -q -e '$SECRET' -e '$KID' <<<'$env_in'"

out=$(sbx run -- "$PY" "$HERE/sigv4.py" get "https://l7.test:$AWS/hello.txt" 2>"$T/err")
expect_eq "signed inside with the sentinels, accepted" "$out" "200 hello"
check "... the server verified the real key's signature" grep -qx "sigv4 $KID ok" "$T/aws.log"
# A server that echoes the request (S3's SignatureDoesNotMatch answers
# carry the Authorization's key id) shows the sandbox no real key id.
out=$(sbx run -- sh -c 'printenv AWS_ACCESS_KEY_ID; "$0" "$1" get "$2"' \
	"$PY" "$HERE/sigv4.py" "https://l7.test:$AWS/headers" 2>"$T/err")
check "an echoed Authorization comes back with the sentinel key id" grep -q "Credential=$(head -1 <<<"$out")/" <<<"$out"
check "... never the real one" bash -c "! grep -q '$KID' <<<'$out'"
n=$(grep -c '^req' "$T/aws.log")
out=$(sbx run -- "$PY" "$HERE/sigv4.py" get "https://l7.test:$AWS/hello.txt" \
	STREAMING-AWS4-HMAC-SHA256-PAYLOAD 2>"$T/err")
expect_eq "a streaming payload: 403" "$out" 403
check "... with the reason" grep -q "a streaming SigV4 payload is not signed again" "$T/err"
out=$(sbx run -- "$PY" -c '
import sys, urllib.request
try: urllib.request.urlopen(sys.argv[1])
except urllib.error.HTTPError as e: print(e.code)' \
	"https://l7.test:$AWS/k?X-Amz-Credential=x&X-Amz-Signature=0" 2>"$T/err")
expect_eq "a presigned URL: 403" "$out" 403
check "... with the reason" grep -q "a presigned URL is not signed again" "$T/err"
expect_eq "neither reached the server" "$(grep -c '^req' "$T/aws.log")" "$n"
stop_daemon
check "the real values are not in sbxd's log" bash -c "! grep -aq -e '$SECRET' -e '$KID' '$T/sbxd.log'"
done_test
