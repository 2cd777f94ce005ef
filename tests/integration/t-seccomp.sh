#!/bin/bash
# The seccomp deny set, each with the exact errno (EPERM, never a kill).
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
P=$BIN/sbx-probe
for op in io_uring bpf keyctl perf userfaultfd ptrace unshare-user; do
	expect_eq "$op -> EPERM" "$(sbx run -- "$P" "$op")" EPERM
done
# Families: 2 AF_INET, 10 AF_INET6, 16 AF_NETLINK, 17 AF_PACKET, 40 AF_VSOCK.
expect_eq "TCP socket allowed" "$(sbx run -- "$P" socket 2 1 0)" ok
expect_eq "UDP IPv6 socket allowed" "$(sbx run -- "$P" socket 10 2 0)" ok
expect_eq "route netlink allowed" "$(sbx run -- "$P" socket 16 3 0)" ok
expect_eq "audit netlink refused" "$(sbx run -- "$P" socket 16 3 9)" EPERM
expect_eq "raw IPv4 socket refused" "$(sbx run -- "$P" socket 2 3 1)" EPERM
expect_eq "raw IPv6 socket refused" "$(sbx run -- "$P" socket 10 3 58)" EPERM
expect_eq "packet socket refused" "$(sbx run -- "$P" socket 17 3 0)" EPERM
expect_eq "vsock refused" "$(sbx run -- "$P" socket 40 1 0)" EPERM
expect_eq "AF_UNIX refused by default" "$(sbx run -- "$P" unix-socket)" EPERM
out=$(python3 "$HERE/ptydrive.py" -- sbx run -q -t -- "$P" tiocsti | tr -d '\r')
expect_eq "TIOCSTI on the terminal refused" "$out" EPERM
# The refusals reached the daemon (seccomp user notification), which
# answered them and logged them as violations (t-violations-seccomp
# checks the events themselves).
check "daemon logged a refused io_uring_setup" grep -q "blocked syscall io_uring_setup (builtin seccomp deny set id seccomp.io_uring)" "$T/sbxd.log"
check "daemon logged a refused bpf" grep -q "blocked syscall bpf (" "$T/sbxd.log"
stop_daemon
done_test
