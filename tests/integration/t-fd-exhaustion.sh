#!/bin/bash
# One sandbox takes every proxy file descriptor it can (tunnels that carry
# data both ways, kept open) while others work. It is refused at its share
# of the daemon's fd budget, and meanwhile `sbxctl status` answers within a
# second, a new run starts and a second session's proxy connection works.
# When the daemon's fd limit itself runs out (lowered under it), accepting
# pauses instead of spinning, status still answers (the reserve fd), a
# connection made meanwhile is served once fds come free, and the log stays
# small throughout.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v prlimit >/dev/null || skip "prlimit not installed"
NOFILE=256
start_server web http "$T/www"
WEB=$SRV_PORT
SBXD_WRAP="prlimit --nofile=$NOFILE:$NOFILE ${SBXD_WRAP:-}" \
	start_proxy_daemon '{"network": {"allowedDomains": ["127.0.0.1"]}}'
cd "$WS"
REQ="GET /hello.txt HTTP/1.1\\r\\nHost: 127.0.0.1:$WEB\\r\\nConnection: close\\r\\n\\r\\n"
log_size() { stat -c %s "$T/sbxd.log"; }
# A bound on the answer, not a benchmark: a daemon that spins or waits for
# an fd does not answer at all.
status_1s() { timeout 1 sbx status >/dev/null; }
# A proxy connection through a tunnel: "done N", N bytes of answer.
FETCH=("$PY" "$HERE/proxyprobe.py" tunnel 127.0.0.1 "$WEB" "$REQ")

# 1. The fd share. The hog reads "go", opens tunnels until refused, says
# so, and holds them until the next line.
mkfifo "$T/a.in" "$T/a.out"
sbx run -- "$PY" "$HERE/fdhog.py" 127.0.0.1 "$WEB" /hello.txt \
	<"$T/a.in" >"$T/a.out" 2>"$T/a.err" &
apid=$!
exec 7>"$T/a.in"
exec 9<"$T/a.out"
line=
read -r -t 60 line <&9
expect_eq "the hog runs" "$line" ready
echo go >&7
read -r -t 120 line <&9
echo "hog: $line; daemon fds: $(fd_count "$DPID") of $NOFILE"
check "the hog is refused by the proxy with a 503 ($line)" \
	grep -Eq '^held [1-9][0-9]* refused: HTTP/1.1 503' <<<"$line"
check "the daemon keeps fds of its own" \
	test "$(fd_count "$DPID")" -lt $((NOFILE * 3 / 4 + 32))
check "status answers within 1 s" status_1s
out=$(timeout 60 sbx run -- true 2>&1)
check "a new run works ($out)" test $? -eq 0
out=$(timeout 60 sbx run -- "${FETCH[@]}" 2>&1)
check "a second session's proxy connection works ($out)" grep -q '^done [1-9]' <<<"$out"
echo end >&7
exec 7>&- 9<&-
wait_exit "$apid" 30
check "the hog's run ends" test $? -eq 0
check "the log stays small ($(log_size) bytes)" test "$(log_size)" -lt 1048576

# 2. The daemon's own limit, lowered under its budget: the hog runs into
# EMFILE. A bystander session started before waits to make its connection.
# Without a network namespace the daemon makes the sandbox's connect()
# calls itself: at EMFILE they are refused (EACCES), not left unanswered.
mkfifo "$T/b.in" "$T/b.out" "$T/c.in" "$T/c.out"
sbx run -- bash -c 'echo ready; read -r x; exec "$@"' - "${FETCH[@]}" \
	<"$T/b.in" >"$T/b.out" 2>&1 &
bpid=$!
exec 8>"$T/b.in"
exec 6<"$T/b.out"
read -r -t 60 line <&6
expect_eq "the bystander runs" "$line" ready
sbx run -- "$PY" "$HERE/fdhog.py" 127.0.0.1 "$WEB" /hello.txt \
	<"$T/c.in" >"$T/c.out" 2>"$T/c.err" &
cpid=$!
exec 7>"$T/c.in"
exec 9<"$T/c.out"
# Its sandbox is whole (holding what fds it holds) once the command runs.
read -r -t 60 line <&9
expect_eq "the second hog runs" "$line" ready
limit=$(( $(fd_count "$DPID") + 40 ))
prlimit --pid "$DPID" --nofile=$limit:$limit
echo go >&7
read -r -t 120 line <&9
echo "hog: $line; daemon fds: $(fd_count "$DPID") of $limit"
check "the hog was stopped ($line)" grep -Eq '^held [1-9][0-9]* refused: ' <<<"$line"
check "the daemon is at its fd limit" test "$(fd_count "$DPID")" -ge $((limit - 2))
check "status answers within 1 s at EMFILE" status_1s
check "... and again" status_1s
before=$(log_size)
echo go >&8
# The bystander's connection waits in the backlog; freeing the hog's
# tunnels lets the daemon take it.
echo end >&7
exec 7>&-
line=
read -r -t 60 line <&6
check "the bystander's connection is served once fds are free ($line)" \
	grep -q '^done [1-9]' <<<"$line"
exec 8>&-
wait_exit "$bpid" 30
wait_exit "$cpid" 30
out=$(timeout 60 sbx run -- true 2>&1)
check "a new run works after ($out)" test $? -eq 0
echo "log: $(log_size) bytes ($before before the bystander's turn)"
check "the log stays small ($(log_size) bytes)" test "$(log_size)" -lt 1048576
stop_daemon
done_test
