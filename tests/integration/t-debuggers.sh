#!/bin/bash
# Debuggers and unprivileged fanotify inside the sandbox: strace and gdb
# work on the sandbox's own processes; a host process stays out of reach
# (invisible in the pid namespace, and outside the Landlock domain); the
# policy's process.allowPtrace false refuses the ptrace family (EPERM,
# reported). fanotify_init as an unprivileged user answers as it does
# bare (TypeScript's tsc calls it on every run).
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
cd "$WS"
mkfifo "$T/hready"
sh -c 'echo up >"$1"; exec sleep 1000' sh "$T/hready" &
HPID=$!
read -r _ <"$T/hready"
trap 'kill "$HPID" 2>/dev/null; cleanup' EXIT
start_daemon

if command -v strace >/dev/null; then
	out=$(sbx run -q -- strace -f -o "$WS/trace" sh -c 'true' 2>&1)
	rc=$?
	expect_eq "strace -f runs (exit 0; $out)" "$rc" 0
	check "strace wrote the child's execve" grep -q 'execve(' "$WS/trace"
	expect_eq "strace -o /dev/null true" \
		"$(sbx run -q -- strace -f -o /dev/null true 2>&1; echo "rc=$?")" "rc=0"
else
	ok "SKIP strace: not installed"
fi
if command -v gdb >/dev/null; then
	out=$(sbx run -q -- gdb -q -batch -ex run -ex bt --args /bin/true 2>&1)
	check "gdb runs a program to its end ($out)" \
		grep -q 'exited normally' <<<"$out"
else
	ok "SKIP gdb: not installed"
fi
expect_eq "PTRACE_TRACEME allowed" "$(sbx run -q -- "$P" ptrace)" ok
# A host process: not in the sandbox's pid namespace (ESRCH); the
# Landlock domain would refuse it too.
expect_eq "ptrace attach a host process" "$(sbx run -q -- "$P" attach "$HPID")" ESRCH
check "... which nobody traces" grep -q '^TracerPid:	0$' "/proc/$HPID/status"
expect_eq "process_vm_readv of a host process" \
	"$(sbx run -q -- "$P" vm-read "$HPID" 0x400000)" ESRCH
expect_eq "attach the daemon" "$(sbx run -q -- "$P" attach "$DPID")" ESRCH
check "... which nobody traces" grep -q '^TracerPid:	0$' "/proc/$DPID/status"

# fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID, O_RDONLY): the kernel
# lets an unprivileged user have it (Linux >= 5.13); root outside would
# get it anyway, the sandbox's root has no capabilities.
fan='import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.fanotify_init(0x200, os.O_RDONLY)
print("ok" if fd >= 0 else os.strerror(ctypes.get_errno()))'
bare=$(setpriv --inh-caps=-all --bounding-set=-all --no-new-privs "$PY" -c "$fan")
expect_eq "fanotify_init FID as bare without capabilities" \
	"$(sbx run -q -- "$PY" -c "$fan")" "$bare"
check "... and nothing was reported as refused" \
	sh -c '! grep -q "fanotify" "$1"' sh "$T/sbxd.log"

# process.allowPtrace false: refused by seccomp, reported.
mkdir -p "$WS/.sbx"
echo '{"process": {"allowPtrace": false}}' >"$WS/.sbx/policy.json"
expect_eq "allowPtrace false: PTRACE_TRACEME refused" "$(sbx run -q -- "$P" ptrace)" EPERM
if command -v strace >/dev/null; then
	out=$(sbx run -- strace -o /dev/null true 2>&1)
	check "allowPtrace false: strace fails, told why ($out)" \
		grep -q 'seccomp.ptrace' <<<"$out"
fi
sbx describe >"$T/describe.txt"
check "describe says ptrace is refused" grep -q 'no ptrace' "$T/describe.txt"
rm "$WS/.sbx/policy.json"
sbx describe >"$T/describe.txt"
check "describe says the sandbox's own processes can be debugged" \
	grep -q 'Debuggers (ptrace) work on the sandbox' "$T/describe.txt"
stop_daemon
done_test
