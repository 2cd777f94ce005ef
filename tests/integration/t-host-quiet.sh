#!/bin/bash
# What an idle daemon costs the rest of the host: its warm sandboxes hold
# no Unix socket in flight (sent and not yet received). While one is, the
# kernel queues its socket garbage collector on every close of any Unix
# socket by any process. Counted with a tracefs instance of our own on
# the collector's work item (root only). And what each sandbox costs to
# make: its processes carry none of the daemon's libraries but libc
# (fewer mappings to copy at fork and tear down at exit).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs)"
tr=/sys/kernel/tracing
[ -d "$tr/instances" ] || mount -t tracefs nodev "$tr" 2>/dev/null
[ -d "$tr/instances/" ] || skip "no tracefs"
addr=$(awk '$3 == "__unix_gc" { print $1; exit }' /proc/kallsyms)
case $addr in "" | 0000000000000000) skip "no __unix_gc in kallsyms" ;; esac
inst=$tr/instances/sbx-quiet-$$
mkdir "$inst" || skip "cannot make a tracefs instance"
trap 'rmdir "$inst" 2>/dev/null; cleanup' EXIT
ev=$inst/events/workqueue/workqueue_queue_work
echo "function == 0x$addr" >"$ev/filter"

# gc_queued: how often 200 socketpairs made and closed queue the collector.
gc_queued() {
	echo >"$inst/trace"
	echo 1 >"$ev/enable"
	"$PY" -c '
import socket
for _ in range(200):
    a, b = socket.socketpair()
    a.close(); b.close()'
	echo 0 >"$ev/enable"
	grep -c workqueue_queue_work "$inst/trace"
}
[ "$(gc_queued)" -eq 0 ] || skip "the host already has Unix sockets in flight"

start_daemon
cd "$WS"
sbx run -- true
# Readiness: every warm sandbox's command process waits for its job
# (blocked in recvmsg), fully built.
"$PY" - "$DPID" <<'PY' || fail "warm sandboxes did not get ready"
import os, platform, sys, time
recvmsg = {"x86_64": 47, "aarch64": 212}[platform.machine()]
def kids(pid):
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1] == str(pid):
                    out.append(int(p))
            except OSError:
                pass
    return out
def tree(pid):
    out, todo = [], [pid]
    while todo:
        k = kids(todo.pop())
        out += k
        todo += k
    return out
end = time.monotonic() + 20
while time.monotonic() < end:
    waiting = 0
    for p in tree(int(sys.argv[1])):
        try:
            if open(f"/proc/{p}/comm").read().strip() == "sbx-init" and \
               open(f"/proc/{p}/syscall").read().split()[0] == str(recvmsg):
                waiting += 1
        except (OSError, IndexError):
            pass
    if waiting >= 2:
        sys.exit(0)
    time.sleep(0.01)
sys.exit(1)
PY
expect_eq "no socket collector runs for other processes' closes" "$(gc_queued)" 0
libs=$(for p in $(pgrep -x sbx-init; pgrep -x sbx-supervise); do
	grep -E 'lib(crypto|event|systemd|jansson|protobuf-c|seccomp)' "/proc/$p/maps"
done | wc -l)
expect_eq "warm sandbox processes map none of sbxd's other libraries" "$libs" 0
check "sbxd itself maps them" grep -q libcrypto "/proc/$DPID/maps"
# And the warm sandboxes still work (they get their records with the job).
expect_eq "a warm sandbox runs" "$(sbx run -- echo hi)" hi
stop_daemon
done_test
