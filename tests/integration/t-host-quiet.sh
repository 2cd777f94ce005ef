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
wait_for "warm sandboxes" warm_ready 2
# The least of three samples: another process on the host may send fds
# meanwhile; the daemon's own sockets would show in every sample.
least=$( (gc_queued; gc_queued; gc_queued) | sort -n | head -1)
expect_eq "no socket collector runs for other processes' closes" "$least" 0
check "warm sandbox processes found" test -n "$(daemon_procs sbx-init)"
libs=$(for p in $(daemon_procs sbx-init; daemon_procs sbx-supervise); do
	grep -E 'lib(crypto|event|systemd|jansson|protobuf-c|seccomp)' "/proc/$p/maps"
done | wc -l)
expect_eq "warm sandbox processes map none of sbxd's other libraries" "$libs" 0
check "sbxd itself maps them" grep -q libcrypto "/proc/$DPID/maps"
# And the warm sandboxes still work (they get their records with the job).
expect_eq "a warm sandbox runs" "$(sbx run -- echo hi)" hi
stop_daemon
done_test
