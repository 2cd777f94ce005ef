/* libseccomp glue: the syscalls a sandboxed developer tool never needs fail
 * with EPERM (never a kill), compiled to BPF once in the daemon so each
 * spawn only loads it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux-seccomp.h"
#include "daemon/linux-supervise.h"
#include "daemon/sandbox.h"
#include "daemon/syscall-deny.h"

/* libseccomp's SCMP_A0() leaves datum_b to zero-initialisation. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* Denials go to the daemon (user notification: it answers EPERM and
 * records the event) when the kernel can, else straight to EPERM. */
static uint32_t deny_action = SCMP_ACT_ERRNO(EPERM);

/* Socket families: only Unix (see add_denies), IPv4, IPv6 and route
 * netlink (what getaddrinfo and `ip` need) are created; no raw or packet
 * sockets, no vsock (WSL's way back to Windows), nothing else. */
static int
add_socket_rules(scmp_filter_ctx ctx)
{
	const uint32_t eperm = deny_action;
	const int raw_types[] = { SOCK_RAW, SOCK_PACKET };
	int fam, r = 0;
	size_t i;

	for (fam = 0; r == 0 && fam < AF_NETLINK; fam++) {
		if (fam == AF_UNIX || fam == AF_INET || fam == AF_INET6)
			continue;
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)fam));
	}
	if (r == 0)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_GT, AF_NETLINK));
	if (r == 0)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
				     SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE));
	for (i = 0; r == 0 && i < 2; i++) {
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_EQ, AF_INET),
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf,
					     (scmp_datum_t)raw_types[i]));
		if (r == 0)
			r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 2,
					     SCMP_A0(SCMP_CMP_EQ, AF_INET6),
					     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf,
						     (scmp_datum_t)raw_types[i]));
	}
	return r;
}

static int
add_denies(scmp_filter_ctx ctx, bool allow_unix, bool supervisor)
{
	const uint32_t eperm = deny_action;
	const char *const *name;
	size_t i;
	int r;

	/* Denied outright (syscall-deny.c says why, group by group):
	 * filesystem and namespace reshaping, kernel attack surface a build
	 * or test never needs, process inspection across the sandbox. */
	for (i = 0; i < syscall_deny_ngroups; i++)
		for (name = syscall_deny_groups[i].names; name && *name;
		     name++) {
			int nr = seccomp_syscall_resolve_name(*name);

			if (nr == __NR_SCMP_ERROR)
				continue; /* not on this architecture */
			/* Reading the command's memory is the supervisor's
			 * job (its Landlock domain limits it to the
			 * command's). */
			if (supervisor && !strcmp(*name, "process_vm_readv"))
				continue;
			if ((r = seccomp_rule_add(ctx, eperm, nr, 0)) < 0)
				return r;
		}
	/* New user namespaces would hand back capabilities (and the mount
	 * syscalls with them). clone3 takes its flags in memory BPF cannot
	 * read, so it reports ENOSYS and libc falls back to clone. */
	r = seccomp_rule_add(ctx, eperm, SCMP_SYS(unshare), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
				     CLONE_NEWUSER));
	if (r == 0)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(clone), 1,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
					     CLONE_NEWUSER));
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				     SCMP_SYS(clone3), 0);
	/* Terminal injection into whoever reads the tty after us. */
	if (r == 0)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
					     TIOCSTI));
	if (r == 0)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
					     TIOCLINUX));
	/* Named Unix sockets reach host services (session bus, agents,
	 * docker) that no mount restriction covers; socketpair stays. */
	if (r == 0 && !allow_unix)
		r = seccomp_rule_add(ctx, eperm, SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
	if (r == 0)
		r = add_socket_rules(ctx);
	return r;
}

/* The file syscalls the supervisor performs (linux-emulate.c), by name;
 * openat only when it may write or create. Removal (unlink, rmdir) stays
 * in the kernel: existing protected paths are read-only binds (EBUSY),
 * and what a removal frees cannot be made again with chosen content. */
static const struct {
	const char *name;
	int op;
} emulated[] = {
	{ "open", SUP_OPEN }, { "openat", SUP_OPENAT }, { "creat", SUP_CREAT },
	{ "mkdir", SUP_MKDIR }, { "mkdirat", SUP_MKDIRAT },
	{ "mknod", SUP_MKNOD }, { "mknodat", SUP_MKNODAT },
	{ "symlink", SUP_SYMLINK }, { "symlinkat", SUP_SYMLINKAT },
	{ "link", SUP_LINK }, { "linkat", SUP_LINKAT },
	{ "rename", SUP_RENAME }, { "renameat", SUP_RENAMEAT },
	{ "renameat2", SUP_RENAMEAT2 },
	{ "truncate", SUP_TRUNCATE }, { "truncate64", SUP_TRUNCATE64 },
	{ "umask", SUP_UMASK },
};
#define NEMULATED (sizeof(emulated) / sizeof(emulated[0]))

static int
add_emulated(scmp_filter_ctx ctx)
{
	static const unsigned bits[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC };
	size_t i, k;
	int nr, r = 0;

	for (i = 0; r == 0 && i < NEMULATED; i++) {
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
	uint32_t arches[3] = { native, 0, 0 };
	size_t n = 0, i, a;
	int nr;

	if (native == SCMP_ARCH_X86_64) {
		arches[1] = SCMP_ARCH_X86;
		arches[2] = SCMP_ARCH_X32;
	} else if (native == SCMP_ARCH_AARCH64)
		arches[1] = SCMP_ARCH_ARM;
	for (a = 0; a < 3 && arches[a]; a++)
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

int
seccomp_compile(unsigned flags, struct sock_fprog *prog)
{
	scmp_filter_ctx ctx;
	int r;

	deny_action = flags & SECCOMP_NOTIFY ? SCMP_ACT_NOTIFY :
					       SCMP_ACT_ERRNO(EPERM);
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -ENOMEM;
	/* Foreign-ABI syscalls would dodge the rules: refuse, do not kill. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			     SCMP_ACT_ERRNO(ENOSYS));
	if (r == 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	/* The native ABI's 32-bit sibling gets the same rules (an x86-64
	 * process can make i386 syscalls). */
	if (r == 0 && (flags & SECCOMP_NATIVE_ONLY))
		; /* the supervisor: native syscalls only */
	else if (r == 0 && seccomp_arch_native() == SCMP_ARCH_X86_64) {
		r = seccomp_arch_add(ctx, SCMP_ARCH_X86);
		if (r == 0)
			r = seccomp_arch_add(ctx, SCMP_ARCH_X32);
	} else if (r == 0 && seccomp_arch_native() == SCMP_ARCH_AARCH64)
		r = seccomp_arch_add(ctx, SCMP_ARCH_ARM);
	if (r == -EEXIST)
		r = 0;
	if (r == 0)
		r = add_denies(ctx, flags & SECCOMP_ALLOW_UNIX,
			       flags & SECCOMP_SUPERVISOR);
	if (r == 0 && (flags & SECCOMP_EMULATE))
		r = add_emulated(ctx);
	if (r == 0)
		r = export_prog(ctx, prog);
	seccomp_release(ctx);
	return r;
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

/* Syscall name of (arch, nr); the last few are remembered, since a
 * looping sandbox repeats one. */
void
seccomp_syscall_name(uint32_t arch, int nr, char *buf, size_t len)
{
	static struct {
		uint32_t arch;
		int nr;
		char name[32];
	} cache[16];
	static unsigned next;
	const char *name;
	unsigned i;

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
