/* Held templates. Building the mount tree is the slow part of a sandbox
 * (and grows with what is masked), so it happens once per workspace in a
 * template process; spawns join its namespaces (linux-spawn.c). Idle
 * templates are dropped after a while, the oldest first beyond a cap. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/fsplan.h"
#include "daemon/linux-template.h"
#include "daemon/linux.h"
#include "daemon/log.h"

#define TEMPLATE_MAX 32
#define TEMPLATE_IDLE_MS (10u * 60 * 1000)

static struct ltemplate *templates;
static unsigned ntemplates;
static struct event *sweep_ev;

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
	if (t->exit_ev)
		event_free(t->exit_ev);
	t->exit_ev = NULL;
	linux_kill_reap(t->pidfd);
	close(t->ready_fd);
	close(t->state_fd);
	close(t->ctl_fd);
	t->pidfd = t->ready_fd = t->state_fd = t->ctl_fd = -1;
	t->dead = true;
	if (t->users == 0) {
		free(t->key);
		free(t->workspace);
		free(t);
	}
}

/* A policy or ignore-file change gave ws a new plan: the old templates
 * serve only the sessions already in them. */
static void
retire_stale(const char *ws, const struct ltemplate *fresh)
{
	struct ltemplate *t, *next;

	for (t = templates; t; t = next) {
		next = t->next;
		if (t == fresh || strcmp(t->workspace, ws))
			continue;
		if (t->users == 0)
			template_free(t);
		else
			t->stale = true;
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

/* Body of the template: build the tree, say so, then hold the namespaces
 * and reap whatever is orphaned into this pid namespace. */
static void __attribute__((noreturn))
template_main(const struct sandbox_plan *p, int sync_fd, int ready_w,
	      int state_fd, int ctl)
{
	struct ltemplate_state st = { 1, 0, 0 };
	int keep[4] = { sync_fd, ready_w, state_fd, ctl };
	struct walk_state *walk = NULL;
	char c;

	linux_close_fds_except(keep, 4);
	prctl(PR_SET_NAME, "sbx-template");
	umask(022);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || read(sync_fd, &c, 1) != 1)
		_exit(1);
	close(sync_fd);
	st.step = linux_mount_build(p, &st.err, &walk);
	if (st.step == 0 && chdir("/") < 0) {
		st.step = STEP_CHDIR;
		st.err = errno;
	}
	if (pwrite(state_fd, &st, sizeof(st), 0) != sizeof(st))
		_exit(1);
	close(ready_w);
	if (st.step != 0)
		_exit(1);
	/* Session inits are reparented here when their helper exits; what
	 * appears in the workspace later is masked from here. */
	linux_watch_run(walk, ctl, p->emulate);
}

static int
start_template(const struct sandbox_plan *p, struct ltemplate *t)
{
	int sync[2], ready[2], ctl[2], pidfd = -1, r = 0;
	struct clone_args a = { 0 };
	pid_t pid;

	t->state_fd = memfd_create("sbx-template", MFD_CLOEXEC);
	if (t->state_fd < 0)
		return -errno;
	if (ftruncate(t->state_fd, sizeof(struct ltemplate_state)) < 0)
		return -errno;
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
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0)
		template_main(p, sync[0], ready[1], t->state_fd, ctl[1]);
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
	t->ctl_fd = ctl[0];
	t->pid = pid;
	t->pidfd = pidfd;
	t->ready_fd = ready[0];
	return 0;
}

int
ltemplate_get(const struct sandbox_plan *p, struct ltemplate **out)
{
	struct ltemplate *t;
	int r;

	/* A template serves one workspace under one filesystem plan; the
	 * plan's key covers the workspace path too. */
	for (t = templates; t; t = t->next)
		if (!strcmp(t->key, p->fs->key))
			goto found;
	if (ntemplates >= TEMPLATE_MAX)
		evict_one();
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pidfd = t->ready_fd = t->state_fd = t->ctl_fd = -1;
	t->key = strdup(p->fs->key);
	t->workspace = strdup(p->workspace);
	r = t->key && t->workspace ? start_template(p, t) : -ENOMEM;
	if (r < 0) {
		if (t->state_fd >= 0)
			close(t->state_fd);
		free(t->key);
		free(t->workspace);
		free(t);
		return r;
	}
	t->exit_ev = event_new(sbxd.base, t->pidfd, EV_READ, exit_cb, t);
	if (!t->exit_ev || event_add(t->exit_ev, NULL) < 0) {
		t->next = templates;
		templates = t;
		ntemplates++;
		template_free(t);
		return -ENOMEM;
	}
	if (!sweep_ev) {
		struct timeval tv = { 60, 0 };

		sweep_ev = event_new(sbxd.base, -1, EV_PERSIST, sweep_cb, NULL);
		if (sweep_ev)
			event_add(sweep_ev, &tv);
	}
	t->next = templates;
	templates = t;
	ntemplates++;
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
	*out = t;
	return 0;
}

void
ltemplate_put(struct ltemplate *t)
{
	if (t->users > 0)
		t->users--;
	t->last_used_ms = sbxd_now_ms();
	if (t->dead && t->users == 0) {
		free(t->key);
		free(t->workspace);
		free(t);
	} else if (t->stale && t->users == 0)
		template_free(t);
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
	return 0;
}

void
ltemplate_kill_all(void)
{
	while (templates)
		template_free(templates);
	if (sweep_ev)
		event_free(sweep_ev);
	sweep_ev = NULL;
}
