/* The builtin seccomp deny set: groups of refused syscalls under rule ids,
 * and how a refused call is described. Argument values are Linux's ABI
 * numbers, written out so this file builds (and is tested) on any OS. */
#include <stdio.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/syscall-deny.h"

/* The groups for every sandbox leave host_ipc out (false). */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define LINUX_AF_UNIX 1
#define LINUX_AF_INET 2
#define LINUX_AF_INET6 10
#define LINUX_MSG_FASTOPEN 0x20000000
#define LINUX_TIOCSTI 0x5412
#define LINUX_TIOCLINUX 0x541c
#define LINUX_SYS_SOCKET 1 /* socketcall's call number for socket() */
#define LINUX_SOCK_STREAM 1
#define LINUX_SOCK_NONBLOCK 0x800
#define LINUX_SOCK_CLOEXEC 0x80000

const struct syscall_setid syscall_deny_setid[] = {
	{ "chmod", 1, -1, false }, { "fchmod", 1, -1, false },
	{ "fchmodat", 2, -1, false }, { "fchmodat2", 2, -1, false },
	{ "creat", 1, -1, true }, { "mknod", 1, -1, true },
	{ "mknodat", 2, -1, true }, { "open", 2, 1, true },
	{ "openat", 3, 2, true },
};
const size_t syscall_deny_nsetid =
	sizeof(syscall_deny_setid) / sizeof(syscall_deny_setid[0]);

static const char *const mount_names[] = {
	"mount", "umount", "umount2", "pivot_root", "chroot", "move_mount",
	"open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
	"mount_setattr", NULL,
};
static const char *const setns_names[] = { "setns", NULL };
static const char *const ptrace_names[] = {
	"ptrace", "process_vm_readv", "process_vm_writev",
	"process_madvise", "pidfd_getfd", "kcmp", NULL,
};
/* What a debugger needs (strace, gdb); the rest of the group (pidfd_getfd,
 * kcmp, process_madvise) no debugger does. */
static const char *const ptrace_debug_names[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", NULL,
};

bool
syscall_deny_ptrace_ok(const char *name)
{
	const char *const *n;

	for (n = ptrace_debug_names; *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

static const char *const bpf_names[] = { "bpf", NULL };
static const char *const keyctl_names[] = {
	"keyctl", "add_key", "request_key", NULL,
};
static const char *const io_uring_names[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register", NULL,
};
static const char *const perf_names[] = { "perf_event_open", NULL };
static const char *const userfaultfd_names[] = { "userfaultfd", NULL };
static const char *const handle_names[] = {
	"open_by_handle_at", "name_to_handle_at", NULL,
};
/* SysV IPC and POSIX message queues: an IPC namespace's. (i386 reaches
 * SysV IPC through the ipc() multiplexer too; semtimedop_time64 and the
 * mq_*_time64 calls are the 32-bit ABIs'.) */
static const char *const ipc_names[] = {
	"shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl",
	"semget", "semop", "semtimedop", "semtimedop_time64", "semctl", "ipc",
	"mq_open", "mq_unlink", "mq_timedsend", "mq_timedsend_time64",
	"mq_timedreceive", "mq_timedreceive_time64", "mq_notify",
	"mq_getsetattr", NULL,
};
static const char *const admin_names[] = {
	"kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module", "reboot", "swapon", "swapoff", "acct", "quotactl",
	"quotactl_fd", "lookup_dcookie", "syslog",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"vhangup", "nfsservctl", "uselib", "iopl", "ioperm", NULL,
};

const struct syscall_deny_group syscall_deny_groups[] = {
	{ "seccomp.mount", VIOLATION_SYSCALL,
	  "the sandbox's mounts are fixed: nothing inside may mount or "
	  "change its root", mount_names },
	{ "seccomp.setns", VIOLATION_SYSCALL,
	  "joining another namespace would leave the sandbox", setns_names },
	{ "seccomp.ptrace", VIOLATION_SYSCALL,
	  "debuggers are refused in this sandbox (the policy's "
	  "process.allowPtrace is false, or this host has no Landlock to "
	  "keep them to the sandbox's processes); debug outside it",
	  ptrace_names },
	{ "seccomp.bpf", VIOLATION_SYSCALL,
	  "eBPF is refused in the sandbox; run BPF tools outside it",
	  bpf_names },
	{ "seccomp.keyctl", VIOLATION_SYSCALL,
	  "the kernel keyring is shared with your login session and refused "
	  "in the sandbox", keyctl_names },
	{ "seccomp.io_uring", VIOLATION_SYSCALL,
	  "io_uring is refused (its operations would bypass the filter); "
	  "most tools fall back to ordinary I/O", io_uring_names },
	{ "seccomp.perf_event_open", VIOLATION_SYSCALL,
	  "profiling with perf is refused in the sandbox; profile outside it",
	  perf_names },
	{ "seccomp.userfaultfd", VIOLATION_SYSCALL,
	  "userfaultfd is refused in the sandbox", userfaultfd_names },
	{ "seccomp.file-handles", VIOLATION_SYSCALL,
	  "file handles would bypass the sandbox's path rules; open files "
	  "by path", handle_names },
	{ "seccomp.admin", VIOLATION_SYSCALL,
	  "system administration (modules, clocks, reboot, swap, ...) is "
	  "not for sandboxed commands", admin_names },
	/* Only without an IPC namespace: the objects are the host's. */
	{ "seccomp.ipc", VIOLATION_IPC,
	  "SysV IPC and POSIX message queues are refused: this host gives "
	  "sandboxes no IPC namespace, so they would be those of your other "
	  "processes; use pipes, socketpairs or files in TMPDIR",
	  ipc_names, true },
	{ "seccomp.userns", VIOLATION_SYSCALL,
	  "new user namespaces are refused in the sandbox (they would hand "
	  "back capabilities)", NULL },
	{ "seccomp.tty-inject", VIOLATION_SYSCALL,
	  "typing into the terminal (TIOCSTI, TIOCLINUX) is refused: it "
	  "would run commands outside the sandbox", NULL },
	{ "seccomp.unix-socket", VIOLATION_IPC,
	  "Unix sockets outside the sandbox reach host services (session "
	  "bus, agents, docker): harmless if it was libc looking for nscd; "
	  "sockets in the writable paths and /tmp work, a host one needs "
	  "network.allowUnixSockets (datagram Unix sockets are refused; "
	  "without a network namespace, all of them)",
	  NULL },
	{ "seccomp.setid", VIOLATION_SYSCALL,
	  "setuid and setgid files are not made in the sandbox (they would "
	  "run with their owner's rights outside it)", NULL },
	{ "seccomp.socket-family", VIOLATION_SYSCALL,
	  "only IP sockets (the network through the proxy), Unix socketpairs "
	  "and route netlink work in the sandbox", NULL },
	{ "seccomp.ip-socket", VIOLATION_SYSCALL,
	  "this kind of IP socket is refused in the sandbox: the network is "
	  "reached through the proxy (HTTP_PROXY, ALL_PROXY), over TCP; "
	  "sbxctl status says how this host confines it", NULL },
	/* Only without a network namespace: the host's ports are shared. */
	{ "seccomp.listen", VIOLATION_SYSCALL,
	  "listening is refused: this host gives sandboxes no network "
	  "namespace, so a server would listen on the host's own ports; "
	  "run servers outside the sandbox", NULL },
	{ "seccomp.tcp-fastopen", VIOLATION_SYSCALL,
	  "TCP Fast Open (MSG_FASTOPEN) is refused: it would connect past "
	  "the sandbox's port rules; connect() first, then send", NULL },
	{ "seccomp.connect", VIOLATION_NETWORK,
	  "only the session's proxy can be connected to (this host gives "
	  "sandboxes no network namespace): go through HTTP_PROXY or "
	  "ALL_PROXY, where the policy decides", NULL },
};
const size_t syscall_deny_ngroups =
	sizeof(syscall_deny_groups) / sizeof(syscall_deny_groups[0]);

static const struct syscall_deny_group *
find(const char *id)
{
	size_t i;

	for (i = 0; i < syscall_deny_ngroups; i++)
		if (!strcmp(syscall_deny_groups[i].id, id))
			return &syscall_deny_groups[i];
	return NULL;
}

static const struct syscall_deny_group *
group_of(const char *name, const uint64_t args[6])
{
	const char *const *n;
	size_t i;

	if (!strcmp(name, "socket"))
		return find(args[0] == LINUX_AF_UNIX ? "seccomp.unix-socket" :
			    args[0] == LINUX_AF_INET ||
			    args[0] == LINUX_AF_INET6 ? "seccomp.ip-socket" :
			    "seccomp.socket-family");
	/* i386's multiplexer: the filter cannot see which family its
	 * arguments in memory name, and refuses every socket it makes. */
	if (!strcmp(name, "socketcall"))
		return find("seccomp.socket-family");
	if (!strcmp(name, "socketpair"))
		return find("seccomp.unix-socket");
	for (i = 0; i < syscall_deny_nsetid; i++)
		if (!strcmp(name, syscall_deny_setid[i].name))
			return find("seccomp.setid");
	if (!strcmp(name, "listen"))
		return find("seccomp.listen");
	if (!strcmp(name, "connect"))
		return find("seccomp.connect");
	if (!strcmp(name, "sendto") || !strcmp(name, "sendmsg") ||
	    !strcmp(name, "sendmmsg"))
		return find("seccomp.tcp-fastopen");
	if (!strcmp(name, "ioctl"))
		return find("seccomp.tty-inject");
	if (!strcmp(name, "unshare") || !strcmp(name, "clone"))
		return find("seccomp.userns");
	for (i = 0; i < syscall_deny_ngroups; i++)
		for (n = syscall_deny_groups[i].names; n && *n; n++)
			if (!strcmp(*n, name))
				return &syscall_deny_groups[i];
	return NULL;
}

/* Linux address families by number, as far as sockets are made. */
static const char *
family_name(uint64_t f)
{
	static const char *const names[] = {
		[0] = "AF_UNSPEC", [1] = "AF_UNIX", [2] = "AF_INET",
		[3] = "AF_AX25", [4] = "AF_IPX", [5] = "AF_APPLETALK",
		[9] = "AF_X25", [10] = "AF_INET6", [15] = "AF_KEY",
		[16] = "AF_NETLINK", [17] = "AF_PACKET", [21] = "AF_RDS",
		[24] = "AF_PPPOX", [29] = "AF_CAN", [30] = "AF_TIPC",
		[31] = "AF_BLUETOOTH", [38] = "AF_ALG", [40] = "AF_VSOCK",
		[41] = "AF_KCM", [42] = "AF_QIPCRTR", [43] = "AF_SMC",
		[44] = "AF_XDP", [45] = "AF_MCTP",
	};

	return f < sizeof(names) / sizeof(names[0]) ? names[f] : NULL;
}

static const char *
type_name(uint64_t t)
{
	static const char *const names[] = {
		[1] = "SOCK_STREAM", [2] = "SOCK_DGRAM", [3] = "SOCK_RAW",
		[4] = "SOCK_RDM", [5] = "SOCK_SEQPACKET", [6] = "SOCK_DCCP",
		[10] = "SOCK_PACKET",
	};

	t &= 0xf; /* SOCK_CLOEXEC and SOCK_NONBLOCK are above */
	return t < sizeof(names) / sizeof(names[0]) ? names[t] : NULL;
}

static void
socket_target(const uint64_t args[6], char *buf, size_t len)
{
	const char *f = family_name(args[0]), *t = type_name(args[1]);
	char fn[24], tn[24];

	if (!f)
		snprintf(fn, sizeof(fn), "family %llu",
			 (unsigned long long)args[0]);
	if (!t)
		snprintf(tn, sizeof(tn), "type %llu",
			 (unsigned long long)(args[1] & 0xf));
	/* SOCK_NONBLOCK tells libc's probes (nscd, the resolver's UDP) from
	 * a program's own blocking sockets. */
	const char *nb = args[1] & LINUX_SOCK_NONBLOCK ? "|SOCK_NONBLOCK" : "";

	if (args[0] == 16 /* AF_NETLINK: the protocol is the point */)
		snprintf(buf, len, "socket(%s, %s%s, %llu)", f ? f : fn,
			 t ? t : tn, nb, (unsigned long long)args[2]);
	else
		snprintf(buf, len, "socket(%s, %s%s)", f ? f : fn, t ? t : tn,
			 nb);
}

/* unshare's and clone's namespace flags (CLONE_NEW*). */
static void
ns_flags(const char *name, uint64_t flags, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		{ 0x10000000, "CLONE_NEWUSER" }, { 0x00020000, "CLONE_NEWNS" },
		{ 0x20000000, "CLONE_NEWPID" }, { 0x40000000, "CLONE_NEWNET" },
		{ 0x08000000, "CLONE_NEWIPC" }, { 0x04000000, "CLONE_NEWUTS" },
		{ 0x02000000, "CLONE_NEWCGROUP" }, { 0x00000080, "CLONE_NEWTIME" },
	};
	size_t i, n;

	n = (size_t)snprintf(buf, len, "%s(", name);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]) && n < len; i++)
		if (flags & bits[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      buf[n - 1] == '(' ? "" : "|",
					      bits[i].name);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

/* glibc's nscd client opens socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
 * SOCK_NONBLOCK, 0) and connects it to nscd's socket in every program
 * that looks up a user, group or host, and goes on without it when that
 * fails: a refusal it expects, never the cause of a failure. */
static bool
expected(const char *name, const uint64_t args[6], const char *addr)
{
	static const char nscd[] = "/nscd/socket";
	size_t n;

	if (!strcmp(name, "socket"))
		return args[0] == LINUX_AF_UNIX && args[2] == 0 &&
		       args[1] == (LINUX_SOCK_STREAM | LINUX_SOCK_CLOEXEC |
				   LINUX_SOCK_NONBLOCK);
	/* The same probe where sockets are made and connect() is judged
	 * (/var/run/nscd/socket, /run/nscd/socket). */
	n = addr ? strlen(addr) : 0;
	return !strcmp(name, "connect") && n >= sizeof(nscd) - 1 &&
	       !strcmp(addr + n - (sizeof(nscd) - 1), nscd);
}

bool
syscall_deny_direct_net(const struct violation *v)
{
	const char *id = v->rule_id ? v->rule_id : "";

	return !strcmp(id, "seccomp.connect") ||
	       (!strcmp(id, "seccomp.ip-socket") && v->target &&
		strstr(v->target, "SOCK_DGRAM|SOCK_NONBLOCK"));
}

void
syscall_deny_describe(const char *name, const uint64_t args[6],
		      const char *addr, struct violation *v, char *target,
		      size_t tlen)
{
	const struct syscall_deny_group *g = group_of(name, args);

	/* A Unix socket's connect names a path, or @ an abstract name. */
	if (!strcmp(name, "connect") && addr && (addr[0] == '/' ||
						 addr[0] == '@'))
		g = find("seccomp.unix-socket");
	memset(v, 0, sizeof(*v));
	v->kind = g ? g->kind : VIOLATION_SYSCALL;
	v->rule = SYSCALL_DENY_RULE;
	v->rule_id = g ? g->id : "seccomp";
	v->reason = g ? g->reason : NULL;
	v->layer = POLICY_LAYER_BUILTIN;
	v->operation = name;
	v->expected = expected(name, args, addr);
	if (!strcmp(name, "socket"))
		socket_target(args, target, tlen);
	else if (!strcmp(name, "socketcall"))
		snprintf(target, tlen, args[0] == LINUX_SYS_SOCKET ?
			 "socketcall(SYS_SOCKET)" : "socketcall(%llu)",
			 (unsigned long long)args[0]);
	else if (!strcmp(name, "ioctl"))
		snprintf(target, tlen, "ioctl(%s)",
			 (args[1] & 0xffffffffu) == LINUX_TIOCSTI ? "TIOCSTI" :
			 (args[1] & 0xffffffffu) == LINUX_TIOCLINUX ?
			 "TIOCLINUX" : "?");
	else if (!strcmp(name, "unshare") || !strcmp(name, "clone"))
		ns_flags(name, args[0], target, tlen);
	else if (!strcmp(name, "sendto") || !strcmp(name, "sendmsg") ||
		 !strcmp(name, "sendmmsg"))
		snprintf(target, tlen, "%s(MSG_FASTOPEN)", name);
	else if (!strcmp(name, "connect") && addr)
		snprintf(target, tlen, "%s", addr);
	else
		snprintf(target, tlen, "%s", name);
	v->target = target;
}
