/* Unit tests for linux/seccomp.c's program on every ABI it covers: x86-64
 * with i386 and x32, AArch64 with AArch32. Each program is compiled (the
 * host's own through seccomp_compile, the other through
 * seccomp_compile_arch) and run through bpf-sim.h on syscall numbers taken
 * from the kernel's syscall tables, so a wrong ABI, a rule lost on one
 * ABI or an ABI left unfiltered fails here on any host; so are the
 * programs for sandboxes without a network namespace (sandbox.h's
 * SANDBOX_NET_HOST_PORTS and SANDBOX_NET_NONE). */
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>

#include "bpf-sim.h"
#include "daemon/linux/seccomp.h"
#include "daemon/policy/syscall-deny.h"
#include "unit.h"

enum { X86_64, I386, X32, AARCH64, ARM, NABI };

static const struct abi {
	const char *name;
	uint32_t scmp;		/* libseccomp's token */
	uint32_t audit;		/* what the kernel puts in seccomp_data.arch */
	uint32_t nr_bit;	/* x32's syscalls are x86-64's with bit 30 */
	int wide;		/* arguments are 64 bits */
} abis[NABI] = {
	[X86_64] = { "x86_64", SCMP_ARCH_X86_64, AUDIT_ARCH_X86_64, 0, 1 },
	[I386] = { "i386", SCMP_ARCH_X86, AUDIT_ARCH_I386, 0, 0 },
	[X32] = { "x32", SCMP_ARCH_X32, AUDIT_ARCH_X86_64, 0x40000000u, 1 },
	[AARCH64] = { "aarch64", SCMP_ARCH_AARCH64, AUDIT_ARCH_AARCH64, 0, 1 },
	[ARM] = { "arm", SCMP_ARCH_ARM, AUDIT_ARCH_ARM, 0, 0 },
};

/*
 * Syscall numbers from the kernel's tables (arch/x86/entry/syscalls,
 * include/uapi/asm-generic/unistd.h, arch/arm/tools/syscall.tbl), written
 * out rather than asked of libseccomp, whose tables build the program;
 * x32's without bit 30. -1: the ABI has no such syscall.
 */
static const struct {
	const char *name;
	int nr[NABI];		/* x86_64, i386, x32, aarch64, arm */
} sys[] = {
	{ "read", { 0, 3, 0, 63, 3 } },
	{ "write", { 1, 4, 1, 64, 4 } },
	{ "openat", { 257, 295, 257, 56, 322 } },
	{ "execve", { 59, 11, 520, 221, 11 } },
	{ "getpid", { 39, 20, 39, 172, 20 } },
	{ "connect", { 42, 362, 42, 203, 283 } },
	{ "listen", { 50, 363, 50, 201, 284 } },
	{ "sendto", { 44, 369, 44, 206, 290 } },
	{ "sendmsg", { 46, 370, 518, 211, 296 } },
	{ "sendmmsg", { 307, 345, 538, 269, 374 } },
	{ "socketpair", { 53, 360, 53, 199, 288 } },
	{ "socket", { 41, 359, 41, 198, 281 } },
	{ "socketcall", { -1, 102, -1, -1, -1 } },
	{ "ioctl", { 16, 54, 514, 29, 54 } },
	{ "clone", { 56, 120, 56, 220, 120 } },
	{ "clone3", { 435, 435, 435, 435, 435 } },
	{ "unshare", { 272, 310, 272, 97, 337 } },
	{ "mount", { 165, 21, 165, 40, 21 } },
	{ "umount", { -1, 22, -1, -1, -1 } },
	{ "umount2", { 166, 52, 166, 39, 52 } },
	{ "pivot_root", { 155, 217, 155, 41, 218 } },
	{ "chroot", { 161, 61, 161, 51, 61 } },
	{ "ptrace", { 101, 26, 521, 117, 26 } },
	{ "process_vm_readv", { 310, 347, 539, 270, 376 } },
	{ "process_vm_writev", { 311, 348, 540, 271, 377 } },
	{ "fanotify_init", { 300, 338, 300, 262, 367 } },
	{ "pidfd_getfd", { 438, 438, 438, 438, 438 } },
	{ "kcmp", { 312, 349, 312, 272, 378 } },
	{ "process_madvise", { 440, 440, 440, 440, 440 } },
	{ "bpf", { 321, 357, 321, 280, 386 } },
	{ "keyctl", { 250, 288, 250, 219, 311 } },
	{ "setns", { 308, 346, 308, 268, 375 } },
	{ "perf_event_open", { 298, 336, 298, 241, 364 } },
	{ "io_uring_setup", { 425, 425, 425, 425, 425 } },
	{ "uselib", { 134, 86, -1, -1, 86 } },
	{ "chmod", { 90, 15, 90, -1, 15 } },
	{ "fchmod", { 91, 94, 91, 52, 94 } },
	{ "fchmodat", { 268, 306, 268, 53, 333 } },
	{ "mkdirat", { 258, 296, 258, 34, 323 } },
	{ "mknodat", { 259, 297, 259, 33, 324 } },
	{ "iopl", { 172, 110, 172, -1, -1 } },
	{ "shmget", { 29, 395, 29, 194, 307 } },
	{ "shmat", { 30, 397, 30, 196, 305 } },
	{ "shmctl", { 31, 396, 31, 195, 308 } },
	{ "shmdt", { 67, 398, 67, 197, 306 } },
	{ "msgget", { 68, 399, 68, 186, 303 } },
	{ "msgsnd", { 69, 400, 69, 189, 301 } },
	{ "msgrcv", { 70, 401, 70, 188, 302 } },
	{ "msgctl", { 71, 402, 71, 187, 304 } },
	{ "semget", { 64, 393, 64, 190, 299 } },
	{ "semop", { 65, -1, 65, 193, 298 } },
	{ "semtimedop", { 220, -1, 220, 192, 312 } },
	{ "semtimedop_time64", { -1, 420, -1, -1, 420 } },
	{ "semctl", { 66, 394, 66, 191, 300 } },
	{ "ipc", { -1, 117, -1, -1, -1 } },
	{ "mq_open", { 240, 277, 240, 180, 274 } },
	{ "mq_unlink", { 241, 278, 241, 181, 275 } },
	{ "mq_timedsend", { 242, 279, 242, 182, 276 } },
	{ "mq_timedsend_time64", { -1, 418, -1, -1, 418 } },
	{ "mq_timedreceive", { 243, 280, 243, 183, 277 } },
	{ "mq_timedreceive_time64", { -1, 419, -1, -1, 419 } },
	{ "mq_notify", { 244, 281, 527, 184, 278 } },
	{ "mq_getsetattr", { 245, 282, 245, 185, 279 } },
};
#define NSYS (sizeof(sys) / sizeof(sys[0]))

/* Linux's values, the same on every ABI here. */
enum {
	AF_UNSPEC_ = 0, AF_UNIX_ = 1, AF_INET_ = 2, AF_INET6_ = 10,
	AF_NETLINK_ = 16, AF_PACKET_ = 17, AF_VSOCK_ = 40,
	SOCK_STREAM_ = 1, SOCK_DGRAM_ = 2, SOCK_RAW_ = 3, SOCK_PACKET_ = 10,
	SOCK_CLOEXEC_ = 02000000, NETLINK_ROUTE_ = 0, NETLINK_AUDIT_ = 9,
	SYS_SOCKET_ = 1, SYS_CONNECT_ = 3, SYS_LISTEN_ = 4,
	SYS_SOCKETPAIR_ = 8, SYS_SEND_ = 9, SYS_SENDTO_ = 11,
	SYS_SENDMSG_ = 16, SYS_SENDMMSG_ = 20,
	SOCK_SEQPACKET_ = 5, IPPROTO_TCP_ = 6, IPPROTO_SCTP_ = 132,
	IPPROTO_MPTCP_ = 262, MSG_DONTWAIT_ = 0x40, MSG_FASTOPEN_ = 0x20000000,
};
#define NOTIFY		SECCOMP_RET_USER_NOTIF
#define TIOCSTI_	0x5412u
#define TIOCLINUX_	0x541cu
#define TCGETS_		0x5401u
#define CLONE_NEWNS_	0x00020000u
#define CLONE_NEWUSER_	0x10000000u
#define CLONE_THREADS_	0x003d0f00u	/* what pthread_create passes */
#define SIGCHLD_	17u
#define HIGH		(1ull << 32)

#define ALLOW		SECCOMP_RET_ALLOW
#define ENOSYS_RET	(SECCOMP_RET_ERRNO | ENOSYS)

static const struct sock_fprog *prog;
static uint32_t deny;		/* the action of a refusal in prog */
static bool host_ipc;		/* prog was made with host_ipc */
static int abi;			/* the ABI of the calls below */

static int
nr_of(const char *name)
{
	size_t i;

	for (i = 0; i < NSYS; i++)
		if (!strcmp(sys[i].name, name))
			return sys[i].nr[abi];
	fprintf(stderr, "no syscall %s in the table\n", name);
	abort();
}

static uint32_t
call_nr4(int nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.nr = (int)((uint32_t)nr | abis[abi].nr_bit);
	d.arch = abis[abi].audit;
	d.args[0] = a0;
	d.args[1] = a1;
	d.args[2] = a2;
	d.args[3] = a3;
	return bpf_sim_run(prog, &d);
}

static uint32_t
call_nr(int nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
	return call_nr4(nr, a0, a1, a2, 0);
}

static uint32_t
call(const char *name, uint64_t a0, uint64_t a1, uint64_t a2)
{
	return call_nr(nr_of(name), a0, a1, a2);
}

/* Checks with the ABI and call in the message, so a failure says which. */
#define EXPECT(got, want, what)                                              \
	do {                                                                 \
		uint32_t _g = (got), _w = (want);                            \
		unit_checks++;                                               \
		if (_g != _w) {                                              \
			unit_failures++;                                     \
			fprintf(stderr, "%s:%d: %s %s: action 0x%x, want "   \
				"0x%x\n", __FILE__, __LINE__,                \
				abis[abi].name, what, _g, _w);               \
		}                                                            \
	} while (0)

/* libseccomp's tables agree with the kernel's numbers above. */
static void
check_numbers(void)
{
	size_t i;

	for (i = 0; i < NSYS; i++) {
		int want = sys[i].nr[abi], got;

		got = seccomp_syscall_resolve_name_arch(abis[abi].scmp,
							sys[i].name);
		/* libseccomp names i386's socket and SysV IPC calls by a
		 * pseudo number (-100 - the socketcall call, -200 - the
		 * ipc call), which its rules turn into both the direct
		 * syscall and the multiplexer's call. */
		if (abi == I386 && got < -100 && got > -300)
			continue;
		if (want >= 0)
			want = (int)((uint32_t)want | abis[abi].nr_bit);
		else if (got < 0)
			continue; /* absent on both sides */
		CHECK_INT(got, want);
	}
}

/* Every name of the deny set is refused on this ABI, if the ABI has it. */
static void
check_deny_set(void)
{
	const char *const *n;
	size_t g;
	int nr;

	for (g = 0; g < syscall_deny_ngroups; g++)
		for (n = syscall_deny_groups[g].names;
		     n && *n && (host_ipc || !syscall_deny_groups[g].host_ipc);
		     n++) {
			nr = seccomp_syscall_resolve_name_arch(abis[abi].scmp,
							       *n);
			if (nr < 0)
				continue; /* not on this ABI */
			EXPECT(call_nr(nr & ~(int)abis[abi].nr_bit, 0, 0, 0),
			       deny, *n);
		}
	EXPECT(call("clone3", 0, 0, 0), ENOSYS_RET, "clone3");
	if (nr_of("umount") >= 0)
		EXPECT(call("umount", 0, 0, 0), deny, "umount");
	if (nr_of("uselib") >= 0)
		EXPECT(call("uselib", 0, 0, 0), deny, "uselib");
	if (nr_of("iopl") >= 0)
		EXPECT(call("iopl", 3, 0, 0), deny, "iopl");
}

static void
check_plain(void)
{
	static const char *const allowed[] = {
		"read", "write", "openat", "execve", "getpid", "socketpair",
	};
	static const char *const denied[] = {
		"mount", "umount2", "pivot_root", "chroot", "ptrace", "bpf",
		"keyctl", "setns", "perf_event_open", "io_uring_setup",
	};
	size_t i;

	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		EXPECT(call(allowed[i], AF_UNIX_, SOCK_STREAM_, 0), ALLOW,
		       allowed[i]);
	for (i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		EXPECT(call(denied[i], 0, 0, 0), deny, denied[i]);
}

static void
check_sockets(int allow_unix)
{
	char what[64];
	uint64_t f;

	for (f = 0; f < 64; f++) {
		int ok = f == AF_INET_ || f == AF_INET6_ ||
			 (f == AF_UNIX_ && allow_unix) || f == AF_NETLINK_;

		snprintf(what, sizeof(what), "socket(%d, SOCK_STREAM, 0)",
			 (int)f);
		EXPECT(call("socket", f, SOCK_STREAM_, 0), ok ? ALLOW : deny,
		       what);
	}
	EXPECT(call("socket", AF_INET6_, SOCK_DGRAM_ | SOCK_CLOEXEC_, 0),
	       ALLOW, "socket(AF_INET6, SOCK_DGRAM|SOCK_CLOEXEC)");
	EXPECT(call("socket", AF_NETLINK_, SOCK_RAW_, NETLINK_ROUTE_), ALLOW,
	       "socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)");
	EXPECT(call("socket", AF_NETLINK_, SOCK_RAW_, NETLINK_AUDIT_), deny,
	       "socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT)");
	EXPECT(call("socket", AF_INET_, SOCK_RAW_ | SOCK_CLOEXEC_, 1), deny,
	       "socket(AF_INET, SOCK_RAW|SOCK_CLOEXEC, IPPROTO_ICMP)");
	EXPECT(call("socket", AF_INET6_, SOCK_RAW_, 58), deny,
	       "socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6)");
	EXPECT(call("socket", AF_INET_, SOCK_PACKET_, 0), deny,
	       "socket(AF_INET, SOCK_PACKET)");
	EXPECT(call("socket", AF_PACKET_, SOCK_RAW_, 0x300), deny,
	       "socket(AF_PACKET, SOCK_RAW)");
	EXPECT(call("socket", AF_VSOCK_, SOCK_STREAM_, 0), deny,
	       "socket(AF_VSOCK, SOCK_STREAM)");
	EXPECT(call("socket", AF_UNSPEC_, SOCK_STREAM_, 0), deny,
	       "socket(AF_UNSPEC, SOCK_STREAM)");
	EXPECT(call("socket", AF_UNIX_, SOCK_STREAM_, 0),
	       allow_unix ? ALLOW : deny, "socket(AF_UNIX, SOCK_STREAM)");
	EXPECT(call("socketpair", AF_UNIX_, SOCK_STREAM_, 0), ALLOW,
	       "socketpair(AF_UNIX, SOCK_STREAM)");
	EXPECT(call("socketpair", AF_UNIX_, 5 /* SOCK_SEQPACKET */, 0), ALLOW,
	       "socketpair(AF_UNIX, SOCK_SEQPACKET)");
	/* A datagram end sends to any address it is given. */
	EXPECT(call("socketpair", AF_UNIX_, SOCK_DGRAM_ | SOCK_CLOEXEC_, 0),
	       deny, "socketpair(AF_UNIX, SOCK_DGRAM)");
	/* Unix datagram sockets name their peer in each send: refused
	 * even where streams are made (SOCK_RAW is a datagram one too). */
	EXPECT(call("socket", AF_UNIX_, SOCK_DGRAM_ | SOCK_CLOEXEC_, 0), deny,
	       "socket(AF_UNIX, SOCK_DGRAM)");
	EXPECT(call("socket", AF_UNIX_, SOCK_RAW_, 0), deny,
	       "socket(AF_UNIX, SOCK_RAW)");
	EXPECT(call("socket", AF_UNIX_, 5 /* SOCK_SEQPACKET */, 0),
	       allow_unix ? ALLOW : deny, "socket(AF_UNIX, SOCK_SEQPACKET)");
	/* The supervisor makes every connect() where Unix sockets are. */
	EXPECT(call("connect", 3, 0x1000, 16),
	       allow_unix ? SECCOMP_RET_USER_NOTIF : ALLOW, "connect");
	if (abis[abi].wide) {
		/* The kernel reads an int: high bits must not dodge a rule. */
		EXPECT(call("socket", HIGH | AF_PACKET_, SOCK_RAW_, 0), deny,
		       "socket(1<<32 | AF_PACKET)");
		if (!allow_unix)
			EXPECT(call("socket", HIGH | AF_UNIX_, SOCK_STREAM_, 0),
			       deny, "socket(1<<32 | AF_UNIX)");
		EXPECT(call("socket", AF_NETLINK_, SOCK_RAW_,
			    HIGH | NETLINK_AUDIT_),
		       deny, "socket(AF_NETLINK, SOCK_RAW, 1<<32 | 9)");
		EXPECT(call("socket", AF_INET_, HIGH | SOCK_RAW_, 0), deny,
		       "socket(AF_INET, 1<<32 | SOCK_RAW)");
	}
	if (nr_of("socketcall") >= 0) {
		/* Its arguments are in memory: socket creation through it is
		 * refused whole, the rest passes. */
		EXPECT(call("socketcall", SYS_SOCKET_, 0x1000, 0), deny,
		       "socketcall(SYS_SOCKET)");
		EXPECT(call("socketcall", SYS_CONNECT_, 0x1000, 0),
		       allow_unix ? SECCOMP_RET_USER_NOTIF : ALLOW,
		       "socketcall(SYS_CONNECT)");
		EXPECT(call("socketcall", SYS_SOCKETPAIR_, 0x1000, 0), deny,
		       "socketcall(SYS_SOCKETPAIR)");
	}
}

/* No setuid or setgid file: chmod with either bit, a file created with
 * one; a plain chmod, an open that creates nothing, a mkdir pass. */
static void
check_setid(void)
{
	const uint64_t suid = 04755, sgid = 02755, creat = 0100 /* O_CREAT */;

	EXPECT(call("fchmod", 3, suid, 0), deny, "fchmod(04755)");
	EXPECT(call("fchmod", 3, sgid, 0), deny, "fchmod(02755)");
	EXPECT(call("fchmod", 3, 01777, 0), ALLOW, "fchmod(01777)");
	EXPECT(call("fchmodat", 0, 0x1000, suid), deny, "fchmodat(04755)");
	EXPECT(call("fchmodat", 0, 0x1000, 0644), ALLOW, "fchmodat(0644)");
	EXPECT(call_nr4(nr_of("openat"), 0, 0x1000, creat | 1, sgid), deny,
	       "openat(O_CREAT, 02755)");
	EXPECT(call_nr4(nr_of("openat"), 0, 0x1000, 0, sgid), ALLOW,
	       "openat(O_RDONLY, 02755)");
	EXPECT(call_nr4(nr_of("openat"), 0, 0x1000, creat | 1, 0755), ALLOW,
	       "openat(O_CREAT, 0755)");
	EXPECT(call("mknodat", 0, 0x1000, 0100000 | suid), deny,
	       "mknodat(S_IFREG|04755)");
	EXPECT(call("mkdirat", 0, 0x1000, sgid), ALLOW, "mkdirat(02755)");
	if (nr_of("chmod") >= 0)
		EXPECT(call("chmod", 0x1000, suid, 0), deny, "chmod(04755)");
}

static void
check_args(void)
{
	EXPECT(call("ioctl", 0, TIOCSTI_, 0x1000), deny, "ioctl(TIOCSTI)");
	EXPECT(call("ioctl", 0, TIOCLINUX_, 0x1000), deny, "ioctl(TIOCLINUX)");
	EXPECT(call("ioctl", 0, TCGETS_, 0x1000), ALLOW, "ioctl(TCGETS)");
	EXPECT(call("unshare", CLONE_NEWUSER_, 0, 0), deny,
	       "unshare(CLONE_NEWUSER)");
	EXPECT(call("unshare", CLONE_NEWUSER_ | CLONE_NEWNS_, 0, 0), deny,
	       "unshare(CLONE_NEWUSER|CLONE_NEWNS)");
	EXPECT(call("unshare", CLONE_NEWNS_, 0, 0), ALLOW,
	       "unshare(CLONE_NEWNS)");
	EXPECT(call("clone", SIGCHLD_, 0, 0), ALLOW, "clone(SIGCHLD)");
	EXPECT(call("clone", CLONE_THREADS_, 0x1000, 0), ALLOW,
	       "clone(a thread's flags)");
	EXPECT(call("clone", CLONE_NEWUSER_ | SIGCHLD_, 0, 0), deny,
	       "clone(CLONE_NEWUSER|SIGCHLD)");
	if (abis[abi].wide) {
		EXPECT(call("ioctl", 0, HIGH | TIOCSTI_, 0x1000), deny,
		       "ioctl(1<<32 | TIOCSTI)");
		EXPECT(call("unshare", HIGH | CLONE_NEWUSER_, 0, 0), deny,
		       "unshare(1<<32 | CLONE_NEWUSER)");
	}
}

/* Without an IPC namespace (host_ipc: Landlock-only mode) SysV IPC and
 * POSIX message queues are refused on every ABI, i386's ipc() multiplexer
 * whole; with one, they pass. shmdt passes either way: it detaches only
 * the caller's own. */
static void
check_ipc(void)
{
	static const char *const calls[] = {
		"shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv",
		"msgctl", "semget", "semop", "semtimedop", "semtimedop_time64",
		"semctl", "mq_open", "mq_unlink", "mq_timedsend",
		"mq_timedsend_time64", "mq_timedreceive",
		"mq_timedreceive_time64", "mq_notify", "mq_getsetattr",
	};
	/* ipc()'s calls: SEMOP..SEMTIMEDOP, MSGSND..MSGCTL, SHMAT..SHMCTL,
	 * and one with a version in the high half. */
	static const uint64_t muxed[] = { 1, 2, 3, 4, 11, 12, 13, 14, 21, 22,
					  23, 24, 0x10000 | 21 };
	uint32_t want = host_ipc ? deny : ALLOW;
	char what[48];
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (nr_of(calls[i]) >= 0)
			EXPECT(call(calls[i], 3, 0, 0), want, calls[i]);
	EXPECT(call("shmdt", 0x1000, 0, 0), ALLOW, "shmdt");
	if (nr_of("ipc") < 0)
		return;
	for (i = 0; i < sizeof(muxed) / sizeof(muxed[0]); i++) {
		snprintf(what, sizeof(what), "ipc(%#llx)",
			 (unsigned long long)muxed[i]);
		EXPECT(call("ipc", muxed[i], 3, 0), want, what);
	}
}

/* No network namespace, Landlock's TCP rules (SANDBOX_NET_HOST_PORTS): IP
 * sockets are TCP only; listen() and TCP Fast Open are refused; connect()
 * goes to the daemon when it makes them (notify_connect, with notify). */
static void
check_host_ports(bool notify_connect)
{
	static const uint64_t refused[][3] = {
		{ AF_INET_, SOCK_DGRAM_, 0 },
		{ AF_INET6_, SOCK_DGRAM_ | SOCK_CLOEXEC_, 0 },
		{ AF_INET_, SOCK_DGRAM_, 1 },		/* ping */
		{ AF_INET_, SOCK_RAW_, 6 },
		{ AF_INET6_, SOCK_SEQPACKET_, IPPROTO_SCTP_ },
		{ AF_INET_, SOCK_STREAM_, IPPROTO_SCTP_ },
		{ AF_INET6_, SOCK_STREAM_, IPPROTO_MPTCP_ },
		{ AF_INET_, SOCK_STREAM_, 1 },
		{ AF_INET_, SOCK_STREAM_, 5 },
		{ AF_INET_, 0, 0 },
		{ AF_INET_, SOCK_PACKET_, 0 },
	};
	static const char *const sends[] = { "sendto", "sendmsg", "sendmmsg" };
	/* Where each takes its flags. */
	static const int flags_arg[] = { 3, 2, 3 };
	char what[96];
	size_t i;

	EXPECT(call("socket", AF_INET_, SOCK_STREAM_, 0), ALLOW,
	       "socket(AF_INET, SOCK_STREAM, 0)");
	EXPECT(call("socket", AF_INET6_, SOCK_STREAM_ | SOCK_CLOEXEC_,
		    IPPROTO_TCP_), ALLOW,
	       "socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP)");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(what, sizeof(what), "socket(%d, %#x, %d)",
			 (int)refused[i][0], (unsigned)refused[i][1],
			 (int)refused[i][2]);
		EXPECT(call("socket", refused[i][0], refused[i][1],
			    refused[i][2]), deny, what);
	}
	if (abis[abi].wide)
		EXPECT(call("socket", AF_INET_, SOCK_STREAM_,
			    HIGH | IPPROTO_SCTP_), deny,
		       "socket(AF_INET, SOCK_STREAM, 1<<32 | IPPROTO_SCTP)");
	EXPECT(call("listen", 3, 128, 0), deny, "listen");
	for (i = 0; i < 3; i++) {
		uint64_t a[4] = { 3, 0x1000, 16, 0 };

		EXPECT(call_nr4(nr_of(sends[i]), a[0], a[1], a[2], a[3]),
		       ALLOW, sends[i]);
		a[flags_arg[i]] = MSG_FASTOPEN_ | MSG_DONTWAIT_;
		snprintf(what, sizeof(what), "%s(MSG_FASTOPEN)", sends[i]);
		EXPECT(call_nr4(nr_of(sends[i]), a[0], a[1], a[2], a[3]),
		       deny, what);
	}
	EXPECT(call("connect", 3, 0x1000, 16), notify_connect ? NOTIFY : ALLOW,
	       "connect");
	if (nr_of("socketcall") >= 0) {
		/* Arguments in memory: the sends that could carry
		 * MSG_FASTOPEN are refused whole; connect goes to the
		 * daemon, which refuses a foreign ABI's. */
		EXPECT(call("socketcall", SYS_LISTEN_, 0x1000, 0), deny,
		       "socketcall(SYS_LISTEN)");
		EXPECT(call("socketcall", SYS_SENDTO_, 0x1000, 0), deny,
		       "socketcall(SYS_SENDTO)");
		EXPECT(call("socketcall", SYS_SENDMSG_, 0x1000, 0), deny,
		       "socketcall(SYS_SENDMSG)");
		EXPECT(call("socketcall", SYS_SENDMMSG_, 0x1000, 0), deny,
		       "socketcall(SYS_SENDMMSG)");
		EXPECT(call("socketcall", SYS_SEND_, 0x1000, 0), ALLOW,
		       "socketcall(SYS_SEND)");
		EXPECT(call("socketcall", SYS_CONNECT_, 0x1000, 0),
		       notify_connect ? NOTIFY : ALLOW,
		       "socketcall(SYS_CONNECT)");
	}
}

/* Neither a network namespace nor Landlock's TCP rules
 * (SANDBOX_NET_NONE): no IP socket at all; the rest as usual. */
static void
check_no_ip(void)
{
	EXPECT(call("socket", AF_INET_, SOCK_STREAM_, 0), deny,
	       "socket(AF_INET, SOCK_STREAM)");
	EXPECT(call("socket", AF_INET6_, SOCK_STREAM_ | SOCK_CLOEXEC_, 0),
	       deny, "socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC)");
	EXPECT(call("socket", AF_INET6_, SOCK_DGRAM_, 0), deny,
	       "socket(AF_INET6, SOCK_DGRAM)");
	EXPECT(call("socket", AF_NETLINK_, SOCK_RAW_, NETLINK_ROUTE_), ALLOW,
	       "socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)");
	EXPECT(call("socketpair", AF_UNIX_, SOCK_STREAM_, 0), ALLOW,
	       "socketpair(AF_UNIX, SOCK_STREAM)");
	EXPECT(call("connect", 3, 0x1000, 16), ALLOW, "connect");
	EXPECT(call("listen", 3, 128, 0), ALLOW, "listen");
}

/* The programs without a network namespace, for native ABI `native` and
 * its compat ABIs. */
static void
check_net_modes(int native, const int *compat, size_t ncompat)
{
	static const struct {
		enum sandbox_net net;
		bool notify, notify_connect, host_ipc, emulate;
	} modes[] = {
		{ SANDBOX_NET_HOST_PORTS, true, true, false, false },
		{ SANDBOX_NET_HOST_PORTS, true, false, false, false },
		/* notify_connect needs notify */
		{ SANDBOX_NET_HOST_PORTS, false, true, false, false },
		{ SANDBOX_NET_NONE, true, false, false, false },
		{ SANDBOX_NET_NONE, false, false, false, false },
		/* Landlock-only mode's, with and without a supervisor, and
		 * without user notification. */
		{ SANDBOX_NET_NONE, true, false, true, true },
		{ SANDBOX_NET_NONE, true, false, true, false },
		{ SANDBOX_NET_NONE, false, false, true, false },
	};
	size_t m, i;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct seccomp_opts o = {
			.notify = modes[m].notify, .net = modes[m].net,
			.notify_connect = modes[m].notify_connect,
			.host_ipc = modes[m].host_ipc,
			.emulate = modes[m].emulate,
			.guard = modes[m].emulate,
		};
		struct sock_fprog p;
		int r = seccomp_compile_arch(abis[native].scmp, &o, &p);

		CHECK_INT(r, 0);
		if (r < 0)
			continue;
		prog = &p;
		deny = o.notify ? SECCOMP_RET_USER_NOTIF :
				  SECCOMP_RET_ERRNO | EPERM;
		host_ipc = o.host_ipc;
		for (i = 0; i <= ncompat; i++) {
			abi = i ? compat[i - 1] : native;
			check_deny_set();
			check_ipc();
			check_args();
			if (o.net == SANDBOX_NET_NONE)
				check_no_ip();
			else
				check_host_ports(o.notify &&
						 o.notify_connect);
		}
		free(p.filter);
	}
}

/* Checks the program for native ABI `native` and its compat ABIs; any
 * other ABI gets ENOSYS. */
static void
check_program(int native, const int *compat, size_t ncompat,
	      const int *foreign, size_t nforeign)
{
	int allow_unix, notify;
	size_t i;

	for (allow_unix = 0; allow_unix < 2; allow_unix++)
		for (notify = 0; notify < 2; notify++) {
			/* Unix sockets only where a supervisor makes their
			 * connects (notify). */
			struct seccomp_opts o = { .allow_unix = allow_unix,
						  .notify = notify };
			struct sock_fprog p;
			int r;

			if (abis[native].scmp == seccomp_arch_native())
				r = seccomp_compile(&o, &p);
			else
				r = seccomp_compile_arch(abis[native].scmp,
							 &o, &p);
			CHECK_INT(r, 0);
			if (r < 0)
				continue;
			prog = &p;
			deny = notify ? SECCOMP_RET_USER_NOTIF :
					SECCOMP_RET_ERRNO | EPERM;
			host_ipc = false;
			for (i = 0; i <= ncompat; i++) {
				abi = i ? compat[i - 1] : native;
				check_numbers();
				check_deny_set();
				check_ipc();
				check_plain();
				check_sockets(allow_unix && notify);
				check_args();
				check_setid();
			}
			for (i = 0; i < nforeign; i++) {
				abi = foreign[i];
				EXPECT(call("getpid", 0, 0, 0), ENOSYS_RET,
				       "getpid (foreign ABI)");
				EXPECT(call("mount", 0, 0, 0), ENOSYS_RET,
				       "mount (foreign ABI)");
			}
			free(p.filter);
		}
}

/* allow_ptrace: what debuggers need passes, on every ABI of the program;
 * the rest of the ptrace group does not. fanotify_init is the kernel's
 * to answer (an unprivileged user gets its FID-reporting kind). */
static void
check_ptrace(int native, const int *compat, size_t ncompat)
{
	static const char *const passed[] = {
		"ptrace", "process_vm_readv", "process_vm_writev",
		"fanotify_init",
	};
	static const char *const refused[] = {
		"pidfd_getfd", "kcmp", "process_madvise",
	};
	struct seccomp_opts o = { .notify = true, .allow_ptrace = true };
	struct sock_fprog p;
	size_t i, k;

	if (abis[native].scmp == seccomp_arch_native())
		CHECK_INT(seccomp_compile(&o, &p), 0);
	else
		CHECK_INT(seccomp_compile_arch(abis[native].scmp, &o, &p), 0);
	prog = &p;
	deny = SECCOMP_RET_USER_NOTIF;
	for (i = 0; i <= ncompat; i++) {
		abi = i ? compat[i - 1] : native;
		for (k = 0; k < sizeof(passed) / sizeof(passed[0]); k++)
			if (nr_of(passed[k]) >= 0)
				EXPECT(call(passed[k], 0, 0, 0), ALLOW,
				       passed[k]);
		for (k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			if (nr_of(refused[k]) >= 0)
				EXPECT(call(refused[k], 0, 0, 0), deny,
				       refused[k]);
	}
	free(p.filter);
}

/* Every name in the deny set is known to libseccomp on some ABI: a
 * misspelt or too-new name would otherwise be skipped without a word. */
static void
test_names_known(void)
{
	const char *const *n;
	size_t g;
	int a;

	for (g = 0; g < syscall_deny_ngroups; g++)
		for (n = syscall_deny_groups[g].names; n && *n; n++) {
			int known = 0;

			for (a = 0; a < NABI; a++)
				known |= seccomp_syscall_resolve_name_arch(
						 abis[a].scmp, *n) >= 0;
			if (!known)
				fprintf(stderr, "unknown syscall %s\n", *n);
			CHECK(known);
		}
}

/* A notification's (arch, nr) reads as the syscall's name on every ABI. */
static void
test_names(void)
{
	char buf[32];
	size_t i;

	for (abi = 0; abi < NABI; abi++)
		for (i = 0; i < NSYS; i++) {
			int nr = sys[i].nr[abi];

			if (nr < 0)
				continue;
			seccomp_nr_name(abis[abi].audit,
					(int)((uint32_t)nr | abis[abi].nr_bit),
					buf, sizeof(buf));
			CHECK_STR(buf, sys[i].name);
		}
	seccomp_nr_name(AUDIT_ARCH_AARCH64, 100000, buf, sizeof(buf));
	CHECK_STR(buf, "?");
}

int
main(void)
{
	static const int x86_compat[] = { I386, X32 };
	static const int x86_foreign[] = { AARCH64, ARM };
	static const int arm_compat[] = { ARM };
	static const int arm_foreign[] = { X86_64, I386 };

	printf("native ABI: %s\n",
	       seccomp_arch_native() == SCMP_ARCH_X86_64 ? "x86_64" :
	       seccomp_arch_native() == SCMP_ARCH_AARCH64 ? "aarch64" :
							     "other");
	/* libseccomp builds user notification only when the kernel it probes
	 * has it, and qemu-user has no seccomp at all. These programs are only
	 * built and interpreted, never loaded: the API level changes no
	 * instruction of them, only what libseccomp agrees to build. */
	if (seccomp_api_get() < 5)
		CHECK_INT(seccomp_api_set(5), 0);
	test_names_known();
	test_names();
	check_program(X86_64, x86_compat, 2, x86_foreign, 2);
	check_program(AARCH64, arm_compat, 1, arm_foreign, 2);
	check_net_modes(X86_64, x86_compat, 2);
	check_net_modes(AARCH64, arm_compat, 1);
	check_ptrace(X86_64, x86_compat, 2);
	check_ptrace(AARCH64, arm_compat, 1);
	UNIT_DONE();
}
