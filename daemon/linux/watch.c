/* The life of a template after its build: files that appear later under
 * the workspace and match a deny pattern are masked in the template's
 * mount tree as they appear (inotify on every walked directory), edits to
 * ignore files re-walk what they cover, and a spawn first asks for a sync,
 * answered only after every queued event is handled, so a file created
 * before `sbxctl run` is masked for that run. The sandboxes that join the
 * template are made by its spawner (linux/spawner.c): the daemon asks the
 * template, which hands the request on. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/roots.h"
#include "daemon/linux/template.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/cgroup.h"
#include "daemon/linux/linux.h"
#include "daemon/usercred.h"
#include "daemon/policy/protect.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

/* How long events are left to queue after a drain (linux_watch_run). */
#define WATCH_REST_MS 5

#define WATCH_MASK (IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | \
		    IN_MOVED_FROM | IN_ONLYDIR)
/* On the roots (the workspace, the writable trees): gone from the host's
 * name. (IN_UNMOUNT and IN_IGNORED come unasked.) */
#define ROOT_GONE (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED)
#define MAX_ROOTS 65

struct watch {
	int fd;
	struct ltemplate_shared *sh;
	char **dirs;     /* by watch descriptor */
	size_t ndirs;
	size_t nwatches; /* directories watched, at most LTEMPLATE_WATCH_MAX */
	struct walk_state *st;
	const struct sandbox_plan *plan;
	int spawner;                         /* makes the sandboxes */
	const struct ltemplate_state *built; /* how the build went */
	int root_wd[MAX_ROOTS];              /* watches of the roots */
	size_t nroots;
};

/* The template's one watch table: filled by its walk while it builds,
 * then served by linux_watch_run. */
static struct watch tw = { .fd = -1 };

/* One more directory without a watch: counted where the daemon reads it,
 * which puts it in the degraded list (linux_backend_unwatched). */
static int
unwatched(struct watch *w)
{
	if (w->sh)
		__atomic_fetch_add(&w->sh->unwatched, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Directory dfd (at abs), opened by the walk and not read yet, is watched:
 * the inode itself ("." once we are in it, or through /proc where it may
 * be read but not entered), so a rename meanwhile cannot put another
 * directory in its place; what is made in it after the watch is an
 * event, what was made before it the walk reads. (The template's cwd is
 * set back to / after each walk.) */
static int
watch_dir(int dfd, const char *abs, void *arg)
{
	struct watch *w = arg;
	char self[64];
	int wd;

	if (w->fd < 0)
		return 0;
	if (w->nwatches >= LTEMPLATE_WATCH_MAX)
		return unwatched(w);
	if (fchdir(dfd) == 0) {
		wd = inotify_add_watch(w->fd, ".", WATCH_MASK);
	} else {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", dfd);
		wd = inotify_add_watch(w->fd, self, WATCH_MASK);
		/* A directory of the user's own that the user may not read
		 * (the walk opened it only so): watched by root, through
		 * the fd, which names nothing of the user's. */
		if (wd < 0 && errno == EACCES) {
			usercred_leave();
			wd = inotify_add_watch(w->fd, self, WATCH_MASK);
			usercred_enter();
		}
	}
	if (wd < 0)
		return unwatched(w); /* what appears there is not masked */
	if ((size_t)wd >= w->ndirs) {
		size_t n = (size_t)wd * 2 + 64;
		char **v = realloc(w->dirs, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + w->ndirs, 0, (n - w->ndirs) * sizeof(*v));
		w->dirs = v;
		w->ndirs = n;
	}
	if (!w->dirs[wd])
		w->nwatches++;
	free(w->dirs[wd]);
	if (!(w->dirs[wd] = strdup(abs)))
		return -ENOMEM;
	return 0;
}

struct walk_watch
linux_watch_hook(int inotify_fd, struct ltemplate_shared *sh)
{
	tw.fd = inotify_fd;
	tw.sh = sh;
	return (struct walk_watch){ .fn = watch_dir, .arg = &tw };
}

/* A .git/config or .git/hooks that appears while sessions run is left to
 * their supervisors, which refuse every change but git init's own: a
 * read-only bind here would land between git's steps and fail it. */
static void
drop_git_paths(struct fsplan_list *ro)
{
	size_t i, n = 0;

	for (i = 0; i < ro->n; i++) {
		if (protect_late_bind(ro->v[i]))
			ro->v[n++] = ro->v[i];
		else
			free(ro->v[i]);
	}
	ro->n = n;
	if (ro->v)
		ro->v[n] = NULL;
}

/* Masks what a walk found (the directories it saw are watched since it
 * opened them). */
static void
settle(struct watch *w, struct walk_result *res)
{
	if (w->plan->emulate)
		drop_git_paths(&res->ro);
	linux_mount_apply(res);
}

static void
apply(struct watch *w, const char *dir, const char *name)
{
	struct walk_result res;

	/* The workspace is the user's: walked and masked with the user's
	 * file-system rights, as at the build. */
	usercred_enter();
	if (linux_walk_rescan(w->st, dir, name, &res) == 0)
		settle(w, &res);
	else if (linux_walk_refused()) {
		/* Its patterns are gone: what they masked would not be in a
		 * new sandbox's tree. The daemon builds a new template,
		 * whose walk says what is wrong until it is fixed. */
		snprintf(w->sh->detail, sizeof(w->sh->detail), "%s",
			 linux_walk_refused());
		__atomic_store_n(&w->sh->broken, 1, __ATOMIC_SEQ_CST);
	}
	usercred_leave();
	linux_walk_result_free(&res);
	if (chdir("/") < 0)
		_exit(1); /* "/" is there: cannot happen */
}

/* Each root the template holds, as its tree shows it (the mounted clone:
 * the very inode), watched for going away on the host. The home is not:
 * its name shows the overlay. */
static void
watch_roots(struct watch *w)
{
	const char *path, *home = fsplan_home(w->plan->fs);
	size_t i;
	int wd;

	for (i = 0; (path = linux_roots_path(w->plan, i)); i++) {
		if (w->nroots == MAX_ROOTS || (home && !strcmp(path, home)))
			continue;
		usercred_enter();
		wd = inotify_add_watch(w->fd, path, IN_DELETE_SELF |
				       IN_MOVE_SELF | IN_MASK_ADD |
				       IN_ONLYDIR | IN_DONT_FOLLOW);
		usercred_leave();
		if (wd >= 0)
			w->root_wd[w->nroots++] = wd;
	}
}

/* A root went: the daemon makes no new sandbox of this template. */
static void
root_gone(struct watch *w, const struct inotify_event *ev)
{
	size_t i;

	for (i = 0; i < w->nroots; i++)
		if (w->root_wd[i] == ev->wd)
			__atomic_store_n(&w->sh->gone, 1, __ATOMIC_SEQ_CST);
}

/* ev is the IN_MOVED_FROM of a rename whose IN_MOVED_TO, into a watched
 * directory, follows at once (the kernel queues the two together). */
static bool
moved_within(const struct inotify_event *ev, const char *next,
	     const char *end)
{
	const struct inotify_event *to = (const void *)next;

	return (ev->mask & IN_MOVED_FROM) && next + sizeof(*to) <= end &&
	       (to->mask & IN_MOVED_TO) && to->cookie == ev->cookie;
}

static void
handle(struct watch *w, const struct inotify_event *ev, bool within)
{
	const char *dir;

	if (!w->st)
		return; /* a failed build's watches: nothing to mask into */
	if (ev->mask & ROOT_GONE)
		root_gone(w, ev);
	if (ev->mask & IN_Q_OVERFLOW) {
		struct walk_result res;
		size_t i;

		/* Events were lost: walk every watched directory again,
		 * the link counts made afresh (removals were lost too). */
		linux_walk_recount(w->st);
		for (i = 0; i < w->ndirs; i++)
			if (w->dirs[i])
				apply(w, w->dirs[i], NULL);
		usercred_enter();
		if (linux_walk_recounted(w->st, &res) == 0)
			settle(w, &res);
		usercred_leave();
		linux_walk_result_free(&res);
		return;
	}
	if (ev->wd < 0 || (size_t)ev->wd >= w->ndirs || !w->dirs[ev->wd] ||
	    !ev->len)
		return;
	dir = w->dirs[ev->wd];
	/* A link gone from the trees: what is left of its file may then
	 * have a link outside them (linux/links.c). */
	if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		struct walk_result res;

		usercred_enter();
		if (linux_walk_gone(w->st, dir, ev->name, ev->mask & IN_ISDIR,
				    !within, &res) == 0)
			settle(w, &res);
		usercred_leave();
		linux_walk_result_free(&res);
		return;
	}
	if ((ev->mask & IN_CLOSE_WRITE) &&
	    !linux_walk_is_ignore_file(w->st, ev->name))
		return; /* only ignore files change what is masked */
	apply(w, dir, ev->name);
}

static void
drain(struct watch *w)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	char *p;

	/* Started before the events leave the queue, done once handled:
	 * what the daemon reads to skip a sync (ltemplate_quiet). */
	__atomic_fetch_add(&w->sh->started, 1, __ATOMIC_SEQ_CST);
	if (w->st)
		linux_walk_defer_links(w->st);
	while ((n = read(w->fd, buf, sizeof(buf))) > 0)
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (void *)p;

			p += sizeof(*ev) + ev->len;
			handle(w, ev, moved_within(ev, p, buf + n));
		}
	if (w->st) {
		struct walk_result res;

		usercred_enter();
		if (linux_walk_links_settle(w->st, &res) == 0)
			settle(w, &res);
		usercred_leave();
		linux_walk_result_free(&res);
	}
	__atomic_fetch_add(&w->sh->done, 1, __ATOMIC_SEQ_CST);
}

/* A sandbox asked for: made by the spawner, or failed with the template's
 * own failure when its build did not succeed (or the spawner's). */
static void
start(struct watch *w, const char *msg, size_t len, int *fds, int nfds)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_SETUP_FAILED };
	int status = fds[0];
	ssize_t k = 0;

	rec.step = w->built->step;
	rec.value = w->built->err;
	if (rec.step == 0 && __atomic_load_n(&w->sh->broken, __ATOMIC_SEQ_CST)) {
		rec.step = STEP_MOUNT_POLICY;
		rec.value = EINVAL;
	}
	/* With the cgroups it joins (linux/cgroup.h), passed on as is. */
	if (rec.step == 0 && w->spawner >= 0)
		k = fdpass_send(w->spawner, msg, len, fds, nfds);
	/* A spawner that was killed (or could not be made last time):
	 * another, forked from here now (a copy of everything the walk
	 * holds, so slower to fork from). */
	if (rec.step == 0 && k != 1 &&
	    (w->spawner < 0 || k == -EPIPE || k == -ECONNRESET)) {
		if (w->spawner >= 0)
			close(w->spawner);
		w->spawner = -1;
		if ((k = linux_spawner_start(w->plan, &w->spawner)) == 0)
			k = fdpass_send(w->spawner, msg, len, fds, nfds);
	}
	if (rec.step == 0 && k != (ssize_t)len) {
		rec.step = STEP_FORK;
		rec.value = k < 0 ? (int)-k : EIO;
	}
	if (rec.step != 0) {
		k = write(status, &rec, sizeof(rec));
		(void)k;
	}
	while (nfds > 0)
		close(fds[--nfds]);
}

/* A request of the daemon: a sync ('s') carries its private reply socket,
 * a new sandbox ('n') its status and go sockets, a network namespace given
 * back ('r') a proxy listener of the session that used it, the home
 * overlay asked for ('h') the socket to send it on. */
static bool
answer(struct watch *w, int ctl)
{
	int fds[FDPASS_SEND_MAX], nfds = 0;
	char msg[1 + LCG_JOIN_MSG] = { 0 }, c;
	ssize_t n = fdpass_recv(ctl, msg, sizeof(msg), fds, &nfds,
				FDPASS_SEND_MAX);

	if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR))
		return false; /* the daemon is gone */
	c = msg[0];
	if (c == 'n' && nfds >= 2 && n == (ssize_t)sizeof(msg)) {
		start(w, msg, sizeof(msg), fds, nfds);
		return true;
	}
	if (c == 'h' && nfds == 1) {
		linux_homeshare_answer(fds[0]);
		close(fds[0]);
		return true;
	}
	if (c == 'r' && nfds == 1) {
		/* The spawner's pool; a send that fails drops the namespace. */
		fdpass_send(w->spawner, "r", 1, fds, 1);
		close(fds[0]);
		return true;
	}
	drain(w);
	if (c == 's' && nfds == 1) {
		/* A failed write: the spawn gave up waiting; nothing to do. */
		ssize_t k = write(fds[0], "k", 1);

		(void)k;
	}
	while (nfds > 0)
		close(fds[--nfds]);
	return true;
}

void
linux_watch_run(struct walk_state *st, int ctl, int inotify_fd,
		struct ltemplate_shared *sh, const struct sandbox_plan *plan,
		int spawner, const struct ltemplate_state *built)
{
	struct watch *w = &tw;
	struct pollfd pfd[3];
	bool rest = false;
	int r;

	w->fd = inotify_fd;
	w->sh = sh;
	w->st = st;
	w->plan = plan;
	w->spawner = spawner;
	w->built = built;
	/* Every walked directory is watched already (watch_dir). */
	if (w->fd >= 0 && st) {
		watch_roots(w);
		__atomic_store_n(&sh->watching, 1, __ATOMIC_SEQ_CST);
	}
	/* A failed build may have left watches (the walk adds them as it
	 * goes): their events are only drained, at a sync. */
	pfd[1].fd = ctl;
	pfd[2].fd = linux_chld_fd();
	pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
	for (;;) {
		/* After a drain the queue is left to fill for WATCH_REST_MS:
		 * a tree being made (an untar, npm ci) queues two events a
		 * file, which handled as they come woke this process for
		 * each. Nothing waits on it meanwhile: a spawn asks for a
		 * sync whenever the queue is not empty (ltemplate_quiet),
		 * and a sync drains it first (answer). */
		pfd[0].fd = st && !rest ? w->fd : -1;
		r = linux_poll_reaping(pfd, 3, rest ? WATCH_REST_MS : -1);
		if (r == 0)
			rest = false;
		if (r <= 0)
			continue;
		if (pfd[0].fd >= 0 && pfd[0].revents) {
			drain(w);
			rest = true;
		}
		if (pfd[1].revents && !answer(w, ctl))
			_exit(0);
	}
}
