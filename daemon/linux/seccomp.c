/* libseccomp glue: the syscalls a sandboxed developer tool never needs fail
 * with EPERM (never a kill), compiled to BPF once in the daemon so each
 * spawn only loads it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/seccomp.h"
#include "daemon/linux/supervise.h"
#include "daemon/sandbox.h"
#include "daemon/policy/syscall-deny.h"

/* libseccomp's SCMP_A0() leaves datum_b to zero-initialisation. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* Refuses syscall nr when every bit of bits is set in its argument arg. */
static int
deny_bits(scmp_filter_ctx ctx, uint32_t deny, int nr, unsigned arg,
	  scmp_datum_t bits)
{
	const struct scmp_arg_cmp c = { arg, SCMP_CMP_MASKED_EQ, bits, bits };

	return seccomp_rule_add(ctx, deny, nr, 1, c);
}

/* Socket families: only Unix (see add_denies), IPv4, IPv6 and route
 * netlink (what getaddrinfo and `ip` need) are created; no raw or packet
 * sockets, no vsock (WSL's way back to Windows), nothing else. Without a
 * network namespace IPv4 and IPv6 are narrowed further (add_host_net_rules)
 * or refused altogether (SANDBOX_NET_NONE). On 64-bit
 * ABIs the comparisons take all 64 bits, so a family with high bits set
 * (the kernel reads an int) is refused, not let through; on x32 and 32-bit
 * ABIs libseccomp compares the low 32, the int the kernel reads. i386's
 * socketcall keeps its arguments in memory: libseccomp turns these rules
 * into a refusal of socketcall(SYS_SOCKET, ...) as a whole. */
static int
add_socket_rules(scmp_filter_ctx ctx, uint32_t deny, enum sandbox_net net)
{
	const int raw_types[] = { SOCK_RAW, SOCK_PACKET };
	int fam, r = 0;
	size_t i;

	for (fam = 0; r == 0 && fam < AF_NETLINK; fam++) {
		if (fam == AF_UNIX ||
		    (net != SANDBOX_NET_NONE &&
		     (fam == AF_INET || fam == AF_INET6)))
			continue;
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam));
	}
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_GT, AF_NETLINK));
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
				     SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE));
	if (net != SANDBOX_NET_NAMESPACE)
		return r;
	for (i = 0; r == 0 && i < 2; i++) {
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_INET),
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf,
					     (scmp_datum_t)raw_types[i]));
		if (r == 0)
			r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
					     SCMP_A0(SCMP_CMP_EQ, AF_INET6),
					     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf,
						     (scmp_datum_t)raw_types[i]));
	}
	return r;
}

/*
 * The sandbox shares the host's network namespace; Landlock confines TCP
 * connect and bind to the session's proxy ports, and only TCP: so every
 * other IP socket is refused (UDP, raw, ICMP, SCTP, MPTCP: Landlock does
 * not restrict them), and so is what reaches past Landlock's TCP hooks:
 * listen() (it binds an unbound socket to an ephemeral port on every
 * address, with no bind hook) and MSG_FASTOPEN (sendto/sendmsg connect
 * without the connect hook: landlock-lsm/linux#41). The flags are the
 * fourth argument of sendto and sendmmsg, the third of sendmsg, on every
 * ABI sbx filters; i386's socketcall hides them in memory, and libseccomp
 * does not carry these rules over to it (the unit test saw
 * socketcall(SYS_SENDTO, ...) pass): those three are refused there whole.
 */
static int
add_host_net_rules(scmp_filter_ctx ctx, uint32_t deny, bool notify_connect)
{
	/* Not SOCK_STREAM: type 0, or any of the bits 1-3 set. */
	const scmp_datum_t masks[4][2] = { { 0xf, 0 }, { 0x2, 0x2 },
					   { 0x4, 0x4 }, { 0x8, 0x8 } };
	const int fams[2] = { AF_INET, AF_INET6 };
	/* Where each send call takes its flags. */
	const int sends[3][2] = { { SCMP_SYS(sendto), 3 },
				  { SCMP_SYS(sendmsg), 2 },
				  { SCMP_SYS(sendmmsg), 3 } };
	/* Their socketcall numbers (SYS_SENDTO, SYS_SENDMSG, SYS_SENDMMSG). */
	const int muxed[3] = { 11, 16, 20 };
	int r = 0, f, i;

	for (f = 0; r == 0 && f < 2; f++) {
		for (i = 0; r == 0 && i < 4; i++)
			r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
					     SCMP_A0(SCMP_CMP_EQ, fams[f]),
					     SCMP_A1(SCMP_CMP_MASKED_EQ,
						     masks[i][0], masks[i][1]));
		/* A stream socket's protocol: 0 or IPPROTO_TCP only. */
		for (i = 1; r == 0 && i < IPPROTO_TCP; i++)
			r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
					     SCMP_A0(SCMP_CMP_EQ, fams[f]),
					     SCMP_A2(SCMP_CMP_EQ, i));
		if (r == 0)
			r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
					     SCMP_A0(SCMP_CMP_EQ, fams[f]),
					     SCMP_A2(SCMP_CMP_GT, IPPROTO_TCP));
	}
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(listen), 0);
	for (i = 0; r == 0 && i < 3; i++)
		r = deny_bits(ctx, deny, sends[i][0], (unsigned)sends[i][1],
			      MSG_FASTOPEN);
	for (i = 0; r == 0 && i < 3; i++)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socketcall), 1,
				     SCMP_A0(SCMP_CMP_EQ, muxed[i]));
	/* The daemon makes the connection, to the proxy only (Landlock
	 * would allow its ports on any address): linux/connect.c. */
	if (r == 0 && notify_connect)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(connect),
				     0);
	return r;
}

/* No setuid or setgid file is made in the sandbox: the sandbox's mounts are
 * nosuid, the host's are not, and a root sandbox's file is root's on the
 * host. Refused: the chmod family with either bit, and a file created
 * with one (open and openat when they create). Where a supervisor
 * emulates the calls that create (add_emulated: every one reaches it) it
 * refuses those itself (linux/emulate.c), and they are left out here:
 * libseccomp 2.5 leaks a rule it folds into a broader one (ASan saw it);
 * so is the chmod family where the supervisor performs it too (guard).
 * mkdir is not listed: the kernel takes no setgid bit from its mode. */
static int
add_setid_rules(scmp_filter_ctx ctx, uint32_t deny, bool emulate, bool guard)
{
	const struct syscall_setid *calls = syscall_deny_setid;
	static const scmp_datum_t bits[] = { S_ISUID, S_ISGID };
	static const scmp_datum_t creating[] = { O_CREAT, __O_TMPFILE };
	size_t i, b, c;
	int nr, r = 0;

	for (i = 0; r == 0 && i < syscall_deny_nsetid; i++) {
		nr = seccomp_syscall_resolve_name(calls[i].name);
		if (nr == __NR_SCMP_ERROR || (emulate && calls[i].creates) ||
		    (guard && !calls[i].creates))
			continue;
		for (b = 0; r == 0 && b < 2; b++) {
			struct scmp_arg_cmp m = SCMP_CMP(
				(unsigned)calls[i].mode, SCMP_CMP_MASKED_EQ,
				bits[b], bits[b]);

			if (calls[i].flags < 0) {
				r = seccomp_rule_add_array(ctx, deny, nr, 1,
							   &m);
				continue;
			}
			for (c = 0; r == 0 && c < 2; c++) {
				struct scmp_arg_cmp cmp[2] = {
					SCMP_CMP((unsigned)calls[i].flags,
						 SCMP_CMP_MASKED_EQ,
						 creating[c], creating[c]),
					m,
				};

				r = seccomp_rule_add_array(ctx, deny, nr, 2,
							   cmp);
			}
		}
	}
	return r;
}

static int
add_denies(scmp_filter_ctx ctx, uint32_t deny, const struct seccomp_opts *o)
{
	/* Unix sockets need someone to make their connects. */
	const bool unix_ok = o->allow_unix && o->notify;
	const char *const *name;
	size_t i;
	int r;

	/* Denied outright (policy/syscall-deny.c says why, group by group):
	 * filesystem and namespace reshaping, kernel attack surface a build
	 * or test never needs, process inspection across the sandbox. A name
	 * the native ABI lacks (umount, iopl on aarch64) resolves to
	 * libseccomp's pseudo number, which still reaches the compat ABIs that
	 * have it (umount on i386, uselib on AArch32); only a name libseccomp
	 * does not know at all is skipped. A group for sandboxes without an
	 * IPC namespace applies only to them (host_ipc). */
	for (i = 0; i < syscall_deny_ngroups; i++)
		for (name = syscall_deny_groups[i].names;
		     name && *name &&
		     (o->host_ipc || !syscall_deny_groups[i].host_ipc);
		     name++) {
			int nr = seccomp_syscall_resolve_name(*name);

			if (nr == __NR_SCMP_ERROR)
				continue;
			/* Reading the command's memory and taking its
			 * sockets is the supervisor's job (its Landlock
			 * domain limits it to the command's). */
			if (o->supervisor &&
			    (!strcmp(*name, "process_vm_readv") ||
			     !strcmp(*name, "pidfd_getfd")))
				continue;
			/* Debuggers within the sandbox: Landlock confines
			 * ptrace to the domain's own processes (a tracer
			 * reaches only its domain and those nested in it),
			 * the pid namespace hides the rest. */
			if (o->allow_ptrace && syscall_deny_ptrace_ok(*name))
				continue;
			if ((r = seccomp_rule_add(ctx, deny, nr, 0)) < 0)
				return r;
		}
	/* New user namespaces would hand back capabilities (and the mount
	 * syscalls with them). clone3 takes its flags in memory BPF cannot
	 * read, so it reports ENOSYS and libc falls back to clone. The flags
	 * are clone's first argument on every ABI sbx filters (s390's
	 * CLONE_BACKWARDS2 is the exception). */
	r = deny_bits(ctx, deny, SCMP_SYS(unshare), 0, CLONE_NEWUSER);
	if (r == 0)
		r = deny_bits(ctx, deny, SCMP_SYS(clone), 0, CLONE_NEWUSER);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				     SCMP_SYS(clone3), 0);
	/* Terminal injection into whoever reads the tty after us. */
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
					     TIOCSTI));
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
					     TIOCLINUX));
	/* Named Unix sockets reach host services (session bus, agents,
	 * docker) that no mount restriction covers; socketpair stays.
	 * Where the supervisor makes every connect() (allow_unix: it
	 * connects only sockets inside the sandbox or named by a rule,
	 * linux/sockconn.c), stream and seqpacket sockets are made; a
	 * datagram socket is not (SOCK_RAW is one too): its sends name an
	 * address in memory BPF cannot read, and sendmsg is too common to
	 * hand every call to the supervisor. */
	if (r == 0 && !unix_ok)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
	/* One rule for both types (2 and 3: the low nibble & 0xe is 2):
	 * libseccomp leaks a second one it folds into i386's refusal of
	 * socketcall(SYS_SOCKET). */
	if (r == 0 && unix_ok)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_UNIX),
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xe,
					     SOCK_DGRAM));
	/* libseccomp carries this over to i386's socketcall(SYS_CONNECT),
	 * whose arguments are in memory: the supervisor knows no such
	 * operation and refuses it (EPERM); the direct connect() is there. */
	if (r == 0 && unix_ok)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(connect),
				     0);
	/* A socketpair's datagram end sends to whatever address sendto or
	 * sendmsg names, connected or not: host listeners at paths (a
	 * read-only mount does not stop it) and, without a network
	 * namespace, abstract names. Stream and seqpacket ends refuse or
	 * ignore an address, and stay. i386's socketcall hides the type in
	 * memory (libseccomp does not carry the rule over): refused whole
	 * there (SYS_SOCKETPAIR, 8). */
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socketpair), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_UNIX),
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf,
					     SOCK_DGRAM));
	if (r == 0)
		r = seccomp_rule_add(ctx, deny, SCMP_SYS(socketcall), 1,
				     SCMP_A0(SCMP_CMP_EQ, 8));
	if (r == 0)
		r = add_setid_rules(ctx, deny, o->emulate,
				    o->emulate && o->guard);
	if (r == 0)
		r = add_socket_rules(ctx, deny, o->net);
	if (r == 0 && o->net == SANDBOX_NET_HOST_PORTS)
		r = add_host_net_rules(ctx, deny,
				       o->notify && o->notify_connect);
	return r;
}

/* The filter's ABIs: arch and what its processes can also call through.
 * An x86-64 process makes i386 syscalls with int 0x80 and x32 ones with
 * bit 30 of the number set; an AArch64 process can exec an AArch32
 * binary. Each gets the same rules under its own numbers; any other ABI
 * (one the kernel has that is not listed here) gets ENOSYS, the filter's
 * bad-arch action, so none can go around the rules. */
/* The compat ABIs each native ABI's filter covers too. */
static const struct {
	uint32_t arch, compat;
} siblings[] = {
	{ SCMP_ARCH_X86_64, SCMP_ARCH_X86 },
	{ SCMP_ARCH_X86_64, SCMP_ARCH_X32 },
	{ SCMP_ARCH_AARCH64, SCMP_ARCH_ARM },
};
#define NSIBLINGS (sizeof(siblings) / sizeof(siblings[0]))

static int
add_arches(scmp_filter_ctx ctx, uint32_t arch)
{
	size_t i;
	int r = 0;

	if (arch != seccomp_arch_native()) {
		r = seccomp_arch_add(ctx, arch);
		if (r == 0)
			r = seccomp_arch_remove(ctx, seccomp_arch_native());
	}
	for (i = 0; r == 0 && i < NSIBLINGS; i++)
		if (siblings[i].arch == arch) {
			r = seccomp_arch_add(ctx, siblings[i].compat);
			if (r == -EEXIST)
				r = 0;
		}
	return r;
}

/* The file syscalls the supervisor performs (linux/emulate.c), by name;
 * openat only when it may write or create. Removal (unlink, rmdir) too
 * (linux/guard.c): protected names in a directory made during the run
 * are left to the supervisor, not bound, so only it can keep their
 * removal from leaving a checkout half done, and a refused removal is
 * then reported. chmod stays in the kernel where existing protected
 * paths are read-only binds (EROFS); without binds (Landlock-only mode:
 * guard) it goes to the supervisor too. */
static const struct {
	const char *name;
	int op;
	bool guard;
} emulated[] = {
	{ "open", SUP_OPEN, false }, { "openat", SUP_OPENAT, false },
	{ "creat", SUP_CREAT, false },
	{ "mkdir", SUP_MKDIR, false }, { "mkdirat", SUP_MKDIRAT, false },
	{ "mknod", SUP_MKNOD, false }, { "mknodat", SUP_MKNODAT, false },
	{ "symlink", SUP_SYMLINK, false },
	{ "symlinkat", SUP_SYMLINKAT, false },
	{ "link", SUP_LINK, false }, { "linkat", SUP_LINKAT, false },
	{ "rename", SUP_RENAME, false }, { "renameat", SUP_RENAMEAT, false },
	{ "renameat2", SUP_RENAMEAT2, false },
	{ "truncate", SUP_TRUNCATE, false },
	{ "truncate64", SUP_TRUNCATE64, false },
	{ "umask", SUP_UMASK, false },
	{ "unlink", SUP_UNLINK, false }, { "unlinkat", SUP_UNLINKAT, false },
	{ "rmdir", SUP_RMDIR, false },
	{ "chmod", SUP_CHMOD, true }, { "fchmod", SUP_FCHMOD, true },
	{ "fchmodat", SUP_FCHMODAT, true },
	{ "fchmodat2", SUP_FCHMODAT2, true },
};
#define NEMULATED (sizeof(emulated) / sizeof(emulated[0]))

static int
add_emulated(scmp_filter_ctx ctx, bool guard)
{
	static const unsigned bits[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC };
	size_t i, k;
	int nr, r = 0;

	for (i = 0; r == 0 && i < NEMULATED; i++) {
		if (emulated[i].guard && !guard)
			continue;
		nr = seccomp_syscall_resolve_name(emulated[i].name);
		if (nr == __NR_SCMP_ERROR)
			continue; /* not on this architecture */
		if (emulated[i].op != SUP_OPENAT) {
			r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
			continue;
		}
		/* A plain read-only openat stays in the kernel: fast (libc
		 * makes every open() an openat; open itself goes to the
		 * supervisor whatever its flags: a shorter filter). */
		for (k = 0; r == 0 && k < 4; k++) {
			struct scmp_arg_cmp c = SCMP_CMP(2, SCMP_CMP_MASKED_EQ,
							 bits[k], bits[k]);

			r = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 1,
						   &c);
		}
	}
	/* openat2 takes its flags in memory BPF cannot read: ENOSYS, and
	 * callers fall back to openat. */
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				     SCMP_SYS(openat2), 0);
	return r;
}

int
seccomp_syscall_table(struct sup_sys *out, size_t cap)
{
	const uint32_t native = seccomp_arch_native();
	uint32_t arches[1 + NSIBLINGS] = { native };
	size_t n = 0, na = 1, i, a;
	int nr;

	for (i = 0; i < NSIBLINGS; i++)
		if (siblings[i].arch == native)
			arches[na++] = siblings[i].compat;
	/* connect() reaches the supervisor only where the filter sends it
	 * (SANDBOX_NET_HOST_PORTS, allow_unix), and only the native ABI's is
	 * made. */
	nr = seccomp_syscall_resolve_name_arch(native, "connect");
	if (nr >= 0 && cap > 0) {
		out[n].arch = native;
		out[n].nr = nr;
		out[n++].op = SUP_CONNECT;
	}
	for (a = 0; a < na; a++)
		for (i = 0; i < NEMULATED; i++) {
			nr = seccomp_syscall_resolve_name_arch(arches[a],
							       emulated[i].name);
			if (nr < 0)
				continue;
			if (n == cap)
				return -E2BIG;
			out[n].arch = arches[a];
			out[n].nr = nr;
			out[n++].op = emulated[i].op;
		}
	return (int)n;
}

static int
export_prog(scmp_filter_ctx ctx, struct sock_fprog *prog)
{
	struct stat st;
	void *buf;
	int fd, r;

	fd = memfd_create("sbx-seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = seccomp_export_bpf(ctx, fd);
	if (r == 0 && fstat(fd, &st) < 0)
		r = -errno;
	if (r == 0 && (st.st_size <= 0 ||
		       st.st_size % (off_t)sizeof(struct sock_filter)))
		r = -EINVAL;
	if (r < 0) {
		close(fd);
		return r;
	}
	buf = malloc((size_t)st.st_size);
	if (!buf || pread(fd, buf, (size_t)st.st_size, 0) != st.st_size) {
		free(buf);
		close(fd);
		return -EIO;
	}
	close(fd);
	prog->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
	prog->filter = buf;
	return 0;
}

/* An empty filter for arch and, unless native_only, its compat ABIs (*r: 0
 * or -errno). */
static scmp_filter_ctx
filter_new(uint32_t arch, bool native_only, int *r)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	*r = -ENOMEM;
	if (!ctx)
		return NULL;
	/* Foreign-ABI syscalls would dodge the rules: refuse, do not kill. */
	*r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			      SCMP_ACT_ERRNO(ENOSYS));
	if (*r == 0)
		*r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (*r == 0)
		*r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (*r == 0 && !native_only)
		*r = add_arches(ctx, arch);
	return ctx;
}

int
seccomp_compile_arch(uint32_t arch, const struct seccomp_opts *o,
		     struct sock_fprog *prog)
{
	/* Denials go to the daemon (user notification: it answers EPERM and
	 * records the event) when the kernel can, else straight to EPERM. */
	const uint32_t deny = o->notify ? SCMP_ACT_NOTIFY :
					  SCMP_ACT_ERRNO(EPERM);
	scmp_filter_ctx ctx;
	int r;

	if (!(ctx = filter_new(arch, o->native_only, &r)))
		return r;
	if (r == 0)
		r = add_denies(ctx, deny, o);
	if (r == 0 && o->emulate)
		r = add_emulated(ctx, o->guard);
	if (r == 0)
		r = export_prog(ctx, prog);
	seccomp_release(ctx);
	return r;
}

int
seccomp_compile(const struct seccomp_opts *o, struct sock_fprog *prog)
{
	return seccomp_compile_arch(seccomp_arch_native(), o, prog);
}

int
seccomp_load_prog(const struct sock_fprog *prog, unsigned flags)
{
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog);

	return r < 0 ? -errno : (int)r;
}

/* Emulating a syscall needs its caller to stay put once the supervisor
 * has the notification (a signal would restart it, done twice): Linux
 * 5.19's SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV. Tried in a child. */
bool
seccomp_probe_emulate(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K,
					    SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(1);
		_exit(seccomp_load_prog(&prog, SECCOMP_FILTER_FLAG_NEW_LISTENER |
					SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
		      < 0 ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) < 0)
		return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

void
seccomp_nr_name(uint32_t arch, int nr, char *buf, size_t len)
{
	/* The last few are remembered, since a looping sandbox repeats one. */
	static struct {
		uint32_t arch;
		int nr;
		char name[32];
	} cache[16];
	static unsigned next;
	const char *name;
	unsigned i;

	/* The kernel reports x32 as x86-64 with bit 30 of the number set;
	 * libseccomp names it only under its own token. */
	if (arch == SCMP_ARCH_X86_64 && (nr & 0x40000000))
		arch = SCMP_ARCH_X32;
	for (i = 0; i < 16; i++)
		if (cache[i].name[0] && cache[i].arch == arch &&
		    cache[i].nr == nr) {
			snprintf(buf, len, "%s", cache[i].name);
			return;
		}
	name = seccomp_syscall_resolve_num_arch(arch, nr);
	snprintf(buf, len, "%s", name ? name : "?");
	free((void *)name);
	i = next++ % 16;
	cache[i].arch = arch;
	cache[i].nr = nr;
	snprintf(cache[i].name, sizeof(cache[i].name), "%s", buf);
}

int
seccomp_notify_answer(int fd, bool keep_connect, struct seccomp_notif *kept,
		      struct sandbox_denial *out)
{
	/* Allocated once: a looping sandbox sends a notification per try. */
	static struct seccomp_notif *req;
	static struct seccomp_notif_resp *resp;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	/* The receive ioctl blocks when nothing is pending, whatever the
	 * fd's flags: look first. */
	r = poll(&pfd, 1, 0);
	if (r <= 0)
		return r < 0 ? -errno : -EAGAIN;
	if (pfd.revents & (POLLHUP | POLLERR))
		return -EPIPE;
	if (!req && seccomp_notify_alloc(&req, &resp) < 0)
		return -ENOMEM;
	/* The kernel wants the request zeroed. */
	memset(req, 0, sizeof(*req));
	r = seccomp_notify_receive(fd, req);
	if (r == 0 && keep_connect && req->data.nr == SCMP_SYS(connect) &&
	    req->data.arch == seccomp_arch_native()) {
		*kept = *req;
		return 1;
	}
	if (r == 0) {
		/* Every other notification is a denial: the filter only
		 * notifies for what it refuses (and connect(), above; a
		 * foreign ABI's is refused). */
		resp->id = req->id;
		resp->error = -EPERM;
		resp->val = 0;
		resp->flags = 0;
		r = seccomp_notify_respond(fd, resp);
		memset(out, 0, sizeof(*out));
		out->pid = (pid_t)req->pid;
		seccomp_nr_name(req->data.arch, req->data.nr, out->syscall,
				sizeof(out->syscall));
		memcpy(out->args, req->data.args, sizeof(out->args));
		if (r == -ENOENT)
			r = 0; /* the caller went away meanwhile: still a denial */
	}
	return r;
}
