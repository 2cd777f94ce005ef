/* Unit tests for syscall-deny.c: the groups, how refused calls read, and
 * that the deny set's names are unique. */
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/syscall-deny.h"
#include "unit.h"

static struct violation
describe(const char *name, uint64_t a0, uint64_t a1, uint64_t a2,
	 char *target, size_t tlen)
{
	const uint64_t args[6] = { a0, a1, a2, 0, 0, 0 };
	struct violation v;

	syscall_deny_describe(name, args, NULL, &v, target, tlen);
	return v;
}

static void
test_describe(void)
{
	char t[128];
	struct violation v;

	v = describe("io_uring_setup", 8, 0x7ffd0000, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_SYSCALL);
	CHECK_STR(v.target, "io_uring_setup");
	CHECK_STR(v.operation, "io_uring_setup");
	CHECK_STR(v.rule, "builtin seccomp deny set");
	CHECK_STR(v.rule_id, "seccomp.io_uring");
	CHECK_INT(v.layer, POLICY_LAYER_BUILTIN);
	CHECK(v.reason && strstr(v.reason, "io_uring"));
	CHECK(v.detail == NULL);

	v = describe("socket", 1, 1 | 0x80000, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_IPC);
	CHECK_STR(v.target, "socket(AF_UNIX, SOCK_STREAM)");
	CHECK_STR(v.rule_id, "seccomp.unix-socket");
	CHECK(!v.expected);
	/* glibc's nscd probe: expected, and grouped apart. */
	v = describe("socket", 1, 1 | 0x80000 | 0x800, 0, t, sizeof(t));
	CHECK_STR(v.target, "socket(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK)");
	CHECK(v.expected);
	v = describe("socket", 1, 1 | 0x800, 0, t, sizeof(t));
	CHECK(!v.expected);
	v = describe("socket", 2, 1 | 0x80000 | 0x800, 0, t, sizeof(t));
	CHECK(!v.expected);

	v = describe("socket", 17, 3, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_SYSCALL);
	CHECK_STR(v.target, "socket(AF_PACKET, SOCK_RAW)");
	CHECK_STR(v.rule_id, "seccomp.socket-family");
	v = describe("socket", 16, 3, 9, t, sizeof(t));
	CHECK_STR(v.target, "socket(AF_NETLINK, SOCK_RAW, 9)");
	v = describe("socket", 99, 14, 0, t, sizeof(t));
	CHECK_STR(v.target, "socket(family 99, type 14)");
	/* IP sockets the sandbox may not make: raw ones; without a network
	 * namespace UDP and non-TCP stream protocols too; then listen() and
	 * TCP Fast Open, which pass Landlock's port rules by. */
	v = describe("socket", 10, 2 | 0x800, 0, t, sizeof(t));
	CHECK_STR(v.target, "socket(AF_INET6, SOCK_DGRAM|SOCK_NONBLOCK)");
	CHECK(!v.expected);
	v = describe("socket", 10, 2 | 0x80000, 0, t, sizeof(t));
	CHECK_STR(v.target, "socket(AF_INET6, SOCK_DGRAM)");
	CHECK_STR(v.rule_id, "seccomp.ip-socket");
	v = describe("socket", 2, 3, 1, t, sizeof(t));
	CHECK_STR(v.target, "socket(AF_INET, SOCK_RAW)");
	CHECK_STR(v.rule_id, "seccomp.ip-socket");
	v = describe("listen", 3, 128, 0, t, sizeof(t));
	CHECK_STR(v.target, "listen");
	CHECK_STR(v.rule_id, "seccomp.listen");
	v = describe("sendto", 3, 0x7ffd0000, 2, t, sizeof(t));
	CHECK_STR(v.target, "sendto(MSG_FASTOPEN)");
	CHECK_STR(v.rule_id, "seccomp.tcp-fastopen");
	v = describe("sendmsg", 3, 0x7ffd0000, 0x20000000, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp.tcp-fastopen");
	/* A connect() the daemon refused to make: a network violation
	 * naming the address. */
	{
		const uint64_t a[6] = { 3, 0x7ffd0000, 16 };

		syscall_deny_describe("connect", a, "203.0.113.7:40001", &v,
				      t, sizeof(t));
		CHECK_INT(v.kind, VIOLATION_NETWORK);
		CHECK_STR(v.target, "203.0.113.7:40001");
		CHECK_STR(v.operation, "connect");
		CHECK_STR(v.rule_id, "seccomp.connect");
		CHECK(!v.expected);
		/* nscd's socket, where connect() is judged by path. */
		syscall_deny_describe("connect", a, "/var/run/nscd/socket", &v,
				      t, sizeof(t));
		CHECK(v.expected);
		syscall_deny_describe("connect", a, "/run/nscd/socket.x", &v,
				      t, sizeof(t));
		CHECK(!v.expected);
	}

	/* i386's socketcall(SYS_SOCKET, args in memory). */
	v = describe("socketcall", 1, 0xffd01234, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_SYSCALL);
	CHECK_STR(v.target, "socketcall(SYS_SOCKET)");
	CHECK_STR(v.rule_id, "seccomp.socket-family");

	v = describe("unshare", 0x10000000 | 0x00020000, 0, 0, t, sizeof(t));
	CHECK_STR(v.target, "unshare(CLONE_NEWUSER|CLONE_NEWNS)");
	CHECK_STR(v.rule_id, "seccomp.userns");
	v = describe("ioctl", 0, 0x5412, 0, t, sizeof(t));
	CHECK_STR(v.target, "ioctl(TIOCSTI)");
	CHECK_STR(v.rule_id, "seccomp.tty-inject");
	v = describe("process_vm_readv", 1, 2, 3, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp.ptrace");
	v = describe("finit_module", 1, 2, 3, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp.admin");
	/* SysV IPC and POSIX message queues (refused where the sandbox has
	 * no IPC namespace): kind ipc, i386's multiplexer too. */
	v = describe("shmat", 3, 0, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_IPC);
	CHECK_STR(v.target, "shmat");
	CHECK_STR(v.rule_id, "seccomp.ipc");
	CHECK(v.reason && strstr(v.reason, "no IPC namespace"));
	v = describe("ipc", 21, 3, 0, t, sizeof(t));
	CHECK_INT(v.kind, VIOLATION_IPC);
	CHECK_STR(v.rule_id, "seccomp.ipc");
	v = describe("mq_unlink", 0x1000, 0, 0, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp.ipc");
	v = describe("semtimedop_time64", 3, 0x1000, 1, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp.ipc");
	/* Not in the table (a newer filter, an odd arch): still described. */
	v = describe("frobnicate", 0, 0, 0, t, sizeof(t));
	CHECK_STR(v.rule_id, "seccomp");
	CHECK_STR(v.target, "frobnicate");
	/* A short buffer cuts, never overflows. */
	v = describe("unshare", 0x7e020080, 0, 0, t, 12);
	CHECK_INT(strlen(v.target), 11);
}

static void
test_table(void)
{
	const char *const *a, *const *b;
	size_t i, j, n = 0;

	for (i = 0; i < syscall_deny_ngroups; i++) {
		CHECK(!strncmp(syscall_deny_groups[i].id, "seccomp.", 8));
		/* Only the IPC namespace's calls depend on the mode. */
		CHECK(!syscall_deny_groups[i].host_ipc ||
		      !strcmp(syscall_deny_groups[i].id, "seccomp.ipc"));
		CHECK(strlen(syscall_deny_groups[i].reason) > 20);
		for (a = syscall_deny_groups[i].names; a && *a; a++, n++)
			for (j = i; j < syscall_deny_ngroups; j++)
				for (b = syscall_deny_groups[j].names;
				     b && *b; b++)
					if (a != b && !strcmp(*a, *b))
						CHECK(!"a syscall in two groups");
	}
	CHECK(n >= 50);
}

int
main(void)
{
	test_describe();
	test_table();
	UNIT_DONE();
}
