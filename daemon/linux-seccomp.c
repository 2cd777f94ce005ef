/* libseccomp glue: the syscalls a sandboxed developer tool never needs fail
 * with EPERM (never a kill), compiled to BPF once in the daemon so each
 * spawn only loads it. */
#define _GNU_SOURCE
#include <errno.h>
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux-seccomp.h"
#include "daemon/sandbox.h"

/* libseccomp's SCMP_A0() leaves datum_b to zero-initialisation. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* Denied outright: filesystem and namespace reshaping, kernel attack surface
 * a build or test never needs, and process inspection across the sandbox. */
static const char *const deny_names[] = {
	"mount", "umount", "umount2", "pivot_root", "chroot", "move_mount",
	"open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
	"mount_setattr", "setns", "ptrace", "process_vm_readv",
	"process_vm_writev", "process_madvise", "bpf", "keyctl", "add_key",
	"request_key", "io_uring_setup", "io_uring_enter",
	"io_uring_register", "perf_event_open", "userfaultfd", "kexec_load",
	"kexec_file_load", "init_module", "finit_module", "delete_module",
	"reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd",
	"lookup_dcookie", "fanotify_init", "open_by_handle_at",
	"name_to_handle_at", "syslog", "settimeofday", "clock_settime",
	"clock_adjtime", "adjtimex", "vhangup", "nfsservctl", "uselib",
	"iopl", "ioperm", "pidfd_getfd", "kcmp",
};

/* Socket families: only Unix (see above), IPv4, IPv6 and route netlink
 * (what getaddrinfo and `ip` need) are created; no raw or packet sockets,
 * no vsock (WSL's way back to Windows), nothing else. */
/* Denials go to the daemon (user notification: it answers EPERM and
 * records the event) when the kernel can, else straight to EPERM. */
static uint32_t deny_action = SCMP_ACT_ERRNO(EPERM);

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
add_denies(scmp_filter_ctx ctx, bool allow_unix)
{
	const uint32_t eperm = deny_action;
	size_t i;
	int r;

	for (i = 0; i < sizeof(deny_names) / sizeof(deny_names[0]); i++) {
		int nr = seccomp_syscall_resolve_name(deny_names[i]);

		if (nr == __NR_SCMP_ERROR)
			continue; /* not on this architecture */
		r = seccomp_rule_add(ctx, eperm, nr, 0);
		if (r < 0)
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
seccomp_compile(bool allow_unix, bool notify, struct sock_fprog *prog)
{
	scmp_filter_ctx ctx;
	int r;

	deny_action = notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
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
	if (r == 0 && seccomp_arch_native() == SCMP_ARCH_X86_64) {
		r = seccomp_arch_add(ctx, SCMP_ARCH_X86);
		if (r == 0)
			r = seccomp_arch_add(ctx, SCMP_ARCH_X32);
	} else if (r == 0 && seccomp_arch_native() == SCMP_ARCH_AARCH64)
		r = seccomp_arch_add(ctx, SCMP_ARCH_ARM);
	if (r == -EEXIST)
		r = 0;
	if (r == 0)
		r = add_denies(ctx, allow_unix);
	if (r == 0)
		r = export_prog(ctx, prog);
	seccomp_release(ctx);
	return r;
}

int
seccomp_load_prog(const struct sock_fprog *prog, bool notify)
{
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			 notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, prog);

	return r < 0 ? -errno : (int)r;
}

int
seccomp_notify_answer(int fd, struct sandbox_denial *out)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	const char *name;
	int r;

	/* The receive ioctl blocks when nothing is pending, whatever the
	 * fd's flags: look first. */
	r = poll(&pfd, 1, 0);
	if (r <= 0)
		return r < 0 ? -errno : -EAGAIN;
	if (pfd.revents & (POLLHUP | POLLERR))
		return -EPIPE;
	if (seccomp_notify_alloc(&req, &resp) < 0)
		return -ENOMEM;
	r = seccomp_notify_receive(fd, req);
	if (r == 0) {
		/* Every notification is a denial: the filter only notifies
		 * for what it refuses. */
		resp->id = req->id;
		resp->error = -EPERM;
		resp->val = 0;
		resp->flags = 0;
		r = seccomp_notify_respond(fd, resp);
		memset(out, 0, sizeof(*out));
		out->pid = (pid_t)req->pid;
		name = seccomp_syscall_resolve_num_arch(req->data.arch,
							req->data.nr);
		snprintf(out->syscall, sizeof(out->syscall), "%s",
			 name ? name : "?");
		free((void *)name);
		memcpy(out->args, req->data.args, sizeof(out->args));
		if (r == -ENOENT)
			r = 0; /* the caller went away meanwhile: still a denial */
	}
	seccomp_notify_free(req, resp);
	return r;
}
