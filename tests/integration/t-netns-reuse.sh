#!/bin/bash
# A template uses a session's network namespace again (it is costly to make
# and to tear down) only after that session ended cleanly: never one that
# another running session has, never a killed session's. A session marks
# its namespace by moving 4 MB over loopback; the lo counters of later
# sandboxes tell whose namespace they got.
. "$(dirname "$0")/lib.sh"
case " ${SBXD_ARGS:-} " in *" --no-netns "*) skip "no network namespaces" ;; esac
start_daemon
cd "$WS"
MARK=4000000
cat >"$T/pump.py" <<'PY'
import socket
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
c = socket.create_connection(srv.getsockname())
s, _ = srv.accept()
left = 4000000
while left:
    left -= c.send(b"x" * min(left, 65536))
    s.recv(1 << 20)
PY
chmod 644 "$T/pump.py"
lo_rx() { sbx run -- sh -c "awk '/lo:/{print \$2}' /proc/net/dev"; }
ns_of() { sbx run -- readlink /proc/self/ns/net; }

sbx run -- true # the template, and its warm sandboxes
if ! sbx run -- readlink /proc/self/ns/net >/dev/null; then
	skip "no /proc/self/ns/net in the sandbox"
fi

# Concurrent sessions never share one.
mkfifo "$T/hold" "$T/a"
exec 3<>"$T/hold"
sbx run -- sh -c 'readlink /proc/self/ns/net; read x' <&3 >"$T/a" &
held=$!
read -r ns_a <"$T/a"
shared=""
for i in 1 2 3 4 5; do
	n=$(ns_of)
	[ "$n" = "$ns_a" ] && shared="$shared $i"
done
expect_eq "no sandbox gets a running session's namespace" "$shared" ""
echo go >&3
wait "$held"
expect_eq "held session exits 0" "$?" 0

# A killed session's namespace is not used again.
mkfifo "$T/k"
sbx run -- sh -c "$PY $T/pump.py && echo pumped && exec sleep 1000" >"$T/k" &
killed=$!
read -r line <"$T/k"
expect_eq "killed session moved its marker" "$line" pumped
kill -KILL "$killed"
wait "$killed" 2>/dev/null
sbx status >/dev/null # one round trip: the daemon has handled the drop
seen=""
for i in 1 2 3 4 5 6; do
	rx=$(lo_rx)
	[ "${rx:-0}" -ge "$MARK" ] && seen="$seen $rx"
done
expect_eq "no later sandbox has the killed session's namespace" "$seen" ""

# A clean session's namespace is used again (that is the point), and
# nothing of the session runs in it: its listener is gone.
out=$(sbx run -- sh -c "$PY $T/pump.py && echo pumped && readlink /proc/self/ns/net")
expect_eq "clean session pumped" "$(head -1 <<<"$out")" pumped
ns_c=$(tail -1 <<<"$out")
reused=""
want=2
sbx status | grep -q 'no transparent capture' || want=3
for i in 1 2 3 4 5 6 7 8; do
	out=$(sbx run -- sh -c "readlink /proc/self/ns/net; awk '/lo:/{print \$2}' /proc/net/dev; awk 'NR>1 && \$4==\"0A\"' /proc/net/tcp | wc -l")
	if [ "$(head -1 <<<"$out")" = "$ns_c" ]; then
		reused=yes
		rx=$(sed -n 2p <<<"$out")
		check "reused namespace carries the clean session's traffic" \
			test "$rx" -ge "$MARK"
		# IPv4 listeners: this sandbox's own proxy ports (with
		# capture also its capture port), nothing else.
		expect_eq "only the proxy listens there" "$(sed -n 3p <<<"$out")" "$want"
	fi
done
expect_eq "a clean session's namespace serves again" "$reused" yes
# The proxy works from a namespace used again.
check "proxy listeners answer in a reused namespace" \
	sbx run -- bash -c 'exec 3<>/dev/tcp/127.0.0.1/3128'
stop_daemon
done_test
