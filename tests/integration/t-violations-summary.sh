#!/bin/bash
# What `sbxctl run` says after a command that had violations: one grouped
# line per denial (syscall, network) with rule, layer and remedy; no guess
# about writes no source saw (the note on the writable paths only follows
# a refused write that was seen: t-landlock-only); libc's nscd probe never;
# the same as data with --json; nothing with --quiet.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
need_notify
cd "$WS"
not_grep() { ! grep -q "$@"; }
# What the daemon cannot see: in user mode (or without audit), nothing of
# the filesystem; with Landlock audit, still no EROFS.
if sbx --json status | grep -q '"landlock_audit": true'; then
	unseen="writes refused by read-only mounts (EROFS) are not reported"
else
	unseen="sbx cannot see filesystem denials in user mode"
fi
# A syscall, a network request through the proxy (bash's /dev/tcp: no
# libc name lookups), then a write outside the workspace.
CMD="$P bpf >/dev/null; exec 3<>/dev/tcp/127.0.0.1/\${HTTP_PROXY##*:} &&
printf 'GET http://127.0.0.1:9/ HTTP/1.0\r\n\r\n' >&3 && head -1 <&3; echo x > /etc/sbx-sum-$$"

# bash asks libc for the user, and libc tries nscd over a Unix socket:
# seccomp refuses it (kind ipc). Said after a failed command, as a
# possible cause; left out here and checked on its own below.
noprobe() { grep -v 'rule seccomp.unix-socket)' "$@"; }
sbx run --on-ask=deny -- bash -c "$CMD" >"$T/out" 2>"$T/err"
expect_eq "exit status is the command's" $? 1
expect_eq "the request was refused" "$(tr -d '\r' <"$T/out")" "HTTP/1.1 403 Forbidden"
expect_eq "grouped block on stderr, after the command's own" "$(noprobe "$T/err")" \
"bash: line 2: /etc/sbx-sum-$$: Read-only file system
sbx: blocked syscall bpf (builtin seccomp deny set, rule seccomp.bpf) — eBPF is refused in the sandbox; run BPF tools outside it
sbx: blocked network 127.0.0.1:9 (not in allowedDomains, and not approved: sbxctl run --on-ask=deny; user policy <sbx defaults>, rule network.unknownHosts \"ask\") — loopback through the proxy is the host's: a server started in the sandbox is called directly (NO_PROXY lists localhost, 127.0.0.1 and ::1); a service on the host is reached at its own address in the sandbox once the user lists it in network.hostServices (\"localhost:5432\")"

sbx run --quiet --on-ask=deny -- bash -c "$CMD" >/dev/null 2>"$T/err"
expect_eq "--quiet: only the command's stderr" "$(cat "$T/err")" \
	"bash: line 2: /etc/sbx-sum-$$: Read-only file system"

sbx run --json --on-ask=deny -- bash -c "$CMD" >/dev/null 2>"$T/err"
expect_eq "--json: the same as data" "$(v "$T/err" groups 'kind!=ipc' kind \
	target operation layer rule_id count remediation)" \
"syscall|bpf|bpf|builtin|seccomp.bpf|1|eBPF is refused in the sandbox; run BPF tools outside it
network|127.0.0.1:9|http|user||1|loopback through the proxy is the host's: a server started in the sandbox is called directly (NO_PROXY lists localhost, 127.0.0.1 and ::1); a service on the host is reached at its own address in the sandbox once the user lists it in network.hostServices (\"localhost:5432\")"
expect_eq "... with the counts and writable paths" "$(v "$T/err" suppressed \
	ungrouped fs_unobserved writable.0 writable.1)" "0
0
$([ "$unseen" = "${unseen#sbx cannot}" ] && echo false || echo true)
$WS
/tmp"
check "... and no note: no refused write was seen" grep -q '"note":null' "$T/err"
check "... on one line" [ "$(wc -l <"$T/err")" -eq 2 ]

# A command that succeeds despite a denial still hears about it; no note.
sbx run -- sh -c "$P io_uring >/dev/null; true" 2>"$T/err"
expect_eq "success with a violation: the line, no note" "$(cat "$T/err")" \
	"sbx: blocked syscall io_uring_setup (builtin seccomp deny set, rule seccomp.io_uring) — io_uring is refused (its operations would bypass the filter); most tools fall back to ordinary I/O"
sbx run -- "$P" repeat 3 keyctl >/dev/null 2>"$T/err"
check "repeats are one line with a count" grep -q "^sbx: blocked syscall keyctl (.* (3 times)$" "$T/err"
# libc's nscd probe is expected: never a line, after success or failure.
# Where the sandbox makes Unix sockets, the probe's socket is made and its
# connect finds no nscd socket here (ENOENT): nothing is refused at all;
# elsewhere the refusal is in the data, marked expected.
sbx run -- bash -c "$P io_uring >/dev/null; id >/dev/null" 2>"$T/err"
check "libc's nscd probe: not shown after success" \
	not_grep 'rule seccomp.unix-socket)' "$T/err"
sbx run -- bash -c "id >/dev/null; exit 4" 2>"$T/err"
expect_eq "... nor after a failure" "$(cat "$T/err")" ""
if ! sbx --json describe | grep -q '"unix_sockets": *"sandbox"'; then
	sbx run --json -- bash -c "id >/dev/null" 2>"$T/err"
	check "... and always in the data, marked expected" grep -q \
		'"target":"socket(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK)",.*"expected":true' "$T/err"
	# A program's own Unix socket is a refusal like any other.
	sbx run -- "$P" unix-socket >/dev/null 2>"$T/err"
	check "a program's Unix socket is said" \
		grep -q "^sbx: blocked ipc socket(AF_UNIX, SOCK_STREAM) (builtin seccomp deny set, rule seccomp.unix-socket)" "$T/err"
fi
# Nothing to say: nothing said.
sbx run -- true 2>"$T/err"
expect_eq "no violations, no failure: silent" "$(cat "$T/err")" ""
sbx run -- sh -c 'exit 3' 2>"$T/err"
# A failure with nothing blocked leaves stderr to the command (run behaves
# like the command), and the data has no note.
expect_eq "a failure without violations: stderr is the command's" \
	"$(cat "$T/err")" ""
sbx run --json -- sh -c 'exit 3' 2>"$T/err"
check "... no note in the data either" grep -q '"note":null' "$T/err"
sbx run -- no-such-command-$$ 2>"$T/err"
expect_eq "exec failure: no note" "$(cat "$T/err")" \
	"sbxctl: no-such-command-$$: command not found"
stop_daemon
done_test
