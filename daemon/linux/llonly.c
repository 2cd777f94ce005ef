/* Landlock-only mode: sandboxes without namespaces, for hosts where the
 * daemon can neither make user namespaces nor run as root. What holds and
 * what is lost is said once, here, and reaches `sbxctl status` through the
 * degraded list. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/landlock-abi.h"
#include "daemon/linux/landlock.h"
#include "daemon/linux/lldev.h"
#include "daemon/linux/llonly.h"
#include "daemon/linux/probe.h"
#include "daemon/linux/seccomp.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/linux.h"

/* Rulesets kept for reuse: one per (filesystem plan, temp dir). */
#define LL_CACHE_MAX 8
#define LL_READ (SBX_LL_FS_READ_FILE | SBX_LL_FS_READ_DIR)

/* A directory whose state a ruleset depends on: what it held when the
 * rules were made (complement rules name its entries one by one; a walked
 * workspace directory may gain files to mask). */
struct ll_dir {
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
};

struct ll_entry {
	char *key;
	int ruleset;
	struct ll_dir *dirs;
	size_t ndirs, cap;
	uint64_t used;
};

static struct {
	int abi;
	struct ll_entry cache[LL_CACHE_MAX];
	uint64_t tick;
} ll;

static void __attribute__((format(printf, 2, 3)))
lost(struct sandbox_caps *caps, const char *fmt, ...)
{
	va_list ap;

	if (caps->ndegraded >= SANDBOX_DEGRADED_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(caps->degraded[caps->ndegraded++],
		  sizeof(caps->degraded[0]), fmt, ap);
	va_end(ap);
}

static void
say_losses(struct sandbox_caps *caps, const struct probe_fail *why)
{
	char miss[sizeof(caps->degraded[0])];

	if (why)
		lost(caps, "Landlock-only mode: no user namespaces (%s: %s); "
		     "no mount, pid, ipc, uts or network namespace",
		     why->step, strerror(why->err));
	else
		lost(caps, "Landlock-only mode (--landlock-only): no mount, "
		     "pid, ipc, uts or network namespace");
	lost(caps, "no masks by mount: denyRead and ignored paths are "
	     "unreadable by Landlock, but their names, sizes and times "
	     "stay visible");
	lost(caps, "reads are granted by complement: a file created after "
	     "the rules were made, beside a masked path, is unreadable "
	     "until the next run");
	lost(caps, "no private /tmp: /tmp is the host's and read-only; "
	     "TMPDIR is a private dir; no home overlay: writes to ~ fail");
	lost(caps, "no network: IPv4/IPv6 sockets refused (EPERM), no "
	     "proxy; host processes are visible in /proc");
	lost(caps, "no IPC namespace: SysV IPC and POSIX message queues "
	     "refused (EPERM); /dev/shm closed: POSIX shared memory and "
	     "named semaphores fail (EACCES)");
	if (ll.abi < 6)
		lost(caps, "Landlock ABI %d < 6: signals to the user's other "
		     "processes and abstract Unix sockets are NOT scoped",
		     ll.abi);
	if (landlock_abi_missing(ll.abi, LANDLOCK_ABI_USED, miss,
				 sizeof(miss)))
		lost(caps, "Landlock ABI %d: %s", ll.abi, miss);
}

int
llonly_init(struct sandbox_caps *caps, const struct probe_fail *why,
	    char *err, size_t errlen)
{
	if (geteuid() == 0) {
		if (why)
			snprintf(err, errlen, "cannot create user namespaces "
				 "(%s: %s), and Landlock-only mode is for "
				 "unprivileged daemons: as root, serve a user "
				 "in privileged mode (sbxd --user NAME)",
				 why->step, strerror(why->err));
		else
			snprintf(err, errlen, "Landlock-only mode is for "
				 "unprivileged daemons: as root, serve a user "
				 "in privileged mode (sbxd --user NAME)");
		return -EPERM;
	}
	ll.abi = landlock_probe_abi();
	if (ll.abi < 1) {
		snprintf(err, errlen, "no user namespaces (%s) and no Landlock "
			 "(%s): refusing to run commands unsandboxed; enable "
			 "Landlock (Linux >= 5.13, CONFIG_SECURITY_LANDLOCK, "
			 "\"landlock\" in the lsm= boot list), or user "
			 "namespaces (`sbxctl doctor` says how), or run sbxd "
			 "in privileged mode: sudo sbxd --user NAME",
			 why ? why->step : "--landlock-only",
			 strerror(errno));
		return -ENOTSUP;
	}
	caps->landlock_abi = ll.abi;
	caps->landlock_only = true;
	caps->userns = false;
	say_losses(caps, why);
	return 0;
}

/* The ruleset under construction: masked paths (canonical, sorted) and
 * the directories its rules depend on. */
struct ll_build {
	int rs;
	char **masks;
	size_t nmasks;
	struct ll_entry *e;
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
is_masked(const struct ll_build *b, const char *path)
{
	return bsearch(&path, b->masks, b->nmasks, sizeof(char *),
		       cmp_str) != NULL;
}

/* Is some mask strictly beneath dir? (masks are sorted: the first one
 * after "dir/" in order tells.) */
static bool
mask_beneath(const struct ll_build *b, const char *dir)
{
	size_t n = strlen(dir), lo = 0, hi = b->nmasks;
	char pfx[PATH_MAX + 1];

	if (n == 1)
		return b->nmasks > 0; /* "/": every mask is beneath */
	if (n + 1 >= sizeof(pfx))
		return true;
	memcpy(pfx, dir, n);
	pfx[n] = '/';
	pfx[n + 1] = '\0';
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(b->masks[mid], pfx) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->nmasks && !strncmp(b->masks[lo], pfx, n + 1);
}

/* Absent or unreachable: nothing to grant. */
static int
add_rule(int rs, const char *path, uint64_t access)
{
	int r = landlock_add_path(rs, path, access);

	return r == -ENOENT || r == -EACCES ? 0 : r;
}

static int
remember_dir(struct ll_entry *e, const char *path)
{
	struct stat st;
	struct ll_dir *d;

	if (stat(path, &st) < 0)
		return 0;
	if (e->ndirs == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 16;

		d = realloc(e->dirs, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		e->dirs = d;
		e->cap = cap;
	}
	d = &e->dirs[e->ndirs];
	if (!(d->path = strdup(path)))
		return -ENOMEM;
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->mtime = st.st_mtim;
	e->ndirs++;
	return 0;
}

static int remember_walked(const char *dir, void *arg)
{
	return remember_dir(arg, dir);
}

/* Read access to everything under path but the masks: a rule beneath
 * path when no mask lies under it, else one per entry of path (files get
 * their own rule, directories recurse), so the masked ones get none. The
 * classic complement: Landlock only grants. Symlinks need no rule (access
 * through them is checked on their target). */
static int
grant_read(struct ll_build *b, char *path, size_t len)
{
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (is_masked(b, path))
		return 0;
	if (!mask_beneath(b, path))
		return add_rule(b->rs, path, LL_READ);
	if ((r = remember_dir(b->e, path)) < 0)
		return r;
	if (!(d = opendir(path)))
		return errno == ENOENT || errno == EACCES ? 0 : -errno;
	while (r == 0 && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		size_t at = len == 1 ? 1 : len + 1;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (at + n >= PATH_MAX) {
			r = -ENAMETOOLONG;
			break;
		}
		if (len > 1)
			path[len] = '/';
		memcpy(path + at, de->d_name, n + 1);
		if (de->d_type == DT_DIR ||
		    (de->d_type == DT_UNKNOWN && lstat(path, &st) == 0 &&
		     S_ISDIR(st.st_mode)))
			r = grant_read(b, path, at + n);
		else if (de->d_type != DT_LNK && !is_masked(b, path))
			r = add_rule(b->rs, path, SBX_LL_FS_READ_FILE);
		path[len] = '\0';
	}
	closedir(d);
	return r;
}

static int
push_mask(struct fsplan_list *l, const char *path)
{
	char real[PATH_MAX];

	if (!path)
		return 0;
	if (!realpath(path, real))
		return errno == ENOENT || errno == ENOTDIR ||
				       errno == EACCES ? 0 : -errno;
	return fsplan_push(l, real);
}

/* The masks: daemon state, denyRead paths, and what the workspace walk
 * (globs, ignore files) found; the walked directories join e's list. */
static int
collect_masks(const struct sandbox_plan *p, struct ll_entry *e,
	      struct fsplan_list *out)
{
	const struct fsplan_list *deny = &p->fs->l[FSPLAN_DENY_READ];
	struct walk_state *st = NULL;
	struct walk_result w;
	size_t i;
	int r = 0, k;

	for (k = 0; r == 0 && k < p->nmasks; k++)
		r = push_mask(out, p->masks[k]);
	if (r == 0)
		r = push_mask(out, p->socket_mask);
	for (i = 0; r == 0 && i < deny->n; i++)
		r = push_mask(out, deny->v[i]);
	if (r < 0 || (r = linux_walk(p->fs, NULL, &st, &w)) < 0)
		return r;
	for (i = 0; r == 0 && i < w.deny.n; i++)
		r = push_mask(out, w.deny.v[i]);
	if (r == 0)
		r = linux_walk_each_dir(st, remember_walked, e);
	linux_walk_result_free(&w);
	linux_walk_state_free(st);
	return r;
}

/* Write rights: the writable trees (not their reads: those come from the
 * complement, so a masked file in the workspace stays unreadable), the
 * private temp dir (read and write), the terminal devices. (Of /dev/pts
 * only the session's own terminals: the /dev layer, linux/lldev.c; no
 * /dev/ptmx, as in a namespace sandbox.) */
static int
grant_writes(const struct sandbox_plan *p, int rs)
{
	static const char *const dev[] = { "/dev/null", "/dev/zero",
					   "/dev/full", "/dev/tty",
					   "/dev/pts" };
	const struct fsplan_list *rw = &p->fs->l[FSPLAN_WRITE];
	uint64_t all = landlock_write_rights(ll.abi);
	uint64_t devr = SBX_LL_FS_WRITE_FILE;
	size_t i;
	int r = 0;

	if (ll.abi >= 3)
		devr |= SBX_LL_FS_TRUNCATE;
	if (ll.abi >= 5)
		devr |= SBX_LL_FS_IOCTL_DEV;
	for (i = 0; r == 0 && i < rw->n; i++) {
		/* A link a sandbox put at a writable path below another:
		 * nothing to grant (landlock_add_writable). */
		r = landlock_add_writable(rs, (const char *const *)rw->v,
					  rw->v[i], all);
		if (r == -ENOENT || r == -EACCES || r == -ELOOP)
			r = 0;
	}
	if (r == 0)
		r = add_rule(rs, p->tmpdir, all | LL_READ);
	for (i = 0; r == 0 && i < sizeof(dev) / sizeof(dev[0]); i++)
		r = add_rule(rs, dev[i], devr);
	return r;
}

static int
build(const struct sandbox_plan *p, struct ll_entry *e)
{
	struct sbx_landlock_ruleset_attr attr = { 0 };
	struct fsplan_list masks = { 0 };
	struct ll_build b = { .rs = -1, .e = e };
	char path[PATH_MAX] = "/";
	int r;

	attr.handled_access_fs = landlock_write_rights(ll.abi) | LL_READ;
	/* No TCP at all (seccomp refuses the sockets too). Hook for the
	 * proxy fallback without network namespaces (branch nonetns): a
	 * LANDLOCK_RULE_NET_PORT rule for the session's loopback proxy
	 * port goes here, and the no-inet filter lets stream sockets by. */
	if (ll.abi >= 4)
		attr.handled_access_net = SBX_LL_NET_BIND_TCP |
					  SBX_LL_NET_CONNECT_TCP;
	if (ll.abi >= 6)
		attr.scoped = SBX_LL_SCOPE_ABSTRACT_UNIX | SBX_LL_SCOPE_SIGNAL;
	b.rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
			    0);
	if (b.rs < 0)
		return -errno;
	r = collect_masks(p, e, &masks);
	if (r == 0) {
		qsort(masks.v, masks.n, sizeof(char *), cmp_str);
		b.masks = masks.v;
		b.nmasks = masks.n;
		/* Listing directories is granted everywhere: a masked
		 * directory's entry names show, not what they hold. */
		r = add_rule(b.rs, "/", SBX_LL_FS_READ_DIR);
	}
	if (r == 0)
		r = grant_read(&b, path, 1);
	if (r == 0)
		r = grant_writes(p, b.rs);
	fsplan_list_free(&masks);
	if (r < 0) {
		close(b.rs);
		return r;
	}
	e->ruleset = b.rs;
	return 0;
}

static void
entry_clear(struct ll_entry *e)
{
	size_t i;

	if (e->ruleset >= 0)
		close(e->ruleset);
	for (i = 0; i < e->ndirs; i++)
		free(e->dirs[i].path);
	free(e->dirs);
	free(e->key);
	memset(e, 0, sizeof(*e));
	e->ruleset = -1;
}

/* Still what the rules were made from? (A changed directory may hold a
 * new file to mask, or to grant.) Costs a stat per remembered directory. */
static bool
entry_fresh(const struct ll_entry *e)
{
	struct stat st;
	size_t i;

	for (i = 0; i < e->ndirs; i++) {
		const struct ll_dir *d = &e->dirs[i];

		if (stat(d->path, &st) < 0 || st.st_dev != d->dev ||
		    st.st_ino != d->ino ||
		    st.st_mtim.tv_sec != d->mtime.tv_sec ||
		    st.st_mtim.tv_nsec != d->mtime.tv_nsec)
			return false;
	}
	return true;
}

static int
ruleset_get(const struct sandbox_plan *p, int *out)
{
	struct ll_entry *e = NULL;
	char *key;
	int i, r;

	if (asprintf(&key, "%s\n%s", p->fs->key, p->tmpdir) < 0)
		return -ENOMEM;
	for (i = 0; i < LL_CACHE_MAX; i++) {
		struct ll_entry *c = &ll.cache[i];

		if (c->key && !strcmp(c->key, key)) {
			e = c;
			break;
		}
		if (!e || (e->key && (!c->key || c->used < e->used)))
			e = c; /* a free slot, else the least recently used */
	}
	if (e->key && (strcmp(e->key, key) || !entry_fresh(e)))
		entry_clear(e);
	if (!e->key) {
		e->ruleset = -1;
		if ((r = build(p, e)) < 0) {
			entry_clear(e);
			free(key);
			return r;
		}
		e->key = key;
	} else
		free(key);
	e->used = ++ll.tick;
	*out = e->ruleset;
	return 0;
}

int
llonly_plan(struct sandbox_plan *p, const struct sandbox_request *req,
	    char *err, size_t errlen)
{
	int r;

	(void)req;
	p->llonly = true;
	p->userns = false;
	/* (TMPDIR names p->tmpdir already: session.c.) */
	if ((r = ruleset_get(p, &p->ll_ruleset)) < 0) {
		snprintf(err, errlen, "Landlock ruleset: %s", strerror(-r));
		return r;
	}
	/* The session's terminals are known only now: a layer of their
	 * own (the cached one cannot name them). */
	if ((p->ll_dev = lldev_ruleset(p->stdio)) < 0) {
		r = p->ll_dev;
		snprintf(err, errlen, "Landlock ruleset for /dev: %s",
			 strerror(-r));
	}
	return r < 0 ? r : 0;
}

/* Kills what is left of the sandbox once the command exited: its process
 * group, and the orphans that came to us as subreaper (daemonized
 * children, their own sessions). */
static void
signal_children(pid_t cmd, int sig)
{
	char path[64], buf[4096];
	ssize_t n;
	char *s, *end;
	int fd;

	kill(-cmd, sig);
	snprintf(path, sizeof(path), "/proc/self/task/%d/children",
		 (int)getpid());
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (s = buf; *s; s = end) {
		long pid = strtol(s, &end, 10);

		if (end == s)
			break;
		if (pid > 0)
			kill((pid_t)pid, sig);
	}
}

/* The session init's loop: relays signals to the command's process group
 * and reaps; once the command is gone, the rest goes too, and all of it
 * when the daemon closes the status channel (with a supervisor as our
 * parent, no parent-death signal says the daemon is gone). Unlike a pid
 * namespace's init, kill(-1) here would reach the user's every process. */
static void __attribute__((noreturn))
supervise(pid_t cmd, int sigfd, int sfd)
{
	struct pollfd pfd[2] = { { .fd = sigfd, .events = POLLIN },
				 { .fd = sfd, .events = 0 } };
	struct signalfd_siginfo si;
	int status = 0, st;
	bool done = false, killing = false, gone;
	pid_t w;

	for (;;) {
		if ((poll(pfd, 2, -1) < 0 && errno != EINTR) ||
		    (pfd[1].revents & (POLLHUP | POLLERR))) {
			signal_children(cmd, SIGKILL);
			_exit(125);
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (read(sigfd, &si, sizeof(si)) != sizeof(si)) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			signal_children(cmd, SIGKILL);
			_exit(125);
		}
		if ((int)si.ssi_signo == LLONLY_SIGKILL) {
			killing = true;
			signal_children(cmd, SIGKILL);
			continue;
		}
		if (si.ssi_signo != SIGCHLD) {
			/* For all of the sandbox: what kill(-1) reaches in
			 * a pid namespace is here the command's group and
			 * our other children. */
			if (!done && !killing && si.ssi_code == SI_QUEUE &&
			    si.ssi_int == LINUX_SIG_ALL)
				signal_children(cmd, (int)si.ssi_signo);
			else if (!done && !killing &&
				 kill(-cmd, (int)si.ssi_signo) < 0)
				kill(cmd, (int)si.ssi_signo);
			continue;
		}
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == cmd && !done) {
				status = st;
				done = true;
			}
		gone = w < 0 && errno == ECHILD;
		if ((done || killing) && !gone)
			signal_children(cmd, SIGKILL);
		if (done && gone) {
			linux_report_exited(sfd, status);
			_exit(0);
		}
	}
}

static void
close_session_fds(const struct linux_session_fds *f)
{
	if (f->ruleset >= 0)
		close(f->ruleset);
	if (f->sup >= 0)
		close(f->sup);
	if (f->report >= 0)
		close(f->report);
}

/* The session init: f has the command's ruleset and, with a supervisor,
 * the ends the command hands its listener and reports through. */
static void __attribute__((noreturn))
session_main(struct sandbox_plan *p, int sfd, const struct linux_session_fds *f)
{
	static const int relayed[] = { SIGCHLD, SIGHUP, SIGINT, SIGQUIT,
				       SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
				       SIGCONT, SIGTSTP, SIGALRM };
	int keep[8] = { sfd, p->stdio[0], p->stdio[1], p->stdio[2],
			f->ruleset, f->sup, f->report, p->ll_dev };
	struct sandbox_status fail = { .kind = SANDBOX_STATUS_SETUP_FAILED };
	sigset_t set;
	int sigfd, r;
	size_t i;
	pid_t cmd;

	linux_close_fds_except(keep, 8);
	prctl(PR_SET_NAME, "sbx-init");
	/* The /dev layer, unless the supervisor's start process took it
	 * (start_supervised). */
	fail.step = STEP_LANDLOCK;
	if (p->ll_dev >= 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		goto fail;
	if (p->ll_dev >= 0 &&
	    (r = lldev_enforce(p->ll_dev, p->landlock_abi,
			       p->landlock_log)) < 0) {
		errno = -r;
		goto fail;
	}
	if (p->ll_dev >= 0)
		close(p->ll_dev);
	fail.step = STEP_PDEATHSIG;
	/* The daemon's child dies with it; a supervisor's watches the
	 * status channel instead (supervise). */
	if ((!p->emulate && prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		goto fail;
	fail.step = STEP_DROP_PRIVS;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		goto fail;
	fail.step = STEP_SIGNALS;
	sigemptyset(&set);
	for (i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		sigaddset(&set, relayed[i]);
	sigaddset(&set, LLONLY_SIGKILL);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (sigfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		goto fail;
	fail.step = STEP_FORK;
	cmd = fork();
	if (cmd < 0)
		goto fail;
	if (cmd == 0) {
		/* No pid namespace takes the command along if we die. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			goto fail;
		linux_exec_command(p, f, sfd);
	}
	/* The supervisor sees EOF if the command fails before its filter. */
	close_session_fds(f);
	supervise(cmd, sigfd, sfd);
fail:
	fail.value = errno;
	if (write(sfd, &fail, sizeof(fail)) < 0)
		_exit(126);
	_exit(125);
}

/* The session init, the caller's child, handed f; its pidfd goes to the
 * daemon in a STARTED record, as from a template (linux/spawn.c). Returns
 * its pid, or -1. */
static pid_t
start_init(struct sandbox_plan *p, int sfd, const struct linux_session_fds *f)
{
	struct clone_args a = { 0 };
	int pidfd = -1;
	pid_t pid;

	a.flags = CLONE_PIDFD;
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0)
		session_main(p, sfd, f);
	linux_send_started(sfd, pid, pidfd, STEP_FORK, errno);
	return pid;
}

/* With a supervisor, which must be an ancestor of the command (Yama's
 * ptrace_scope 1 lets process_vm_readv reach descendants only), the
 * shape of a template's sandbox: a start process restricts itself with
 * the command's ruleset (the command's domain nests in it), makes the
 * supervisor's sockets, starts the session init handed them and becomes
 * the supervisor. The daemon's child forks it and exits at once, so it is
 * reparented and reaped by init (or a subreaper), not left to the daemon,
 * which holds the session init's pidfd. */
static void __attribute__((noreturn))
start_supervised(struct sandbox_plan *p, int sfd)
{
	struct sandbox_status s = { .kind = SANDBOX_STATUS_SETUP_FAILED };
	struct linux_session_fds f = { p->ll_ruleset, -1, -1, -1 };
	int keep[7] = { sfd, p->stdio[0], p->stdio[1], p->stdio[2],
			p->ll_ruleset, p->lock_fd, p->ll_dev };
	int own[3], r;
	pid_t pid = fork();

	if (pid > 0)
		_exit(0);
	s.step = pid < 0 ? STEP_FORK : STEP_NO_NEW_PRIVS;
	s.value = errno;
	linux_close_fds_except(keep, 7);
	if (pid == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		s.value = errno;
	else if (pid == 0 && p->ll_dev >= 0 &&
		 (r = lldev_enforce(p->ll_dev, p->landlock_abi,
				    p->landlock_log)) < 0) {
		/* The supervisor opens files for the command: it is
		 * confined by the /dev layer too. */
		s.step = STEP_LANDLOCK;
		s.value = -r;
	} else if (pid == 0) {
		if (p->ll_dev >= 0)
			close(p->ll_dev);
		p->ll_dev = -1;
		s.step = STEP_SUPERVISOR;
		s.value = 0;
		if ((r = linux_supervisor_prepare(p, &f, own)) == 0) {
			linux_supervise(p, own, start_init(p, sfd, &f));
		}
		s.value = -r;
	}
	if (write(sfd, &s, sizeof(s)) < 0)
		_exit(126);
	_exit(125);
}

static int
spawn_supervised(struct sandbox_plan *p, struct sandbox_proc *out, int st[2])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(st[0]);
		start_supervised(p, st[1]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	out->pid = 0;
	out->pidfd = -1; /* the STARTED record brings it */
	out->own_child = false;
	return 0;
}

int
llonly_spawn(struct sandbox_plan *p, struct sandbox_proc *out, int st[2])
{
	struct linux_session_fds f = { p->ll_ruleset, -1, -1, -1 };
	struct clone_args a = { 0 };
	int pidfd = -1;
	pid_t pid;

	if (p->emulate)
		return spawn_supervised(p, out, st);
	a.flags = CLONE_PIDFD;
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(st[0]);
		session_main(p, st[1], &f);
	}
	out->pid = pid;
	out->pidfd = pidfd;
	out->own_child = true;
	return 0;
}
