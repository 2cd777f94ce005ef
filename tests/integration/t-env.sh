#!/bin/bash
# The caller's environment, judged from the host: what developers' tools
# need passes with its value; secrets (credential-looking names, known
# credential and agent variables, a URL with a password, a token by its
# shape) are withheld, and their names, never their values, are in the
# failed run's sbx line, --json, describe and policy explain. env.pass
# naming a variable exactly (user layer) passes it; a workspace cannot;
# env.deny withholds; -e passes as asked. The values appear nowhere: not
# in any output, the daemon's log or the event stream.
. "$(dirname "$0")/lib.sh"
M="sbxenvmark$$x"
# NAME=value in the order sbxctl sends them (env -i keeps it).
PASS=(NODE_ENV=test "DATABASE_URL=postgres://app@localhost/dev"
	NODE_OPTIONS=--no-warnings PYTHONPATH=/src/lib VIRTUAL_ENV=/src/.venv
	CC=clang "CFLAGS=-O2 -g" JAVA_HOME=/usr/lib/jvm/x
	SSL_CERT_FILE=/etc/ssl/x.pem NODE_EXTRA_CA_CERTS=/etc/ssl/y.pem
	REQUESTS_CA_BUNDLE=/etc/ssl/z.pem TOKENIZERS_PARALLELISM=false
	GIT_AUTHOR_NAME=A AWS_REGION=eu-west-1 AWS_CA_BUNDLE=/etc/ssl/a.pem)
HELD=(GITHUB_TOKEN=$M-1 OPENAI_API_KEY=$M-2 DB_PASSWORD=$M-3
	AWS_SECRET_ACCESS_KEY=$M-4 AWS_SESSION_TOKEN=$M-5 SSH_AUTH_SOCK=/run/$M-6
	GPG_AGENT_INFO=/run/$M-7 "REDIS_URL=redis://app:$M-8@localhost/0"
	DEPLOY_ID=ghp_$M-9)
names() { local e; for e in "$@"; do printf '%s\n' "${e%%=*}"; done; }
HELD_LIST=$(names "${HELD[@]}" | paste -sd, | sed 's/,/, /g')
# sbxctl with exactly this environment (the test's daemon socket, PATH).
ctl() { env -i PATH="$PATH" HOME="$HOME" "${PASS[@]}" "${HELD[@]}" \
	"$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_daemon
cd "$WS"
sbx events --json >"$T/events" 2>&1 &
EV=$!

ctl run -- env >"$T/out" 2>"$T/err"
for e in "${PASS[@]}"; do
	check "passes: $e" grep -qxF "$e" "$T/out"
done
for e in "${HELD[@]}"; do
	check "withheld: ${e%%=*}" eval '! grep -q "^${e%%=*}=" "$T/out"'
done
check "no sbx line after a command that succeeded" \
	eval '! grep -q "^sbx:" "$T/err"'

ctl run -- sh -c 'exit 3' 2>"$T/err"
expect_eq "a failed command's line names them" "$(cat "$T/err")" \
	"sbx: withheld from the command's environment (secrets): $HELD_LIST — \`sbxctl policy explain env:NAME\` says why; the user passes one with env.pass or \`sbxctl run -e NAME=value\`"
ctl --json run -- true >"$T/json" 2>&1
expect_eq "--json lists them, even after success" "$("$PY" -c '
import json, sys
print(", ".join(json.loads(open(sys.argv[1]).read().splitlines()[-1])["env_withheld"]))' "$T/json")" "$HELD_LIST"
ctl describe >"$T/describe"
check "describe lists them" grep -qxF -e \
	"- Withheld from the environment (secrets; \`sbxctl policy explain env:NAME\` says why): $HELD_LIST" "$T/describe"
ctl --json describe >"$T/describe.json"
expect_eq "describe --json too" "$("$PY" -c '
import json, sys
print(", ".join(json.load(open(sys.argv[1]))["env_withheld"]))' "$T/describe.json")" "$HELD_LIST"
ctl policy explain env:REDIS_URL >"$T/explain" 2>&1
check "explain: a URL with a password" grep -q \
	"^deny env REDIS_URL: its value is a URL with a password" "$T/explain"
ctl policy explain env:GITHUB_TOKEN >>"$T/explain" 2>&1
check "explain: a credential-looking name" grep -q \
	"^deny env GITHUB_TOKEN: a credential-looking name (TOKEN)" "$T/explain"
ctl policy explain env:NODE_ENV >>"$T/explain" 2>&1
check "explain: what passes" grep -q \
	"^allow env NODE_ENV: not a secret by name or value" "$T/explain"
out=$(ctl run -e GITHUB_TOKEN=asked -- sh -c 'echo "$GITHUB_TOKEN"')
expect_eq "-e passes as asked" "$out" asked
# One violation, so the event stream has something to carry.
ctl run -- "$BIN/sbx-probe" socket 17 3 0 >/dev/null 2>&1
stop_daemon
wait "$EV" 2>/dev/null

# The user's env.pass naming REDIS_URL exactly passes it; a glob does not
# pass a secret; env.deny withholds; a workspace naming GITHUB_TOKEN
# cannot pass it.
printf '%s\n' '{"env": {"pass": ["REDIS_URL", "*"], "deny": [{"name": "NODE_ENV", "id": "no-node-env", "reason": "tests set their own"}]}}' >"$T/policy.json"
mkdir -p "$WS/.sbx"
printf '%s\n' '{"env": {"pass": ["GITHUB_TOKEN", "REDIS_URL", "PATH", "CC"]}}' >"$WS/.sbx/policy.json"
start_daemon --policy "$T/policy.json"
ctl run -- env >"$T/out2" 2>"$T/err2"
check "env.pass naming it exactly (user layer) passes a secret" \
	grep -qxF "REDIS_URL=redis://app:$M-8@localhost/0" "$T/out2"
check "a workspace naming GITHUB_TOKEN does not pass it" \
	eval '! grep -q "^GITHUB_TOKEN=" "$T/out2"'
check "the workspace's env.pass narrows (CFLAGS is not in it)" \
	eval '! grep -q "^CFLAGS=" "$T/out2" && grep -qx "CC=clang" "$T/out2"'
check "env.deny withholds" eval '! grep -q "^NODE_ENV=" "$T/out2"'
ctl policy explain env:NODE_ENV >"$T/explain2" 2>&1
check "explain cites the env.deny rule" grep -q \
	"^deny env NODE_ENV: matches env.deny" "$T/explain2"
stop_daemon

# The values: nowhere but in the one run that was allowed them.
for f in "$T/err" "$T/json" "$T/describe" "$T/describe.json" "$T/explain" \
	"$T/events" "$T/err2" "$T/explain2" "$T/sbxd.log"; do
	check "no withheld value in $(basename "$f")" eval '! grep -q "$M" "$f"'
done
check "the event stream carried the violation" grep -q '"kind"' "$T/events"
done_test
