#!/bin/bash
# seccomp user notifications as violations: each refused syscall reaches the
# daemon, is answered EPERM and reported with the builtin rule that refused
# it (kind syscall; a refused AF_UNIX socket is kind ipc) to the session's
# client as it happens and in the run's summary.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
need_notify
cd "$WS"

# run OP... : the summary of one refused call, as data.
run() { sbx run --json -- "$P" "$@" >"$T/out" 2>"$T/err"; }
run io_uring
expect_eq "io_uring_setup still gets EPERM" "$(cat "$T/out")" EPERM
expect_eq "one violation, one group" "$(v "$T/err" violations groups.0.count)" "1
1"
expect_eq "the event's fields" "$(v "$T/err" groups.0.session groups.0.kind \
	groups.0.target groups.0.operation groups.0.rule groups.0.rule_id \
	groups.0.layer)" "1
syscall
io_uring_setup
io_uring_setup
builtin seccomp deny set
seccomp.io_uring
builtin"
expect_eq "... builtin: no file" "$(v "$T/err" groups.0.file)" ""
check "... with a remediation" grep -q '"remediation":"io_uring is refused' "$T/err"

# kind, target (with the arguments that were refused) and rule id.
while IFS=';' read -r op want; do
	run $op
	got=$(v "$T/err" groups kind target rule_id)
	expect_eq "$op" "$got" "$want"
done <<'CASES'
socket 1 2 0;ipc|socket(AF_UNIX, SOCK_DGRAM)|seccomp.unix-socket
socket 17 3 0;syscall|socket(AF_PACKET, SOCK_RAW)|seccomp.socket-family
socket 16 3 9;syscall|socket(AF_NETLINK, SOCK_RAW, 9)|seccomp.socket-family
unshare-user;syscall|unshare(CLONE_NEWUSER)|seccomp.userns
bpf;syscall|bpf|seccomp.bpf
keyctl;syscall|keyctl|seccomp.keyctl
perf;syscall|perf_event_open|seccomp.perf_event_open
mount /mnt;syscall|mount|seccomp.mount
CASES

# The session's client gets the event while the command still runs: the
# sandbox waits on a fifo that the client opens only once the event came.
mkfifo "$WS/go"
out=$(timeout 30 "$PY" "$HERE/wireclient.py" "$SOCK" "$WS" --release "$WS/go" \
	-- sh -c "$P bpf >/dev/null; read x < go; exit 3")
expect_eq "live event, then the exit status" "$out" \
	"violation session=$(($(v "$T/err" groups.0.session) + 1)) kind=syscall target=bpf operation=bpf rule=builtin seccomp deny set rule_id=seccomp.bpf layer=builtin
exit code=3 violations=1"
stop_daemon
done_test
