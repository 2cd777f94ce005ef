/* Linux backend start-up: probes what the kernel offers, compiles the
 * seccomp program once, and records what is weaker than designed so
 * `sbxctl status` can say so (degrade visibly, never silently). */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/landlock-abi.h"
#include "daemon/linux-backend.h"
#include "daemon/linux-landlock.h"
#include "daemon/linux-llonly.h"
#include "daemon/linux-probe.h"
#include "daemon/linux-seccomp.h"

static struct linux_backend lb;

static void __attribute__((format(printf, 1, 2)))
degrade(const char *fmt, ...)
{
	va_list ap;

	if (lb.caps.ndegraded >= SANDBOX_MAX_DEGRADED)
		return;
	va_start(ap, fmt);
	vsnprintf(lb.caps.degraded[lb.caps.ndegraded++],
		  sizeof(lb.caps.degraded[0]), fmt, ap);
	va_end(ap);
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

/* The deny set, compiled once; denials go to the daemon as user
 * notifications where the kernel can, else straight to EPERM. Each program
 * is loaded in a probe first, so what the caps say was seen to work. */
static int
setup_seccomp(char *err, size_t errlen)
{
	struct probe_fail f;
	bool notify = true;
	int r;

	for (;;) {
		r = seccomp_compile(false, notify, &lb.seccomp);
		if (r < 0) {
			snprintf(err, errlen, "compiling the seccomp filter: %s",
				 strerror(-r));
			return r;
		}
		if (probe_seccomp(&lb.seccomp, notify, &f) == 0)
			break;
		free(lb.seccomp.filter);
		lb.seccomp.filter = NULL;
		if (!notify) {
			degrade("seccomp unavailable (%s: %s): syscall deny "
				"set not applied", f.step, strerror(f.err));
			return 0;
		}
		notify = false;
	}
	lb.caps.seccomp = true;
	lb.caps.seccomp_notify = notify;
	lb.have_seccomp = true;
	if (!notify)
		degrade("no seccomp user notification: refused syscalls are "
			"not reported");
	return 0;
}

int
sandbox_init(const struct sandbox_config *cfg, char *err, size_t errlen)
{
	struct probe_fail f;
	char lost[sizeof(lb.caps.degraded[0])];
	int n = 0, r;

	lb.cfg = *cfg;
	lb.caps.backend = "linux";
	lb.caps.privileged = cfg->privileged;
	if (!cfg->privileged && (cfg->landlock_only || probe_userns(&f) < 0)) {
		/* No namespaces to build: linux-llonly.c says what holds. */
		lb.caps.namespaces[0] = NULL;
		if ((r = llonly_init(&lb.caps, cfg->landlock_only ? NULL : &f,
				     err, errlen)) < 0)
			return r;
		return setup_seccomp(err, errlen);
	}
	if (probe_mount_api() < 0) {
		snprintf(err, errlen, "kernel lacks the mount API "
			 "(mount_setattr, Linux >= 5.12); refusing to run "
			 "commands unsandboxed");
		return -ENOSYS;
	}
	if (!cfg->privileged) {
		lb.caps.userns = probe_userns(&f) == 0;
		if (!lb.caps.userns) {
			snprintf(err, errlen, "cannot create user namespaces "
				 "(%s: %s); `sbxctl doctor` says why, or run "
				 "sbxd in privileged mode: sudo sbxd --user "
				 "NAME", f.step, strerror(f.err));
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
	else if (landlock_abi_missing(lb.caps.landlock_abi, LANDLOCK_ABI_USED,
				      lost, sizeof(lost)))
		degrade("Landlock ABI %d: %s", lb.caps.landlock_abi, lost);
	return setup_seccomp(err, errlen);
}

int
sandbox_denial_read(int fd, struct sandbox_denial *out)
{
	return seccomp_notify_answer(fd, out);
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
	snprintf(lb.caps.landlock_audit_off,
		 sizeof(lb.caps.landlock_audit_off), "%s", on ? "" : why);
	if (!on)
		degrade("Landlock audit: %s; filesystem denials are not "
			"reported", why);
}

const struct linux_backend *
linux_backend(void)
{
	return &lb;
}
