/* Linux backend start-up: probes what the kernel offers, compiles the
 * seccomp program once, and records what is weaker than designed so
 * `sbxctl status` can say so (degrade visibly, never silently). */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux-backend.h"
#include "daemon/linux-landlock.h"
#include "daemon/linux-seccomp.h"
#include "daemon/protect.h"

static struct linux_backend lb;

static void __attribute__((format(printf, 1, 2)))
degrade(const char *fmt, ...)
{
	va_list ap;

	if (lb.caps.ndegraded >= 8)
		return;
	va_start(ap, fmt);
	vsnprintf(lb.caps.degraded[lb.caps.ndegraded++],
		  sizeof(lb.caps.degraded[0]), fmt, ap);
	va_end(ap);
}

/* Can this process make the namespaces a sandbox needs? Tried in a child so
 * the daemon itself stays where it is. */
static bool
probe_userns(void)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID |
			      CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) ?
			      1 : 0);
	if (waitpid(pid, &st, 0) < 0)
		return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static bool
probe_notify(void)
{
	char buf[256] = "";
	FILE *f = fopen("/proc/sys/kernel/seccomp/actions_avail", "re");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "user_notif") != NULL;
}

static int
load_groups(void)
{
	struct passwd *pw = getpwuid(lb.cfg.uid);
	int n = LINUX_MAX_GROUPS;

	if (!lb.cfg.privileged) {
		lb.ngroups = 0;
		return 0;
	}
	if (!pw)
		return -ENOENT;
	if (getgrouplist(pw->pw_name, lb.cfg.gid, lb.groups, &n) < 0)
		n = LINUX_MAX_GROUPS; /* truncated: keep what fit */
	lb.ngroups = n;
	return 0;
}

static int
probe_mount_api(void)
{
	struct mount_attr a = { 0 };

	/* EBADF/EINVAL prove the syscall exists; ENOSYS means < 5.12. */
	if (mount_setattr(-1, "", 0, &a, sizeof(a)) < 0 && errno == ENOSYS)
		return -ENOSYS;
	return 0;
}

/* What every session's supervisor shares: its own filter (the deny set,
 * refused outright), the table of syscalls it emulates, and the lock
 * that orders their checks. */
static int
setup_supervisors(void)
{
	int r = seccomp_compile(SECCOMP_NATIVE_ONLY | SECCOMP_SUPERVISOR,
				&lb.seccomp_super);

	if (r < 0)
		return r;
	if (lb.caps.protect_new) {
		if ((r = seccomp_syscall_table(lb.sys, SUP_MAX_SYS)) < 0)
			return r;
		lb.nsys = (size_t)r;
	}
	lb.lock_fd = memfd_create("sbx-supervisors", MFD_CLOEXEC);
	return lb.lock_fd < 0 ? -errno : 0;
}

int
sandbox_init(const struct sandbox_config *cfg, char *err, size_t errlen)
{
	int n = 0, r;

	lb.cfg = *cfg;
	lb.caps.backend = "linux";
	lb.caps.privileged = cfg->privileged;
	if (probe_mount_api() < 0) {
		snprintf(err, errlen, "kernel lacks the mount API "
			 "(mount_setattr, Linux >= 5.12); refusing to run "
			 "commands unsandboxed");
		return -ENOSYS;
	}
	if (!cfg->privileged) {
		lb.caps.userns = probe_userns();
		if (!lb.caps.userns) {
			snprintf(err, errlen, "cannot create user namespaces "
				 "(unprivileged userns disabled or restricted); "
				 "run sbxd in privileged mode: sudo sbxd --user "
				 "NAME");
			return -EPERM;
		}
		lb.caps.namespaces[n++] = "user";
	}
	lb.caps.namespaces[n++] = "mnt";
	lb.caps.namespaces[n++] = "pid";
	lb.caps.namespaces[n++] = "net";
	lb.caps.namespaces[n++] = "ipc";
	lb.caps.namespaces[n++] = "uts";
	lb.caps.namespaces[n] = NULL;
	if ((r = load_groups()) < 0) {
		snprintf(err, errlen, "uid %u has no passwd entry",
			 (unsigned)cfg->uid);
		return r;
	}
	lb.caps.landlock_abi = landlock_probe_abi();
	if (lb.caps.landlock_abi == 0)
		degrade("Landlock unavailable: writes are limited by "
			"read-only mounts only");
	else if (lb.caps.landlock_abi < 6)
		degrade("Landlock ABI %d: no signal or abstract-socket "
			"scoping (needs ABI 6)", lb.caps.landlock_abi);
	if (lb.caps.landlock_abi > 0 && lb.caps.landlock_abi < 3)
		degrade("Landlock ABI %d: truncate not restricted",
			lb.caps.landlock_abi);
	lb.caps.seccomp = prctl(PR_GET_SECCOMP) >= 0;
	lb.caps.seccomp_notify = lb.caps.seccomp && probe_notify();
	lb.lock_fd = -1;
	if (!lb.caps.seccomp) {
		degrade("seccomp unavailable: syscall deny set not applied, "
			"protected paths guarded only once they exist");
		return 0;
	}
	lb.caps.protect_new = lb.caps.seccomp_notify && seccomp_probe_emulate();
	r = seccomp_compile((lb.caps.seccomp_notify ? SECCOMP_NOTIFY : 0) |
			    (lb.caps.protect_new ? SECCOMP_EMULATE : 0),
			    &lb.seccomp);
	if (r == 0 && lb.caps.seccomp_notify)
		r = setup_supervisors();
	if (r < 0) {
		snprintf(err, errlen, "compiling the seccomp filter: %s",
			 strerror(-r));
		return r;
	}
	lb.have_seccomp = true;
	if (!lb.caps.seccomp_notify)
		degrade("no seccomp user notification: refused syscalls are "
			"not reported");
	if (!lb.caps.protect_new)
		degrade("protected paths that do not exist yet are made "
			"read-only only once they appear, not refused (needs "
			"seccomp user notification, Linux 5.19)");
	return 0;
}

/* One report from a session's supervisor. Never blocks; a record of the
 * wrong size is skipped (the supervisor runs beside untrusted code). */
int
sandbox_denial_read(int fd, struct sandbox_denial *out)
{
	struct sup_report rep;
	ssize_t n = recv(fd, &rep, sizeof(rep), MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
	if (n == 0)
		return -EPIPE;
	if (n != (ssize_t)sizeof(rep))
		return -EAGAIN;
	memset(out, 0, sizeof(*out));
	out->pid = rep.pid;
	seccomp_syscall_name(rep.arch, rep.nr, out->syscall,
			     sizeof(out->syscall));
	memcpy(out->args, rep.args, sizeof(out->args));
	if (rep.kind == SUP_REPORT_PROTECT && rep.op >= 0 &&
	    rep.op < PROTECT_NOPS) {
		out->operation = protect_op_name((enum protect_op)rep.op);
		snprintf(out->path, sizeof(out->path), "%.*s",
			 (int)sizeof(rep.path), rep.path);
		snprintf(out->detail, sizeof(out->detail), "%.*s",
			 (int)sizeof(rep.detail), rep.detail);
	}
	return 0;
}

const struct sandbox_caps *
sandbox_caps(void)
{
	return &lb.caps;
}

void
linux_backend_audit(bool on, const char *why)
{
	lb.caps.landlock_audit = on;
	if (!on)
		degrade("Landlock audit: %s; filesystem denials are not "
			"reported", why);
}

const struct linux_backend *
linux_backend(void)
{
	return &lb;
}
