/* sbxctl doctor on Linux: the kernel checks. Each runs the probe sbxd runs
 * (daemon/linux/probe.c) or the operation a sandbox performs, then reads
 * the sysctls that explain a failure, so the fix names the knob. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/doctor.h"
#include "daemon/linux/landlock-abi.h"
#include "daemon/linux/landlock.h"
#include "daemon/linux/probe.h"
#include "daemon/linux/seccomp.h"

/* The value of a numeric sysctl, or -1 when it does not exist. */
static long
sysctl_value(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static const char *
failed(const struct probe_fail *f, char *buf, size_t len)
{
	if (f->err)
		snprintf(buf, len, "%s: %s", f->step, strerror(f->err));
	else
		snprintf(buf, len, "%s", f->step);
	return buf;
}

static const char *
user_name(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw ? pw->pw_name : "USER";
}

/* Returns whether this process can make a sandbox's namespaces. */
static bool
check_userns(struct doctor *d, const struct doctor_daemon *dd)
{
	struct doctor_userns u = { NULL, 0, { 0 }, getuid(), user_name() };
	struct probe_fail f = { "", 0 };
	char buf[160];

	if (probe_userns(&f) < 0)
		u.failed = failed(&f, buf, sizeof(buf));
	u.err = f.err;
	u.sysctl.clone =
		sysctl_value("/proc/sys/kernel/unprivileged_userns_clone");
	u.sysctl.max = sysctl_value("/proc/sys/user/max_user_namespaces");
	u.sysctl.apparmor = sysctl_value(
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	doctor_userns(d, &u, dd);
	return !u.failed;
}

static void
check_mount_api(struct doctor *d)
{
	struct doctor_check *c;

	if (probe_mount_api() == 0) {
		doctor_add(d, DOCTOR_OK, "mount-api", "the mount API is there "
			   "(mount_setattr)");
		return;
	}
	c = doctor_add(d, DOCTOR_FAIL, "mount-api", "no mount API "
		       "(mount_setattr: ENOSYS): sbxd refuses to run commands");
	doctor_fix(c, "use Linux >= 5.12");
}

/* A scratch directory under dir; "" when it cannot be made. */
static const char *
scratch(const char *dir, const char *name, char *buf)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX ||
	    mkdir(buf, 0700) < 0)
		buf[0] = '\0';
	return buf;
}

static void
check_landlock(struct doctor *d, const struct doctor_daemon *dd,
	       const char *dir)
{
	char lost[256], buf[160], sub[PATH_MAX];
	int abi = landlock_probe_abi(), e = errno, n;
	struct doctor_check *c;
	struct probe_fail f;

	if (abi == 0) {
		c = doctor_add(d, DOCTOR_WARN, "landlock", "unavailable "
			       "(landlock_create_ruleset: %s): writes are "
			       "limited by read-only mounts only",
			       strerror(e));
		doctor_fix(c, e == EOPNOTSUPP ? "Landlock is built in but off: "
			   "add landlock to the lsm= kernel parameter (see "
			   "/sys/kernel/security/lsm for the current list) and "
			   "reboot" : "use a kernel built with "
			   "CONFIG_SECURITY_LANDLOCK=y (ABI 6 needs Linux "
			   ">= 6.12)");
		return;
	}
	if (probe_landlock(abi, scratch(dir, "landlock", sub), &f) < 0) {
		c = doctor_add(d, DOCTOR_FAIL, "landlock", "ABI %d, but "
			       "enforcing it failed: %s", abi,
			       failed(&f, buf, sizeof(buf)));
		doctor_fix(c, "sbx relies on Landlock ABI %d here and it does "
			   "not confine writes: check the kernel log (dmesg) "
			   "and report it with this output", abi);
		return;
	}
	n = landlock_abi_missing(abi, 6, lost, sizeof(lost));
	if (n) {
		c = doctor_add(d, DOCTOR_WARN, "landlock", "ABI %d enforces "
			       "(a write outside the allowed tree was "
			       "refused), but %s", abi, lost);
		doctor_fix(c, "use a kernel with Landlock ABI 6 (Linux >= "
			   "6.12) to get them");
	} else {
		landlock_abi_missing(abi, LANDLOCK_ABI_USED, lost,
				     sizeof(lost));
		doctor_add(d, DOCTOR_OK, "landlock", "ABI %d: every right sbx "
			   "uses; a write outside the allowed tree was refused "
			   "(EACCES)%s%s", abi, abi < 7 ? "; " : "; audit "
			   "logging (ABI 7)", lost);
	}
	if (dd->up && dd->landlock_abi != abi) {
		c = doctor_add(d, DOCTOR_WARN, "landlock", "sbxd uses ABI %d "
			       "(what it found when it started), not %d",
			       dd->landlock_abi, abi);
		doctor_fix(c, "restart sbxd (stop pid %d; the next sbxctl "
			   "starts it again)", dd->pid);
	}
}

/* The deny set sbxd compiles, loaded in a child by the probe sbxd runs. */
static int
seccomp_try(bool notify, struct probe_fail *f)
{
	struct sock_fprog prog;
	int r = seccomp_compile(&(struct seccomp_opts){ .notify = notify },
				&prog);

	if (r < 0) {
		snprintf(f->step, sizeof(f->step), "compiling the deny set");
		f->err = -r;
		return r;
	}
	r = probe_seccomp(&prog, notify, f);
	free(prog.filter);
	return r;
}

/* The daemon found less than the kernel offers: it probed before a
 * change, or under other restrictions. */
static void
stale_daemon(struct doctor *d, const struct doctor_daemon *dd,
	     enum doctor_status st, const char *name, const char *what)
{
	doctor_fix(doctor_add(d, st, name, "sbxd does not use it: %s", what),
		   "restart sbxd (stop pid %d; the next sbxctl starts it "
		   "again); if it still does not, look at `sbxctl status`",
		   dd->pid);
}

static void
check_seccomp(struct doctor *d, const struct doctor_daemon *dd)
{
	struct doctor_check *c;
	struct probe_fail f;
	char buf[160];

	if (seccomp_try(false, &f) < 0) {
		c = doctor_add(d, DOCTOR_FAIL, "seccomp", "sbx's deny set "
			       "cannot be applied: %s",
			       failed(&f, buf, sizeof(buf)));
		doctor_fix(c, "use a kernel with CONFIG_SECCOMP_FILTER=y; if "
			   "sbxd runs under a seccomp policy of its own (a "
			   "container, SystemCallFilter=), let it call "
			   "seccomp(2)");
	} else if (dd->up && !dd->seccomp)
		stale_daemon(d, dd, DOCTOR_FAIL, "seccomp", "it found no "
			     "seccomp when it started");
	else
		doctor_add(d, DOCTOR_OK, "seccomp", "sbx's deny set loads; "
			   "keyctl under it was refused with EPERM");
	if (seccomp_try(true, &f) < 0) {
		c = doctor_add(d, DOCTOR_WARN, "seccomp-notify", "refused "
			       "syscalls are refused but not reported, and "
			       "sandboxes get no Unix sockets (their connects "
			       "are made by a supervisor that needs it): %s",
			       failed(&f, buf, sizeof(buf)));
		doctor_fix(c, "use Linux >= 5.0 with CONFIG_SECCOMP_FILTER=y "
			   "(SECCOMP_FILTER_FLAG_NEW_LISTENER)");
	} else if (dd->up && !dd->seccomp_notify)
		stale_daemon(d, dd, DOCTOR_WARN, "seccomp-notify", "it found "
			     "no user notification when it started");
	else
		doctor_add(d, DOCTOR_OK, "seccomp-notify", "keyctl was "
			   "reported to a listener, which answered EPERM, as "
			   "sbxd reports refused syscalls");
	if (probe_notify_sync(&f) == 0) {
		doctor_add(d, DOCTOR_OK, "notify-wakeup", "a supervisor is "
			   "woken on the CPU of the command that waits for it "
			   "(SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)");
		return;
	}
	c = doctor_add(d, DOCTOR_WARN, "notify-wakeup", "each file a sandbox "
		       "makes waits for its supervisor to be scheduled: %s",
		       failed(&f, buf, sizeof(buf)));
	doctor_fix(c, "use Linux >= 6.6 (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)");
}

/* A check that needs a user namespace this process cannot make. */
static void
needs_userns(struct doctor *d, const char *name)
{
	doctor_fix(doctor_add(d, DOCTOR_WARN, name, "not tried: this "
			      "process cannot create a user namespace"),
		   "fix userns first (see its line)");
}

/* Transparent capture, as sbxd probes it, once a network namespace
 * works. */
static void
check_capture(struct doctor *d, bool userns)
{
	struct probe_fail f;
	char buf[160];

	if (probe_capture(userns, &f) == 0) {
		doctor_add(d, DOCTOR_OK, "capture", "routes and nftables in a "
			   "new network namespace send a connection to any "
			   "address to sbxd's capture port: programs that "
			   "ignore the proxy variables reach the proxy too");
		return;
	}
	doctor_fix(doctor_add(d, DOCTOR_WARN, "capture", "%s: only programs "
			      "that use the proxy variables reach the network",
			      failed(&f, buf, sizeof(buf))),
		   "use a kernel with nf_tables and its NAT, redirect and "
		   "conntrack parts (CONFIG_NF_TABLES, CONFIG_NFT_NAT, "
		   "CONFIG_NFT_REDIR, CONFIG_NF_CONNTRACK)");
}

static void
check_netns(struct doctor *d, bool userns)
{
	struct doctor_check *c;
	struct probe_fail f;
	char buf[160];

	/* Only root makes a network namespace without a user namespace. */
	if (!userns && geteuid() != 0) {
		needs_userns(d, "netns");
		return;
	}
	if (probe_netns(userns, &f) == 0) {
		doctor_add(d, DOCTOR_OK, "netns", "a new network namespace%s "
			   "brings loopback up and connects over 127.0.0.1",
			   userns ? " (in a new user namespace)" : "");
		check_capture(d, userns);
		return;
	}
	/* sbxd does without: the host's network, confined to the proxy
	 * (Landlock TCP rules, connect() made by sbxd, seccomp), or no IP
	 * at all where Landlock has no TCP rules; status says which. */
	c = doctor_add(d, DOCTOR_WARN, "netns", "%s: sandboxes share the "
		       "host's network, which sbxd confines to each session's "
		       "proxy (sbxctl status says how)",
		       failed(&f, buf, sizeof(buf)));
	if (f.err == ENOSPC)
		doctor_fix(c, "raise the limit: sudo sysctl -w "
			   "user.max_net_namespaces=10000 (in a container, "
			   "the limit of its user namespace)");
	else
		doctor_fix(c, "use a kernel built with CONFIG_NET_NS=y; in a "
			   "container, allow it to create network namespaces");
}

static void
check_overlay(struct doctor *d, bool userns, const char *dir)
{
	char buf[160], sub[PATH_MAX];
	struct doctor_check *c;
	struct probe_fail f;

	if (!userns) {
		needs_userns(d, "overlay");
		return;
	}
	if (probe_overlay(scratch(dir, "overlay", sub), NULL, true, getuid(),
			  getgid(), &f) == 0) {
		doctor_add(d, DOCTOR_OK, "overlay", "overlayfs mounts in a user "
			   "namespace and copies a written file up (the "
			   "home overlay)");
		return;
	}
	c = doctor_add(d, DOCTOR_WARN, "overlay", "%s: sandboxes see the "
		       "home read-only, so tool caches there cannot be "
		       "written", failed(&f, buf, sizeof(buf)));
	doctor_fix(c, "Linux >= 5.11 mounts overlayfs in user namespaces "
		   "(with userxattr); or run sbxd in privileged mode");
}

static void
check_audit(struct doctor *d, const struct doctor_daemon *dd)
{
	const char *why = dd->audit_off[0] ? dd->audit_off :
			  "it needs Landlock ABI 7";
	struct doctor_check *c;
	char priv[160];

	if (!dd->up) {
		doctor_fix(doctor_add(d, DOCTOR_WARN, "audit", "unknown: no "
				      "sbxd to ask"), "see the daemon line");
		return;
	}
	if (dd->landlock_audit) {
		doctor_add(d, DOCTOR_OK, "audit", "sbxd reads Landlock denials "
			   "from the audit log (filesystem and signal "
			   "violations are reported)");
		return;
	}
	c = doctor_add(d, DOCTOR_WARN, "audit", "filesystem denials are "
		       "refused but not reported: %s", why);
	if (strstr(why, "audit is off"))
		doctor_fix(c, "turn kernel audit on: sudo auditctl -e 1 "
			   "(auditd, or audit=1 on the kernel command line, "
			   "keeps it on)");
	else if (dd->landlock_abi < 7)
		doctor_fix(c, "use Linux >= 6.15 (Landlock ABI 7)");
	else if (!dd->privileged)
		doctor_fix(c, "%s", doctor_privileged(getuid(), user_name(),
			   priv, sizeof(priv)));
	else
		doctor_fix(c, "give sbxd CAP_AUDIT_READ (sbxd@.service does)");
}

/* The cgroup v2 group of pid ("0::PATH" in /proc/PID/cgroup). */
static int
cgroup_of(pid_t pid, char *buf, size_t len)
{
	char path[64], line[PATH_MAX + 8];
	FILE *f;
	int r = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			r = snprintf(buf, len, "%s", line + 3) < (int)len ?
			    0 : -ENAMETOOLONG;
			break;
		}
	fclose(f);
	return r;
}

/* Where the cgroup2 hierarchy is mounted (mountinfo field 5). */
static int
cgroup2_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *sep, *mnt = NULL;
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (r < 0 && fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		strtok(line, " ");
		for (int i = 0; i < 4 && (mnt = strtok(NULL, " ")); i++)
			;
		if (mnt) {
			snprintf(buf, len, "%s", mnt);
			r = 0;
		}
	}
	fclose(f);
	return r;
}

/* The daemon's word on its sandboxes' cgroups: what bounds them, or what
 * does not, why, and the fix (its text: "...; fix: ..."). */
static void
daemon_cgroups(struct doctor *d, const struct doctor_daemon *dd)
{
	struct doctor_check *c;
	char why[sizeof(dd->cgroups_off)], *fix;

	if (!dd->cgroups_off[0]) {
		doctor_add(d, DOCTOR_OK, "cgroup", "each sandbox in a cgroup of "
			   "its own (%s): %s", dd->cgroups, dd->limits);
		return;
	}
	snprintf(why, sizeof(why), "%s", dd->cgroups_off);
	if ((fix = strstr(why, "; fix: ")))
		*fix = '\0';
	c = doctor_add(d, DOCTOR_WARN, "cgroup", "%s%s%s", why,
		       dd->cgroups[0] ? "; in use: " : "", dd->cgroups);
	doctor_fix(c, "%s", fix ? fix + 7 : "see sbxctl status");
}

/* How the home layer's size is held: a file system of that size (a root
 * daemon), or a measure after each run (a user's: a run can overshoot). */
static void
daemon_home_quota(struct doctor *d, const struct doctor_daemon *dd)
{
	struct doctor_check *c;

	if (!dd->home_quota[0])
		return;
	if (strstr(dd->home_quota, "loop-mounted")) {
		doctor_add(d, DOCTOR_OK, "home-quota", "%s", dd->home_quota);
		return;
	}
	c = doctor_add(d, DOCTOR_WARN, "home-quota", "%s", dd->home_quota);
	doctor_fix(c, "the layer is bounded by the file system only in "
		   "privileged mode (sbxd@.service, root): a run can write "
		   "past limits.home before it ends");
}

/* Each sandbox gets a cgroup with its limits where sbxd may make them:
 * the daemon says so when it answers; without one, whether a daemon
 * started by this user could (its group delegated, a group can be made
 * below it). */
static void
check_cgroup(struct doctor *d, const struct doctor_daemon *dd)
{
	char mnt[PATH_MAX], cg[PATH_MAX], dir[2 * PATH_MAX], sub[3 * PATH_MAX];
	char ctrl[256] = "", how[160];
	const char *who = "sbxctl";
	const char *later = "a daemon started here would run sandboxes "
			    "without memory and process limits";
	pid_t pid = getpid();
	struct doctor_check *c;
	bool usable = true, both;
	FILE *f;

	if (dd->up) {
		daemon_cgroups(d, dd);
		daemon_home_quota(d, dd);
		return;
	}
	if (cgroup2_mount(mnt, sizeof(mnt)) < 0 ||
	    cgroup_of(pid, cg, sizeof(cg)) < 0) {
		c = doctor_add(d, DOCTOR_WARN, "cgroup", "no cgroup v2 "
			       "hierarchy for %s (pid %d)", who, (int)pid);
		doctor_fix(c, "%s; boot with systemd.unified_cgroup_"
			   "hierarchy=1 for cgroup v2", later);
		return;
	}
	snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(cg, "/") ? cg : "");
	snprintf(sub, sizeof(sub), "%s/cgroup.controllers", dir);
	if ((f = fopen(sub, "re"))) {
		if (!fgets(ctrl, sizeof(ctrl), f))
			ctrl[0] = '\0';
		ctrl[strcspn(ctrl, "\n")] = '\0';
		fclose(f);
	}
	snprintf(sub, sizeof(sub), "%s/sbx-doctor.%d", dir, (int)getpid());
	if (mkdir(sub, 0755) == 0) {
		rmdir(sub);
		snprintf(how, sizeof(how), "is delegated (a group below it "
			 "was made)");
	} else {
		snprintf(how, sizeof(how), "is not delegated (mkdir: %s)",
			 strerror(errno));
		usable = false;
	}
	both = strstr(ctrl, "memory") && strstr(ctrl, "pids");
	c = doctor_add(d, usable && both ? DOCTOR_OK : DOCTOR_WARN, "cgroup",
		       "cgroup v2 at %s; %s's group %s %s; controllers: %s",
		       mnt, who, cg, how, ctrl[0] ? ctrl : "none");
	if (!usable)
		doctor_fix(c, "%s; to have one, start sbxd from its systemd "
			   "user unit (systemctl --user enable --now "
			   "sbxd.socket; sbxd.service has Delegate=yes)", later);
	else if (!both)
		doctor_fix(c, "%s; memory and pids are not on cgroup v2 here: "
			   "boot with systemd.unified_cgroup_hierarchy=1",
			   later);
}

void
doctor_host(struct doctor *d, const struct doctor_daemon *dd,
	    const char *dir)
{
	bool userns = check_userns(d, dd);

	check_mount_api(d);
	check_landlock(d, dd, dir);
	check_seccomp(d, dd);
	check_netns(d, userns);
	check_overlay(d, userns, dir);
	check_audit(d, dd);
	check_cgroup(d, dd);
}
