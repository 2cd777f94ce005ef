#!/bin/bash
# A program that ignores the proxy variables and resolves or connects by
# itself (python's getaddrinfo, Node's built-in fetch, ssh) fails with
# "Temporary failure in name resolution"; after it, `sbxctl run` says
# that the sandbox has no direct network and programs must use the proxy.
# In a network namespace the sandbox's init counts what the namespace
# could not route; without one (--no-netns) sbxd counts the resolver
# sockets and connects it refused. Nothing is said when nothing tried,
# or when the command succeeded. With transparent capture a network
# namespace has DNS and routes (t-capture): then only the part without one
# runs here.
. "$(dirname "$0")/lib.sh"
LINE="sbx: a program tried to reach the network directly (N times: a name lookup or a connection), and the sandbox has no direct network: programs must use the proxy (HTTP_PROXY and HTTPS_PROXY are set in the sandbox); some ignore them (Node's built-in fetch, ssh)"
# The count depends on the resolver's retries: N.
said() { sed 's/directly ([0-9]* times\{0,1\}:/directly (N times:/' "$T/err"; }
lookup() { printf '%s' "import socket, sys
try:
    socket.getaddrinfo('$1', 443)
except socket.gaierror as e:
    print(e.args[1]); sys.exit(1)"; }
start_daemon
cd "$WS"
# The first part needs the sandboxes' own network namespaces; the test
# runs --no-netns itself below.
sbx status | grep -Eq '^namespaces: .*\<net\>' ||
	skip "no network namespaces for sandboxes here (SBXD_ARGS=${SBXD_ARGS:-})"
captured=1
sbx status | grep -q 'no transparent capture' && captured=0
[ $captured = 1 ] && echo "note: transparent capture: namespace part not run"
if [ $captured = 0 ]; then
sbx run -- "$PY" -c "$(lookup example.com)" >"$T/out" 2>"$T/err"
expect_eq "python: the lookup fails as it would offline" "$(cat "$T/out")" \
	"Temporary failure in name resolution"
expect_eq "python getaddrinfo: the line, and only it" "$(said)" "$LINE"
if command -v node >/dev/null; then
	sbx run -- node -e 'fetch("https://example.com/").catch((e) => {
		console.log(e.cause && e.cause.code); process.exit(1); })' \
		>"$T/out" 2>"$T/err"
	expect_eq "node fetch: EAI_AGAIN" "$(cat "$T/out")" EAI_AGAIN
	expect_eq "node fetch: the line" "$(said)" "$LINE"
else
	echo "note: node not installed"
fi
if command -v ssh >/dev/null; then
	sbx run -- ssh -o BatchMode=yes -F /dev/null example.com true \
		>"$T/out" 2>"$T/err"
	check "ssh: could not resolve" \
		grep -q "Temporary failure in name resolution" "$T/err"
	expect_eq "ssh: the line" "$(grep '^sbx:' "$T/err" |
		sed 's/directly ([0-9]* times\{0,1\}:/directly (N times:/')" "$LINE"
else
	echo "note: ssh not installed"
fi
# Nothing tried: nothing said (a name from /etc/hosts, then a failure).
sbx run -- "$PY" -c "$(lookup localhost); sys.exit(1)" >/dev/null 2>"$T/err"
expect_eq "a failure with no direct attempt: no line" "$(cat "$T/err")" ""
# A success says nothing, and --json carries the count.
sbx run -- sh -c "$PY -c \"$(lookup example.com)\"; exit 0" >/dev/null 2>"$T/err"
expect_eq "after a success: no line" "$(cat "$T/err")" ""
sbx run --json -- "$PY" -c "$(lookup example.com)" >/dev/null 2>"$T/err"
check "--json: direct_net counted" "$PY" -c '
import json, sys
sys.exit(0 if json.loads(open(sys.argv[1]).read().splitlines()[-1])["direct_net"] > 0 else 1)' "$T/err"
fi
stop_daemon

# Without a network namespace: the resolver's UDP socket is refused (and
# listed), and the same line follows.
start_daemon --no-netns
sbx run -- "$PY" -c "$(lookup example.com)" >"$T/out" 2>"$T/err"
check "--no-netns: the refused resolver socket is listed" grep -q \
	"^sbx: blocked syscall socket(AF_INET, SOCK_DGRAM|SOCK_NONBLOCK) (builtin seccomp deny set, rule seccomp.ip-socket)" "$T/err"
expect_eq "--no-netns: the line" "$(grep -v '^sbx: blocked' "$T/err" |
	sed 's/directly ([0-9]* times\{0,1\}:/directly (N times:/')" "$LINE"
stop_daemon

# Privileged mode: the init counts in the sandbox's namespace all the same.
user=${SBX_TEST_USER:-sbxtest}
if [ $captured = 0 ] && [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	chown -R "$user": "$WS"
	chmod 755 "$T"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	setpriv --reuid="$user" --regid="$user" --init-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- \
		"$PY" -c "$(lookup example.com)" >/dev/null 2>"$T/err"
	expect_eq "privileged: the line" "$(said)" "$LINE"
	stop_daemon
fi
done_test
