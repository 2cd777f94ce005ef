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
#include <linux/seccomp.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/landlock-abi.h"
#include "daemon/linux/backend.h"
#include "daemon/linux/cgroup.h"
#include "daemon/linux/landlock.h"
#include "daemon/linux/llonly.h"
#include "daemon/linux/probe.h"
#include "daemon/linux/seccomp.h"
#include "daemon/linux/template.h"
#include "daemon/linux/linux.h"
#include "proto/fdpass.h"
#include "daemon/policy/protect.h"

static struct linux_backend lb;
/* The daemon may take a child's fd and read its memory (0, or -errno). */
static int connect_probe = -ENOSYS;

static void __attribute__((format(printf, 1, 2)))
degrade(const char *fmt, ...)
{
	va_list ap;

	if (lb.caps.ndegraded >= SANDBOX_DEGRADED_MAX)
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

/* Without a network namespace the network is confined by Landlock's TCP
 * rules and seccomp together (sandbox.h, SANDBOX_NET_HOST_PORTS); without
 * Landlock's TCP rules, by seccomp refusing IP sockets; without seccomp,
 * not at all, and then nothing runs (sandbox_init). (The abstract Unix
 * socket namespace is the host's too: sandboxes make no AF_UNIX sockets,
 * and Landlock ABI >= 6 scopes them anyway.) why is NULL when a network
 * namespace can be made. */
static void
choose_net(const char *why)
{
	struct probe_fail f;

	if (!why) {
		lb.caps.net = SANDBOX_NET_NAMESPACE;
		lb.caps.capture = probe_capture(!lb.cfg.privileged, &f) == 0;
		if (!lb.caps.capture)
			degrade("no transparent capture (%s: %s): only "
				"programs that use the proxy variables reach "
				"the network; others get no DNS and no route",
				f.step, f.err ? strerror(f.err) : "wrong");
		return;
	}
	if (lb.caps.landlock_abi < 4) {
		lb.caps.net = SANDBOX_NET_NONE;
		degrade("no network namespace (%s) and Landlock ABI %d < 4 "
			"(no TCP rules): sandboxes get no IP sockets at all, "
			"not even to the proxy", why, lb.caps.landlock_abi);
		return;
	}
	lb.caps.net = SANDBOX_NET_HOST_PORTS;
	connect_probe = linux_connect_probe();
}

/* SANDBOX_NET_HOST_PORTS, once seccomp is set up: Landlock's TCP rule
 * matches ports on any address, so the daemon makes the command's
 * connect() calls itself, to the proxy's address only (linux/connect.c),
 * when seccomp can hand them over and the daemon may take the command's
 * sockets. Status says which. */
static void
mediate_connect(const char *why)
{
	int r = !lb.caps.seccomp_notify ? -ENOSYS : connect_probe;

	lb.caps.connect_mediated = r == 0;
	degrade("no network namespace (%s): sandboxes share the host's "
		"network; TCP only, to their session's two proxy ports only "
		"(Landlock%s); no UDP, raw sockets or listening (seccomp)",
		why, r == 0 ? "; connect() made by sbxd" : "");
	/* Capturing needs a namespace whose routes and nftables are the
	 * sandbox's alone: in the host's, none can be made safely. */
	degrade("no transparent capture without a network namespace: only "
		"programs that use the proxy variables reach the network; "
		"others get no DNS and no route");
	if (r < 0)
		degrade("connect() is not made by sbxd (%s): Landlock matches "
			"the proxy ports on any address, so a server elsewhere "
			"listening on them is reachable around the proxy",
			r == -ENOSYS ? "no seccomp user notification" :
				       strerror(-r));
}

/* Can a sandbox have a network namespace? The probe makes one as
 * sandboxes do: in user mode inside a fresh user namespace, whose
 * ancestors' limits apply (user.max_net_namespaces = 0 forbids it while
 * user namespaces still work: ENOSPC). NULL, or why not in why[]. */
static const char *
netns_missing(const struct sandbox_config *cfg, char *why, size_t len)
{
	struct probe_fail f;

	if (cfg->no_netns)
		snprintf(why, len, "sbxd --no-netns");
	else if (probe_netns(!cfg->privileged, &f) < 0)
		snprintf(why, len, "cannot make one: %s: %s%s", f.step,
			 strerror(f.err), f.err == ENOSPC ?
			 ", user.max_net_namespaces" : "");
	else
		return NULL;
	return why;
}

/* What every session's supervisor shares: its own filter (the deny set,
 * refused outright), the table of syscalls it emulates, and the lock
 * that orders their checks. */
static int
setup_supervisors(void)
{
	int r = seccomp_compile(&(struct seccomp_opts){
					.native_only = true, .supervisor = true,
				}, &lb.seccomp_super);

	if (r < 0)
		return r;
	if ((r = seccomp_syscall_table(lb.sys, SUP_MAX_SYS)) < 0)
		return r;
	lb.nsys = (size_t)r;
	lb.lock_fd = sup_lock_create();
	return lb.lock_fd < 0 ? lb.lock_fd : 0;
}

/* Unix sockets need a supervisor to make their connects, and a network
 * namespace to keep abstract names the sandbox's own. */
static void
say_unix(void)
{
	if (lb.caps.unix_sockets || !lb.have_seccomp)
		return;
	degrade("Unix sockets are refused in sandboxes (socketpair works): %s",
		lb.caps.net != SANDBOX_NET_NAMESPACE ? "no network namespace, "
		"so an abstract name would be the host's" : "no supervisor to "
		"make their connects (seccomp user notification, Linux 5.19)");
}

/* The program of sandboxes whose policy says process.allowPtrace false:
 * the one in lb.seccomp with the ptrace family refused again. Without
 * Landlock, which keeps a tracer to its own domain, lb.seccomp refuses it
 * already and serves both. */
static int
setup_noptrace(char *err, size_t errlen)
{
	struct sock_fprog *p = &lb.seccomp_noptrace;
	int r;

	/* (Without seccomp nothing refuses anything: said already.) */
	lb.caps.ptrace = lb.have_seccomp && lb.caps.landlock_abi > 0;
	if (!lb.caps.ptrace) {
		if (lb.have_seccomp)
			degrade("debuggers (ptrace) are refused in sandboxes: "
				"no Landlock to keep them to the sandbox's own "
				"processes");
		return 0;
	}
	r = seccomp_compile(&(struct seccomp_opts){
				    .notify = lb.caps.seccomp_notify,
				    .emulate = lb.caps.protect_new,
				    .guard = lb.caps.protect_new &&
					lb.caps.landlock_only,
				    .host_ipc = lb.caps.landlock_only,
				    .net = lb.caps.net,
				    .notify_connect = lb.caps.seccomp_notify &&
					connect_probe == 0,
				    .allow_unix = lb.caps.unix_sockets,
			    }, p);
	if (r < 0)
		snprintf(err, errlen, "compiling the seccomp filter: %s",
			 strerror(-r));
	return r;
}

/* The deny set, compiled once; denials go to the daemon as user
 * notifications where the kernel can, else straight to EPERM. Each program
 * is loaded in a probe first, so what the caps say was seen to work. */
static int
setup_seccomp(bool emulate, char *err, size_t errlen)
{
	struct probe_fail f;
	bool notify = true;
	int r;

	for (;;) {
		r = seccomp_compile(&(struct seccomp_opts){
					    .notify = notify,
					    .host_ipc = lb.caps.landlock_only,
					    .net = lb.caps.net,
					    .notify_connect = notify &&
						connect_probe == 0,
					    .allow_ptrace =
						lb.caps.landlock_abi > 0,
				    }, &lb.seccomp);
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
			return setup_noptrace(err, errlen);
		}
		notify = false;
	}
	lb.caps.seccomp = true;
	lb.caps.seccomp_notify = notify;
	lb.have_seccomp = true;
	if (!notify)
		degrade("no seccomp user notification: refused syscalls are "
			"not reported");
	else if (probe_notify_sync(&f) < 0)
		degrade("no SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux < 6.6; "
			"%s: %s): each file a sandbox makes waits for its "
			"supervisor to be scheduled", f.step, strerror(f.err));
	if (emulate && notify && seccomp_probe_emulate()) {
		free(lb.seccomp.filter);
		lb.seccomp.filter = NULL;
		r = seccomp_compile(&(struct seccomp_opts){
					    .notify = true, .emulate = true,
					    .guard = lb.caps.landlock_only,
					    .host_ipc = lb.caps.landlock_only,
					    .net = lb.caps.net,
					    .notify_connect =
						connect_probe == 0,
					    .allow_unix = lb.caps.net ==
						SANDBOX_NET_NAMESPACE,
					    .allow_ptrace =
						lb.caps.landlock_abi > 0,
				    }, &lb.seccomp);
		if (r == 0)
			r = setup_supervisors();
		if (r < 0) {
			snprintf(err, errlen, "compiling the supervisors' "
				 "seccomp filters: %s", strerror(-r));
			return r;
		}
		lb.caps.protect_new = true;
		lb.caps.unix_sockets = lb.caps.net == SANDBOX_NET_NAMESPACE;
	}
	say_unix();
	return setup_noptrace(err, errlen);
}

/* What guards protected paths (docs/architecture.md, "Protected paths"),
 * once seccomp is set up:
 * the supervisor (protect_new) or, in the namespace modes, read-only
 * binds alone; in Landlock-only mode, without a supervisor, nothing. */
static void
say_protect(void)
{
	const char *why = !lb.caps.seccomp_notify ?
		"needs seccomp user notification" :
		"needs Linux 5.19's SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV";

	if (lb.caps.landlock_only && lb.caps.protect_new)
		degrade("protected and denyWrite paths inside the workspace "
			"are guarded by the session's supervisor, not "
			"read-only: writing, creating, truncating, renaming, "
			"linking, removing or chmod-ing them fails (EPERM); "
			"their times and xattrs are not guarded");
	else if (lb.caps.landlock_only)
		degrade("protected and denyWrite paths inside the workspace "
			"are NOT read-only (no supervisor: %s); outside it "
			"they are, like everything else", why);
	else if (!lb.caps.protect_new)
		degrade("protected paths that do not exist yet are made "
			"read-only only once they appear, not refused (%s)",
			why);
	/* Hard links of files outside the writable paths: read-only
	 * binds in the namespace modes (linux/walk.c). */
	if (lb.caps.landlock_only && lb.caps.protect_new)
		degrade("files with several hard links under the writable "
			"paths cannot be written (EPERM), links inside only "
			"too: without mounts a link outside them (a package "
			"store's) cannot be made read-only alone");
	else if (lb.caps.landlock_only)
		degrade("hard links of files outside the writable paths "
			"(a package store's) are NOT read-only (no "
			"supervisor: %s): a write changes the file outside",
			why);
}

/* The home overlay as templates make it, of the real home over layers on
 * a scratch tmpfs: the kernel (overlayfs in a user namespace needs Linux
 * >= 5.11) and the home's file system must both allow it. Without it the
 * home is read-only in sandboxes, which status says. */
static void
setup_home_overlay(void)
{
	struct probe_fail f;
	char dir[PATH_MAX];
	int n;

	if (!lb.cfg.home || !lb.cfg.statedir)
		return;
	n = snprintf(lb.layers_dir, sizeof(lb.layers_dir), "%s/home",
		     lb.cfg.statedir);
	if (n < 0 || (size_t)n >= sizeof(lb.layers_dir))
		return;
	snprintf(dir, sizeof(dir), "%s/probe-overlay", lb.cfg.rundir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		degrade("home overlay: %s: %s; the home is read-only in "
			"sandboxes", dir, strerror(errno));
		return;
	}
	if (probe_overlay(dir, lb.cfg.home, !lb.cfg.privileged, lb.cfg.uid,
			  lb.cfg.gid, &f) == 0)
		lb.caps.home_overlay = true;
	else
		degrade("no home overlay (%s: %s): the home is read-only in "
			"sandboxes", f.step, strerror(f.err));
	rmdir(dir);
}

/* What the limits' defaults are sized from (policy/limits.h), and the
 * sandboxes' cgroups (linux/cgroup.c); without them sandboxes run, with
 * the reason and the fix in the degraded list. */
static void
setup_limits(void)
{
	struct sysinfo si;
	struct rlimit rl;
	char buf[32];
	int fd;
	ssize_t n;

	if (sysinfo(&si) == 0)
		lb.caps.machine_ram = (uint64_t)si.totalram * si.mem_unit;
	if ((fd = open("/proc/sys/kernel/threads-max",
		       O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		lb.caps.machine_threads_max = strtoull(buf, NULL, 10);
	}
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		lb.caps.machine_nproc = rl.rlim_cur;
	if (lb.caps.landlock_only) {
		snprintf(lb.caps.cgroups_off, sizeof(lb.caps.cgroups_off),
			 "Landlock-only mode: sandboxes run without memory, "
			 "process or CPU limits");
	} else
		lcgroup_init(&lb.cfg, &lb.caps);
	if (lb.caps.cgroups_off[0])
		degrade("%s", lb.caps.cgroups_off);
}

int
sandbox_init(const struct sandbox_config *cfg, char *err, size_t errlen)
{
	struct probe_fail f;
	char lost[sizeof(lb.caps.degraded[0])], why[160];
	const char *nonet;
	int n = 0, r;

	lb.cfg = *cfg;
	lb.lock_fd = -1;
	lb.caps.backend = "linux";
	lb.caps.privileged = cfg->privileged;
	if (!cfg->privileged && (cfg->landlock_only || probe_userns(&f) < 0)) {
		/* No namespaces to build: linux/llonly.c says what holds. */
		lb.caps.namespaces[0] = NULL;
		/* No proxy listeners anywhere yet (the host-port fallback
		 * could serve this mode later): no IP sockets at all. */
		lb.caps.net = SANDBOX_NET_NONE;
		if ((r = llonly_init(&lb.caps, cfg->landlock_only ? NULL : &f,
				     err, errlen)) < 0 ||
		    (r = setup_seccomp(true, err, errlen)) < 0)
			return r;
		say_protect();
		setup_limits();
		/* The main filter refuses IP sockets (SANDBOX_NET_NONE) and
		 * reports them; without it this mode has nothing else that
		 * keeps the command off the network. */
		if (!lb.caps.seccomp) {
			snprintf(err, errlen, "no user namespaces and no "
				 "seccomp: the network cannot be kept from "
				 "commands; refusing to run them");
			return -ENOTSUP;
		}
		return 0;
	}
	if (probe_mount_api() < 0) {
		snprintf(err, errlen, "kernel lacks the mount API "
			 "(mount_setattr, Linux >= 5.12); refusing to run "
			 "commands unsandboxed");
		return -ENOSYS;
	}
	if (!cfg->privileged) {
		/* Probed above: without it this is Landlock-only mode. */
		lb.caps.userns = true;
		lb.caps.namespaces[n++] = "user";
	}
	nonet = netns_missing(cfg, why, sizeof(why));
	lb.caps.namespaces[n++] = "mnt";
	lb.caps.namespaces[n++] = "pid";
	if (!nonet)
		lb.caps.namespaces[n++] = "net";
	lb.caps.namespaces[n++] = "ipc";
	lb.caps.namespaces[n++] = "uts";
	lb.caps.namespaces[n] = NULL;
	if ((r = load_groups()) < 0) {
		snprintf(err, errlen, "uid %u has no passwd entry",
			 (unsigned)cfg->uid);
		return r;
	}
	setup_home_overlay();
	linux_homedisk_probe(cfg, &lb.caps);
	if (!(lb.caps.private_tmpfs = linux_tmpfs_probe()))
		degrade("no tmpfs per workspace (cloning a detached mount "
			"needs Linux 6.15): /tmp is a directory of the "
			"runtime dir, limits.tmp not enforced");
	lb.caps.landlock_abi = landlock_probe_abi();
	if (lb.caps.landlock_abi == 0)
		degrade("Landlock unavailable: writes are limited by "
			"read-only mounts only");
	else if (landlock_abi_missing(lb.caps.landlock_abi, LANDLOCK_ABI_USED,
				      lost, sizeof(lost)))
		degrade("Landlock ABI %d: %s", lb.caps.landlock_abi, lost);
	choose_net(nonet);
	if ((r = setup_seccomp(true, err, errlen)) < 0)
		return r;
	if (nonet && !lb.caps.seccomp) {
		snprintf(err, errlen, "no network namespace (%s) and no "
			 "seccomp: the network cannot be confined; refusing "
			 "to run commands", nonet);
		return -ENOTSUP;
	}
	if (lb.caps.net == SANDBOX_NET_HOST_PORTS)
		mediate_connect(nonet);
	say_protect();
	setup_limits();
	return 0;
}

/* A connect() the supervisor handed on, to make or refuse as when the
 * notification comes to us (linux/connect.c), with the listener the
 * command gave us. The pid the supervisor saw is its pid namespace's: the
 * pidfd it sent names the caller (-1: it could not be received, and
 * pid 0 makes the answer EACCES). Unanswerable without the listener. */
static int
connect_read(struct sandbox_proc *p, const struct sup_report *rep, int pidfd,
	     struct sandbox_denial *out)
{
	struct seccomp_notif req;
	pid_t pid = pidfd >= 0 ? linux_pidfd_pid(pidfd) : 0;

	if (pidfd >= 0)
		close(pidfd);
	if (p->notify_fd < 0)
		return -EAGAIN;
	memset(&req, 0, sizeof(req));
	req.id = rep->id;
	req.pid = (uint32_t)pid;
	req.data.nr = rep->nr;
	req.data.arch = rep->arch;
	memcpy(req.data.args, rep->args, sizeof(req.data.args));
	return linux_connect_mediate(p, p->notify_fd, &req, out);
}

/* One report from a session's supervisor. Never blocks; a record of the
 * wrong size is skipped (the supervisor runs beside untrusted code). */
static int
report_read(struct sandbox_proc *p, int fd, struct sandbox_denial *out)
{
	struct sup_report rep = { 0 };
	int pidfd = -1, nfds = 0;
	ssize_t n = fdpass_recv(fd, &rep, sizeof(rep), &pidfd, &nfds, 1);

	/* The caller's pidfd did not come (the daemon is out of fds): the
	 * connect() is refused, not left waiting for an answer. */
	if (n == -ETOOMANYREFS && rep.kind == SUP_REPORT_CONNECT)
		return connect_read(p, &rep, -1, out);
	if (n == -EAGAIN || n == -EINTR || n == -ETOOMANYREFS)
		return -EAGAIN;
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -EPIPE;
	if (n == (ssize_t)sizeof(rep) && rep.kind == SUP_REPORT_CONNECT &&
	    nfds == 1)
		return connect_read(p, &rep, pidfd, out);
	if (nfds)
		close(pidfd);
	if (n != (ssize_t)sizeof(rep))
		return -EAGAIN;
	memset(out, 0, sizeof(*out));
	out->pid = rep.pid;
	seccomp_nr_name(rep.arch, rep.nr, out->syscall, sizeof(out->syscall));
	memcpy(out->args, rep.args, sizeof(out->args));
	if (rep.kind == SUP_REPORT_LANDLOCK) {
		snprintf(out->access, sizeof(out->access), "%.*s",
			 (int)sizeof(rep.access) - 1, rep.access);
		snprintf(out->path, sizeof(out->path), "%.*s",
			 (int)sizeof(rep.path), rep.path);
	} else if (rep.kind == SUP_REPORT_UNIX) {
		snprintf(out->addr, sizeof(out->addr), "%.*s",
			 (int)sizeof(out->addr) - 1, rep.path);
	} else if (rep.kind == SUP_REPORT_PROTECT && rep.op >= 0 &&
	    rep.op < PROTECT_NOPS) {
		out->operation = protect_op_name((enum protect_op)rep.op);
		snprintf(out->path, sizeof(out->path), "%.*s",
			 (int)sizeof(rep.path), rep.path);
		snprintf(out->detail, sizeof(out->detail), "%.*s",
			 (int)sizeof(rep.detail), rep.detail);
	}
	return 0;
}

/* Sessions have a supervisor when protected paths that do not exist yet
 * are refused (its reports come); otherwise the daemon holds the
 * command's seccomp listener itself and answers it. */
int
sandbox_denial_read(struct sandbox_proc *p, int fd,
		    struct sandbox_denial *out)
{
	struct seccomp_notif req;
	int r;

	if (lb.caps.protect_new)
		return report_read(p, fd, out);
	r = seccomp_notify_answer(fd, lb.caps.connect_mediated, &req, out);
	return r == 1 ? linux_connect_mediate(p, fd, &req, out) : r;
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

void
linux_backend_unwatched(void)
{
	static bool said;

	if (said)
		return;
	said = true;
	degrade("some workspace directories are not watched for new files "
		"(a template's cap of %d watches, or the served user's "
		"inotify limits, reached): files made in them later are "
		"masked only in a new template's sandboxes", LTEMPLATE_WATCH_MAX);
}

const struct linux_backend *
linux_backend(void)
{
	return &lb;
}
