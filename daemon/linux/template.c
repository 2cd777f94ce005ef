/* Held templates. Building the mount tree is the slow part of a sandbox
 * (and grows with what is masked), so it happens once per workspace in a
 * template process, which then makes the sandboxes that join it
 * (linux/watch.c, linux/spawn.c). A few are made ahead of time and wait,
 * built and confined, for a job (warm): a spawn then costs one message,
 * and the pool is topped up from the event loop afterwards. Idle templates
 * are dropped after a while, the oldest first beyond a cap. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/policy/fsplan.h"
#include "daemon/linux/backend.h"
#include "daemon/linux/cgroup.h"
#include "daemon/linux/template.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/linux.h"
#include "daemon/usercred.h"
#include "daemon/log.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

#define TEMPLATE_MAX 32
#define TEMPLATE_IDLE_MS (10u * 60 * 1000)
/* Warm sandboxes are made again this long after a spawn took one, unless
 * a session of the template ends first. */
#define FILL_DELAY_US 50000

static struct ltemplate *templates;
static unsigned ntemplates, nwarm_all;
static struct event *sweep_ev;

/* Killed templates not reaped yet: a namespace holding thousands of
 * mounts takes a while to go, and the daemon does not wait for that. */
struct dying {
	int pidfd;
	struct event *ev;
	struct dying *next;
};
static struct dying *dying;

static void
dying_free(struct dying *d, int flags)
{
	struct dying **pp;

	waitid(P_PIDFD, (id_t)d->pidfd, &(siginfo_t){ 0 }, WEXITED | flags);
	for (pp = &dying; *pp; pp = &(*pp)->next)
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	event_free(d->ev);
	close(d->pidfd);
	free(d);
}

static void
dying_cb(evutil_socket_t fd, short what, void *arg)
{
	dying_free(arg, WNOHANG);
}

/* SIGKILL now, reaped from the event loop once it is gone. */
static void
kill_later(int pidfd)
{
	struct dying *d = calloc(1, sizeof(*d));

	if (d)
		d->ev = event_new(sbxd.base, pidfd, EV_READ, dying_cb, d);
	if (!d || !d->ev || event_add(d->ev, NULL) < 0) {
		if (d && d->ev)
			event_free(d->ev);
		free(d);
		linux_kill_reap(pidfd); /* out of memory: wait for it */
		return;
	}
	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	d->pidfd = pidfd;
	d->next = dying;
	dying = d;
}

static void
warm_drop_last(struct ltemplate *t)
{
	struct ltemplate_warm *w = &t->warm[--t->nwarm];

	/* Its init sees the status channel close and takes it down. */
	close(w->status_fd);
	close(w->go_fd);
	lcgroup_free(w->cg);
	nwarm_all--;
}

static void
warm_drop(struct ltemplate *t)
{
	while (t->nwarm > 0)
		warm_drop_last(t);
}

static void
template_destroy(struct ltemplate *t)
{
	if (t->shared)
		munmap(t->shared, sizeof(*t->shared));
	free(t->key);
	free(t->workspace);
	free(t->problem);
	linux_roots_free(&t->roots);
	free(t);
}

/* Kills and forgets a template; the struct lives on while spawns still
 * point at it (ltemplate_put frees it). */
static void
template_free(struct ltemplate *t)
{
	struct ltemplate **pp;

	for (pp = &templates; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	ntemplates--;
	warm_drop(t);
	if (t->exit_ev)
		event_free(t->exit_ev);
	if (t->ready_ev)
		event_free(t->ready_ev);
	if (t->fill_ev)
		event_free(t->fill_ev);
	t->exit_ev = t->ready_ev = t->fill_ev = NULL;
	kill_later(t->pidfd);
	close(t->ready_fd);
	close(t->state_fd);
	if (t->ctl_fd >= 0)
		close(t->ctl_fd);
	if (t->inotify_fd >= 0)
		close(t->inotify_fd);
	t->pidfd = t->ready_fd = t->state_fd = t->ctl_fd = t->inotify_fd = -1;
	t->dead = true;
	if (t->users == 0)
		template_destroy(t);
}

/* t serves only the sessions already in it, and keeps nothing warm. */
static void
retire(struct ltemplate *t)
{
	if (t->users == 0)
		template_free(t);
	else {
		t->stale = true;
		warm_drop(t);
	}
}

/* A policy or ignore-file change gave ws a new plan: the old templates
 * are retired. */
static void
retire_stale(const char *ws, const struct ltemplate *fresh)
{
	struct ltemplate *t, *next;

	for (t = templates; t; t = next) {
		next = t->next;
		if (t != fresh && !strcmp(t->workspace, ws))
			retire(t);
	}
}

/* A template that died (killed, failed to build) is forgotten; sessions
 * inside it died with it. */
static void
exit_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ltemplate *t = arg;

	log_debug("template for %s exited", t->key);
	template_free(t);
}

/* The build finished. A failed template answers what was asked of it
 * with its failure and exits once we stop asking; the next run of the
 * workspace starts a new one. */
static void
ready_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ltemplate *t = arg;
	struct ltemplate_state st = { 0 };

	if (pread(t->state_fd, &st, sizeof(st), 0) != sizeof(st) || !st.done) {
		st.step = STEP_TEMPLATE;
		st.err = EIO;
	}
	if (st.step == 0) {
		t->ready = true;
		event_active(t->fill_ev, EV_TIMEOUT, 0);
		return;
	}
	(void)ltemplate_problem(t);
	log_debug("template for %s failed at %s: %s", t->workspace,
		  sandbox_step_name(st.step),
		  t->problem ? t->problem : strerror(st.err));
	t->stale = true;
	close(t->ctl_fd);
	t->ctl_fd = -1;
}

/* Asks the template for a new sandbox; ours are the status channel's read
 * end and the go socket's write end. */
static int
request(struct ltemplate *t, int *status_fd, int *go_fd, struct lcgroup **cg)
{
	int st[2], go[2], fds[FDPASS_SEND_MAX], nfds;
	struct lcg_join join = { .v2 = -1 };
	char msg[1 + LCG_JOIN_MSG] = { 'n' };
	ssize_t n;

	if (t->ctl_fd < 0)
		return -EPIPE;
	/* Its cgroups, made now so the sandbox joins them as it is made
	 * (off a run's path). Without them it runs unbounded, as where
	 * nothing is delegated (said in status). */
	*cg = NULL;
	if (lcgroup_enabled() && lcgroup_new(&t->limits, cg) == 0)
		lcgroup_join(*cg, &join);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0) {
		n = -errno;
		goto fail;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, go) < 0) {
		n = -errno;
		close(st[0]);
		close(st[1]);
		goto fail;
	}
	fds[0] = st[1];
	fds[1] = go[0];
	nfds = 2 + lcg_join_pack(&join, msg + 1, fds + 2);
	n = fdpass_send(t->ctl_fd, msg, sizeof(msg), fds, nfds);
	close(st[1]);
	close(go[0]);
	lcg_join_close(&join);
	if (n != (ssize_t)sizeof(msg)) {
		close(st[0]);
		close(go[1]);
		n = n < 0 ? n : -EIO;
		goto fail;
	}
	fcntl(st[0], F_SETFL, O_NONBLOCK);
	fcntl(go[1], F_SETFL, O_NONBLOCK);
	*status_fd = st[0];
	*go_fd = go[1];
	return 0;
fail:
	lcg_join_close(&join);
	lcgroup_free(*cg);
	*cg = NULL;
	return (int)n;
}

/* Room for one more warm sandbox: the least recently used other template
 * gives one up. */
static bool
steal_warm(const struct ltemplate *for_t)
{
	struct ltemplate *t, *old = NULL;

	for (t = templates; t; t = t->next)
		if (t != for_t && t->nwarm > 0 &&
		    (!old || t->last_used_ms < old->last_used_ms))
			old = t;
	if (old)
		warm_drop_last(old);
	return old != NULL;
}

static void
fill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ltemplate *t = arg;
	struct ltemplate_warm w;

	while (t->ready && !t->stale && t->nwarm < LTEMPLATE_WARM) {
		if (nwarm_all >= LTEMPLATE_WARM_MAX && !steal_warm(t))
			break;
		if (request(t, &w.status_fd, &w.go_fd, &w.cg) < 0)
			break;
		t->warm[t->nwarm++] = w;
		nwarm_all++;
	}
}

static void
sweep_cb(evutil_socket_t fd, short what, void *arg)
{
	uint64_t now = sbxd_now_ms();
	struct ltemplate *t, *next;

	for (t = templates; t; t = next) {
		next = t->next;
		if (t->users == 0 && now - t->last_used_ms > TEMPLATE_IDLE_MS)
			template_free(t);
	}
}

static void
evict_one(void)
{
	struct ltemplate *t, *old = NULL;

	for (t = templates; t; t = t->next)
		if (t->users == 0 && (!old || t->last_used_ms < old->last_used_ms))
			old = t;
	if (old)
		template_free(old);
}

/* Body of the template: start the spawner, build the tree, say so, then
 * hold the namespaces, keep the masks current and hand requests for
 * sandboxes to the spawner. */
static void __attribute__((noreturn))
template_main(const struct sandbox_plan *plan, const struct ltemplate *t,
	      int sync_fd, int ready_w, int ctl, int home_from)
{
	struct ltemplate_state st = { .done = 1 };
	/* The supervisors' lock is handed down to the sessions' own. */
	int keep[9] = { sync_fd, ready_w, t->state_fd, ctl, t->inotify_fd,
			plan->lock_fd, plan->tmp_fd, plan->vartmp_fd, home_from };
	struct sandbox_plan q = *plan; /* for as long as the template runs */
	const struct sandbox_plan *p = &q;
	struct walk_state *walk = NULL;
	struct walk_watch hook;
	int spawner = -1;
	char c;

	q.home_from = home_from;
	linux_close_fds_except(keep, 9);
	linux_host_pts_open(p);
	linux_lean_children();
	prctl(PR_SET_NAME, "sbx-template");
	umask(022);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || read(sync_fd, &c, 1) != 1)
		_exit(1);
	close(sync_fd);
	/* Before the walk, so the sandboxes are not copies of it. */
	if ((st.err = -linux_spawner_start(p, &spawner)) != 0) {
		st.step = STEP_FORK;
	} else {
		hook = linux_watch_hook(t->inotify_fd, t->shared);
		st.step = linux_mount_build(p, &st.err, &hook, &walk);
	}
	if (home_from >= 0)
		close(home_from);
	q.home_from = -1;
	if (st.step == 0 && chdir("/") < 0) {
		st.step = STEP_CHDIR;
		st.err = errno;
	}
	/* Each sandbox has a mount namespace of its own (a /proc of its pid
	 * namespace), a copy of this one: shared, so what is masked here
	 * later reaches the running and warm sandboxes too. After the
	 * build: its clones stay out of each other's peer groups. */
	if (st.step == 0 && mount(NULL, "/", NULL, MS_REC | MS_SHARED,
				  NULL) < 0) {
		st.step = STEP_MOUNT_PRIVATE;
		st.err = errno;
	}
	if (st.step == STEP_MOUNT_POLICY && linux_walk_refused())
		snprintf(st.detail, sizeof(st.detail), "%s",
			 linux_walk_refused());
	if (pwrite(t->state_fd, &st, sizeof(st), 0) != sizeof(st))
		_exit(1);
	close(ready_w);
	/* What appears in the workspace later is masked from here. A failed
	 * build answers requests until the daemon stops sending them. */
	linux_watch_run(st.step == 0 ? walk : NULL, ctl, t->inotify_fd,
			t->shared, p, spawner, &st);
}

static int
new_inotify(void)
{
	int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);

	return fd < 0 ? -errno : fd;
}

/* The socket an older template of p's workspace, still running a session
 * after a policy change, sends its home overlay on (ltemplate_home), so
 * the new one mounts that one rather than a second overlay of the same
 * upper layer; -1: none to share (none busy, or built on a home,
 * workspace or layers since replaced). An idle one goes (retire_stale). */
static int
home_from_older(const struct sandbox_plan *p, struct ltemplate *t)
{
	struct ltemplate *o;
	struct stat s;
	int hs[2];

	if (!p->home_layers || stat(p->home_layers, &s) < 0)
		return -1;
	t->layers_dev = s.st_dev;
	t->layers_ino = s.st_ino;
	for (o = templates; o; o = o->next)
		if (o->ready && !o->dead && o->users > 0 &&
		    !strcmp(o->workspace, p->workspace) &&
		    o->layers_dev == s.st_dev && o->layers_ino == s.st_ino &&
		    !__atomic_load_n(&o->shared->gone, __ATOMIC_SEQ_CST) &&
		    !linux_roots_changed(p, &o->roots))
			break;
	if (!o || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, hs) < 0)
		return -1;
	if (ltemplate_home(o, hs[1]) < 0) {
		close(hs[0]);
		hs[0] = -1;
	}
	close(hs[1]);
	return hs[0];
}

static int
start_template(const struct sandbox_plan *p, struct ltemplate *t)
{
	int sync[2], ready[2], ctl[2], pidfd = -1, r = 0, home;
	struct clone_args a = { 0 };
	pid_t pid;

	t->state_fd = memfd_create("sbx-template", MFD_CLOEXEC);
	if (t->state_fd < 0)
		return -errno;
	if (ftruncate(t->state_fd, sizeof(struct ltemplate_state)) < 0)
		return -errno;
	t->shared = mmap(NULL, sizeof(*t->shared), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->shared == MAP_FAILED) {
		t->shared = NULL;
		return -errno;
	}
	/* Without one the template masks nothing new (and every spawn
	 * syncs, for nothing): said, not hidden. The user's: its watches,
	 * one per directory of the user's, count against the user's inotify
	 * limits, not those of root's daemons (systemd, udev). */
	t->inotify_fd = usercred_make_fd(new_inotify);
	if (t->inotify_fd < 0) {
		log_warn("template for %s: no inotify instance (%s): files "
			 "created from now on are not masked until it is "
			 "rebuilt", p->workspace, strerror(-t->inotify_fd));
		linux_backend_unwatched();
	}
	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close(sync[0]);
		close(sync[1]);
		return -errno;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl) < 0) {
		close(sync[0]);
		close(sync[1]);
		close(ready[0]);
		close(ready[1]);
		return -errno;
	}
	a.flags = CLONE_NEWNS | CLONE_NEWPID | linux_session_ns_flags(p) |
		  CLONE_PIDFD | (p->userns ? CLONE_NEWUSER : 0);
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	home = home_from_older(p, t);
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0)
		template_main(p, t, sync[0], ready[1], ctl[1], home);
	if (home >= 0)
		close(home);
	close(sync[0]);
	close(ready[1]);
	close(ctl[1]);
	if (pid < 0) {
		r = -errno;
		close(sync[1]);
	} else
		r = linux_release(pid, pidfd, sync[1], p);
	if (r < 0) {
		close(ready[0]);
		close(ctl[0]);
		return r;
	}
	/* The daemon never waits on the template: a full queue fails the
	 * one spawn that met it. */
	fcntl(ctl[0], F_SETFL, O_NONBLOCK);
	t->ctl_fd = ctl[0];
	t->pid = pid;
	t->pidfd = pidfd;
	t->ready_fd = ready[0];
	return 0;
}

/* Everything of the plan that the template's sandboxes take from the
 * template's own copy of it and that can change while the daemon runs:
 * the filesystem plan (its key names the workspace too) and the audit
 * flag. (The seccomp program is the daemon's, compiled once at start.) */
static bool
same_sandbox(const struct ltemplate *t, const struct sandbox_plan *p)
{
	return !strcmp(t->key, p->fs->key) &&
	       t->landlock_log == p->landlock_log &&
	       t->ca == (p->ca_pem != NULL);
}

static struct ltemplate *
template_new(const struct sandbox_plan *p)
{
	struct ltemplate *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pidfd = t->ready_fd = t->state_fd = t->ctl_fd = t->inotify_fd = -1;
	t->key = strdup(p->fs->key);
	t->workspace = strdup(p->workspace);
	if (!t->key || !t->workspace) {
		template_destroy(t);
		return NULL;
	}
	t->landlock_log = p->landlock_log;
	t->ca = p->ca_pem != NULL;
	t->limits = p->limits;
	/* Before the template looks: a directory replaced in between makes
	 * one template too many, never a stale one. */
	if (linux_roots_record(p, &t->roots) < 0) {
		template_destroy(t);
		return NULL;
	}
	return t;
}

static int
template_events(struct ltemplate *t)
{
	t->exit_ev = event_new(sbxd.base, t->pidfd, EV_READ, exit_cb, t);
	t->ready_ev = event_new(sbxd.base, t->ready_fd, EV_READ, ready_cb, t);
	t->fill_ev = event_new(sbxd.base, -1, 0, fill_cb, t);
	if (!t->exit_ev || !t->ready_ev || !t->fill_ev ||
	    event_add(t->exit_ev, NULL) < 0 || event_add(t->ready_ev, NULL) < 0)
		return -ENOMEM;
	if (!sweep_ev) {
		struct timeval tv = { 60, 0 };

		sweep_ev = event_new(sbxd.base, -1, EV_PERSIST, sweep_cb, NULL);
		if (sweep_ev)
			event_add(sweep_ev, &tv);
	}
	return 0;
}

int
ltemplate_get(const struct sandbox_plan *p, struct ltemplate **out)
{
	struct ltemplate *t, *next;
	int r;

	/* A template serves one workspace under one filesystem plan; a
	 * failed one serves nothing new. */
	for (t = templates; t; t = next) {
		next = t->next;
		if (t->ctl_fd < 0 || !same_sandbox(t, p))
			continue;
		if (__atomic_load_n(&t->shared->unwatched, __ATOMIC_SEQ_CST))
			linux_backend_unwatched();
		if (__atomic_load_n(&t->shared->gone, __ATOMIC_SEQ_CST) ||
		    linux_roots_changed(p, &t->roots)) {
			/* Its trees are detached from the names now: a new
			 * one of the directories there, its sessions left
			 * with their old view. */
			retire(t);
			continue;
		}
		if (!__atomic_load_n(&t->shared->broken, __ATOMIC_SEQ_CST))
			goto found;
		/* A refused ignore file since: a new one walks again. */
		t->stale = true;
		warm_drop(t);
	}
	if (ntemplates >= TEMPLATE_MAX)
		evict_one();
	if (!(t = template_new(p)))
		return -ENOMEM;
	if ((r = start_template(p, t)) < 0) {
		if (t->state_fd >= 0)
			close(t->state_fd);
		if (t->inotify_fd >= 0)
			close(t->inotify_fd);
		template_destroy(t);
		return r;
	}
	t->next = templates;
	templates = t;
	ntemplates++;
	if (template_events(t) < 0) {
		template_free(t);
		return -ENOMEM;
	}
	retire_stale(t->workspace, t);
	log_debug("template for %s started (pid %d)", t->key, (int)t->pid);
found:
	if (t->stale) {
		/* Its plan is current again (a change was undone). */
		t->stale = false;
		retire_stale(t->workspace, t);
	}
	t->users++;
	t->last_used_ms = sbxd_now_ms();
	/* The next warm sandboxes' cgroups get this run's limits: the
	 * same for the next run, mostly. */
	t->limits = p->limits;
	*out = t;
	return 0;
}

int
ltemplate_sandbox(struct ltemplate *t, int *status_fd, int *go_fd,
		  struct lcgroup **cg, bool *warm)
{
	int r = 0;

	*warm = t->nwarm > 0;
	if (*warm) {
		/* The oldest: the most likely to be done starting. */
		*status_fd = t->warm[0].status_fd;
		*go_fd = t->warm[0].go_fd;
		*cg = t->warm[0].cg;
		memmove(&t->warm[0], &t->warm[1],
			(t->nwarm - 1) * sizeof(t->warm[0]));
		t->nwarm--;
		nwarm_all--;
	} else
		r = request(t, status_fd, go_fd, cg);
	/* Not now: making sandboxes takes CPU the run just started needs.
	 * When a session ends (ltemplate_put), or a little later. */
	if (t->ready)
		event_add(t->fill_ev, &(struct timeval){ 0, FILL_DELAY_US });
	return r;
}

bool
ltemplate_quiet(const struct ltemplate *t)
{
	struct pollfd pfd = { .fd = t->inotify_fd, .events = POLLIN };
	uint64_t done;

	/* Watches first: events before them were never queued. Then the
	 * queue: an event read from it was counted started before. */
	if (t->inotify_fd < 0 || !t->ready ||
	    !__atomic_load_n(&t->shared->watching, __ATOMIC_SEQ_CST) ||
	    poll(&pfd, 1, 0) != 0)
		return false;
	done = __atomic_load_n(&t->shared->done, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&t->shared->started, __ATOMIC_SEQ_CST) == done;
}

int
ltemplate_sync(struct ltemplate *t, int reply_fd)
{
	ssize_t n;

	if (t->ctl_fd < 0)
		return -EPIPE;
	n = fdpass_send(t->ctl_fd, "s", 1, &reply_fd, 1);
	return n == 1 ? 0 : n < 0 ? (int)n : -EIO;
}

int
ltemplate_home(struct ltemplate *t, int reply_fd)
{
	ssize_t n;

	if (t->ctl_fd < 0)
		return -EPIPE;
	n = fdpass_send(t->ctl_fd, "h", 1, &reply_fd, 1);
	return n == 1 ? 0 : n < 0 ? (int)n : -EIO;
}

void
ltemplate_netns_return(struct ltemplate *t, int listener)
{
	/* Before the fill this session's end asks for ('n' after 'r' on
	 * the same socket): the listener is closed by then. */
	if (t->ctl_fd >= 0 && !t->dead && !t->stale)
		fdpass_send(t->ctl_fd, "r", 1, &listener, 1);
}

const char *
ltemplate_problem(struct ltemplate *t)
{
	struct ltemplate_state st;

	/* Read once the build is done (the template wrote it before it
	 * answered anything), and kept: the memfd goes with the process. */
	if (!t->problem && t->shared &&
	    __atomic_load_n(&t->shared->broken, __ATOMIC_SEQ_CST)) {
		t->shared->detail[sizeof(t->shared->detail) - 1] = '\0';
		t->problem = strdup(t->shared->detail);
	}
	if (!t->problem && t->state_fd >= 0 &&
	    pread(t->state_fd, &st, sizeof(st), 0) == sizeof(st) && st.done &&
	    st.detail[0]) {
		st.detail[sizeof(st.detail) - 1] = '\0';
		t->problem = strdup(st.detail);
	}
	return t->problem;
}

void
ltemplate_put(struct ltemplate *t)
{
	if (t->users > 0)
		t->users--;
	t->last_used_ms = sbxd_now_ms();
	if (t->dead && t->users == 0)
		template_destroy(t);
	else if (t->stale && t->users == 0)
		template_free(t);
	else if (t->ready && !t->dead && t->nwarm < LTEMPLATE_WARM)
		event_add(t->fill_ev, &(struct timeval){ 0, 0 });
}

unsigned
ltemplate_count(void)
{
	return ntemplates;
}

int
ltemplate_retire(const char *ws)
{
	struct ltemplate *t, *next;

	for (t = templates; t; t = t->next)
		if (!strcmp(t->workspace, ws) && t->users > 0)
			return -EBUSY;
	for (t = templates; t; t = next) {
		next = t->next;
		if (!strcmp(t->workspace, ws))
			template_free(t);
	}
	/* They hold the home overlay mounted, and so may templates killed
	 * earlier (a policy change): the layer goes once all of them have. */
	while (dying)
		dying_free(dying, 0);
	return 0;
}

void
ltemplate_kill_all(void)
{
	while (templates)
		template_free(templates);
	while (dying)
		dying_free(dying, 0);
	if (sweep_ev)
		event_free(sweep_ev);
	sweep_ev = NULL;
}
