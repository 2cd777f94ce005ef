#!/bin/bash
# A credential whose source is a command run outside the sandbox: the
# test's HTTPS server gets what the command printed, the sandbox only a
# sentinel; the command runs with PATH and HOME only, as the served user
# (in privileged mode too); one that hangs is killed after its 3 s timeout
# and the run starts without that credential, saying so.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL gho_ 36
cred_script token.sh "id -u >\"$T/out/uid\"" "env >\"$T/out/env\"" \
	"echo \"$REAL\"" "echo second line"
cred_script hang.sh "echo \$\$ >\"$T/out/hang.pid\"" "exec sleep 600"
start_api
POLICY='{"network": {
  "allowedDomains": ['"$ALLOW"'],
  "credentials": [{"id": "gh", "command": ["'"$T/token.sh"'"], "hosts": ["l7.test:'"$API"'"],
                   "format": "Bearer {}"},
                  {"id": "stuck", "command": ["hang.sh", "x"], "hosts": ["l7.test:'"$API"'"],
                   "header": "X-Stuck"}]},
  "filesystem": {"denyRead": ["'"$T/token.sh"'", "'"$T/out"'"]}}'
start_cred_daemon "$POLICY"
# hang.sh found through the client's PATH. The run's start waits the
# 3 s the hanging command gets; the client's wait for an answer (5 s by
# default) is raised so a loaded machine does not make that flaky.
export PATH="$T:$PATH" SECRET_NOT_PASSED=1 SBX_CONNECT_TIMEOUT=30

out=$(sbx run -- curl -sS "https://l7.test:$API/headers" 2>"$T/err")
check "the command's first line went as the header" grep -qx "auth Bearer $REAL" "$T/api.log"
check "the echo came back as a sentinel" bash -c "grep -Eq '^Authorization: Bearer gho_[A-Za-z0-9]{36}\$' <<<'$out' && ! grep -q '$REAL' <<<'$out'"
check "the hanging command's credential skipped, said on stderr" grep -q "sbx: credential stuck skipped: its command hang.sh did not finish in 3 s: killed" "$T/err"
check "... its header not sent" bash -c "! grep -qi x-stuck '$T/api.log'"
pid=$(cat "$T/out/hang.pid")
check "... and the command killed" bash -c "! kill -0 $pid 2>/dev/null"
expect_eq "the command ran as the daemon's user" "$(cat "$T/out/uid")" "$(id -u)"
check "... with PATH and HOME only" bash -c "grep -q '^PATH=$T:' '$T/out/env' && ! grep -q SECRET_NOT_PASSED '$T/out/env'"
stop_daemon
check "the value is not in sbxd's log" bash -c "! grep -aq '$REAL' '$T/sbxd.log'"
check "... which says why stuck was skipped" grep -q "credential stuck skipped" "$T/sbxd.log"

# Privileged mode: the command runs as the served user, not root.
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	need_served_user
	rm -f "$T/out/uid"
	H=$T/home
	mkdir -p "$H" && chown "$user": "$H" "$WS"
	start_daemon --user "$user" --home "$H" --policy "$T/policy.json" \
		--hosts-file "$T/hosts" --upstream-ca "$T/corp.pem"
	chmod 755 "$XDG_RUNTIME_DIR"
	as env HOME="$H" PATH="$PATH" "$BIN/sbxctl" --no-autostart --socket "$SOCK" \
		run -- curl -sS -o /dev/null "https://l7.test:$API/headers" 2>"$T/err2"
	expect_eq "privileged: the command ran as the served user" "$(cat "$T/out/uid")" "$(id -u "$user")"
	expect_eq "... and the server got the token" "$(grep -cx "auth Bearer $REAL" "$T/api.log")" 2
	stop_daemon
fi
done_test
