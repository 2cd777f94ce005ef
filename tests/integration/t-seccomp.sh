#!/bin/bash
# The seccomp deny set, each with the exact errno (EPERM, never a kill).
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
P=$BIN/sbx-probe
for op in io_uring bpf keyctl perf userfaultfd unshare-user; do
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
# Unix stream sockets where the supervisor makes their connects and the
# sandbox has a network namespace (describe says which); datagram ones
# never (t-unix-sockets).
if sbx --json describe | grep -q '"unix_sockets": *"sandbox"'; then
	expect_eq "AF_UNIX stream allowed" "$(sbx run -- "$P" unix-socket)" ok
else
	expect_eq "AF_UNIX refused here" "$(sbx run -- "$P" unix-socket)" EPERM
fi
expect_eq "AF_UNIX datagram refused" "$(sbx run -- "$P" socket 1 2 0)" EPERM
# Debuggers within the sandbox (t-debuggers).
expect_eq "ptrace (TRACEME) allowed" "$(sbx run -- "$P" ptrace)" ok
# The other ABIs of an x86-64 CPU meet the same rules, not a way around
# them: i386 through int 0x80 (where the kernel has IA32 emulation: its
# getpid, 20, works outside) and x32's numbering (refused by the filter
# even where the kernel has no x32, which would say ENOSYS).
if [ "$("$P" int80 20)" = ok ]; then
	expect_eq "i386 getpid allowed" "$(sbx run -- "$P" int80 20)" ok
	expect_eq "i386 bpf refused" "$(sbx run -- "$P" int80 357)" EPERM
	expect_eq "i386 unshare(CLONE_NEWUSER) refused" \
		"$(sbx run -- "$P" int80 310 268435456)" EPERM
	expect_eq "i386 packet socket refused" \
		"$(sbx run -- "$P" int80 359 17 3 0)" EPERM
	expect_eq "i386 TCP socket allowed" "$(sbx run -- "$P" int80 359 2 1 0)" ok
	expect_eq "i386 socketcall(SYS_SOCKET) refused" \
		"$(sbx run -- "$P" int80 102 1 0)" EPERM
	expect_eq "i386 setns refused" "$(sbx run -- "$P" int80 346 0 0)" EPERM
	i386=1
fi
case $("$P" x32 39) in
ok | ENOSYS)
	expect_eq "x32 bpf refused" "$(sbx run -- "$P" x32 321)" EPERM
	expect_eq "x32 packet socket refused" \
		"$(sbx run -- "$P" x32 41 17 3 0)" EPERM
	expect_eq "x32 kcmp refused" "$(sbx run -- "$P" x32 312)" EPERM
	x32=1 ;;
esac
out=$(python3 "$HERE/ptydrive.py" -- sbx run -q -t -- "$P" tiocsti | tr -d '\r')
expect_eq "TIOCSTI on the terminal refused" "$out" EPERM
# The refusals reached the daemon (seccomp user notification), which
# answered them and logged them as violations (t-violations-seccomp
# checks the events themselves).
check "daemon logged a refused io_uring_setup" grep -q "blocked syscall io_uring_setup (builtin seccomp deny set id seccomp.io_uring)" "$T/sbxd.log"
check "daemon logged a refused bpf" grep -q "blocked syscall bpf (" "$T/sbxd.log"
# Named in the compat ABI's own numbering (setns and kcmp come from no
# other call here).
[ -z "${i386:-}" ] || check "daemon named i386's setns" \
	grep -q "blocked syscall setns (builtin seccomp deny set id seccomp.setns)" "$T/sbxd.log"
[ -z "${x32:-}" ] || check "daemon named x32's kcmp" \
	grep -q "blocked syscall kcmp (builtin seccomp deny set id seccomp.ptrace)" "$T/sbxd.log"
stop_daemon
done_test
