/* The sandboxes' cgroups: where the daemon's subtree is, one cgroup per
 * sandbox made before it is needed (a warm sandbox is placed in its
 * cgroup as it is made), read at its end, removed once empty. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/linux/cgroup.h"


/* A hierarchy the sandboxes' cgroups are made in. */
struct lcg_used {
	int version;
	unsigned res;            /* what it serves */
	int root;                /* our subtree there: DIR/sbx-PID */
	char dir[LCG_PATH_MAX];  /* the daemon's cgroup at start */
};

struct lcgroup {
	unsigned id;
	bool oom_watched;        /* v1: oom_efd is signalled on an OOM in
				    it */
	int fd[LCG_MAX_HIER];
	int procs[LCG_MAX_HIER]; /* cgroup.procs, for writing: a v1 sandbox
				    joins through a copy */
	int charge;              /* memory.current (v1 usage_in_bytes) */
	int stat[LCG_NSTATS];    /* lcg_stat_id's file in the hierarchy
				    serving it, or -1 */
	unsigned stat_div[LCG_NSTATS];
	const char *stat_key[LCG_NSTATS];
	uint64_t base[LCG_NSTATS]; /* counters when it was (re)used: a
				      reused cgroup's counts start there */
	struct sandbox_limits applied;
	uint64_t freed_ms;       /* when its sandbox let it go */
	bool spent;              /* not to be reused: removed */
	struct lcgroup *next;    /* waiting to be removed, or pooled */
};

/* Emptied cgroups kept for the next sandboxes: a reused one costs no
 * mkdir, no limit written when the limits are the same, and no rmdir
 * (with a memory cgroup's teardown in the kernel after it). */
#define POOL_MAX 16
/* A cgroup still charged for more than this (page cache its sandbox
 * read) is removed instead: the next sandbox's peak would count it. */
#define POOL_MAX_CHARGE (8 << 20)

static struct lcg_used used[LCG_MAX_HIER];
static int nused;
static unsigned next_id;
static char root_name[32];  /* sbx-PID: the sandboxes' parent */
static char leaf_name[32];  /* sbxd-PID: v2, the daemon's own leaf */
static struct lcgroup *pending, *pool;
static unsigned npool;
static int oom_efd = -1;    /* v1: every sandbox's OOM events */
static struct event *pending_ev;

bool
lcgroup_enabled(void)
{
	return nused > 0;
}

int
lcg_write(int dfd, const char *name, const char *text)
{
	size_t n = strlen(text);
	int fd = openat(dfd, name, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		r = errno ? -errno : -EIO;
	close(fd);
	return r;
}

int
lcg_write_u64(int dfd, const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return lcg_write(dfd, name, buf);
}

int
lcg_update(int dfd, const char *name, const uint64_t *old, uint64_t v)
{
	return old && *old == v ? 0 : lcg_write_u64(dfd, name, v);
}

static ssize_t
slurp(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t k = 0;
	ssize_t r;

	if (fd < 0)
		return -errno;
	while (k + 1 < n && (r = read(fd, buf + k, n - 1 - k)) > 0)
		k += (size_t)r;
	close(fd);
	buf[k] = '\0';
	return (ssize_t)k;
}

static void
res_text(unsigned res, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s", res & LCG_MEMORY ? ", memory" : "",
		 res & LCG_PIDS ? ", pids" : "", res & LCG_CPU ? ", cpu" : "",
		 res & LCG_CPUACCT ? ", cpuacct" : "",
		 res & LCG_IO ? ", io" : "");
}

/* Whether this daemon may make cgroups in h: root may; a user only in a
 * subtree given to it (Delegate=yes: the directory and its cgroup.procs
 * are the user's). */
static bool
writable(const struct lcg_hier *h, bool root)
{
	char path[LCG_PATH_MAX + 32];

	if (root)
		return true;
	snprintf(path, sizeof(path), "%s/cgroup.procs", h->dir);
	return access(h->dir, W_OK) == 0 && access(path, W_OK) == 0;
}

/* The subtrees of daemons that died without removing theirs (killed):
 * sbx-PID (and on v2 the leaf sbxd-PID) below base whose PID is gone.
 * Only empty cgroups can be removed, so a live daemon (of another pid
 * namespace) keeps its sandboxes'. */
static void
sweep(int base)
{
	DIR *d;
	struct dirent *e;
	int fd, pid, n;
	char c;

	if ((fd = dup(base)) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if ((sscanf(e->d_name, "sbx-%d%c", &pid, &c) != 1 &&
		     sscanf(e->d_name, "sbxd-%d%c", &pid, &c) != 1) ||
		    pid <= 0 || pid == getpid() ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((fd = openat(base, e->d_name, O_DIRECTORY | O_CLOEXEC)) >= 0) {
			DIR *sd = fdopendir(fd);
			struct dirent *se;

			while (sd && (se = readdir(sd)))
				if (sscanf(se->d_name, "s-%d%c", &n, &c) == 1)
					unlinkat(fd, se->d_name, AT_REMOVEDIR);
			if (sd)
				closedir(sd);
			else
				close(fd);
		}
		unlinkat(base, e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

/* Makes our subtree in h for res; 0 or -errno with why. */
static int
use(const struct lcg_hier *h, unsigned res, char *why, size_t n)
{
	struct lcg_used *u = &used[nused];
	int base, r = 0;

	if ((base = open(h->dir, O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(why, n, "%s: %s", h->dir, strerror(errno));
		return -errno;
	}
	sweep(base);
	if (h->version == 2)
		r = lcg_v2_setup(base, leaf_name, root_name, res, why, n);
	else if (mkdirat(base, root_name, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		snprintf(why, n, "mkdir %s/%s: %s", h->dir, root_name,
			 strerror(errno));
	}
	if (r == 0 && (u->root = openat(base, root_name,
					O_DIRECTORY | O_CLOEXEC)) < 0)
		r = -errno;
	close(base);
	if (r < 0)
		return r;
	u->version = h->version;
	u->res = res;
	snprintf(u->dir, sizeof(u->dir), "%s", h->dir);
	nused++;
	return 0;
}

/* v1 blkio has a weight only with CFQ or BFQ; without, the hierarchy
 * would cost a cgroup per sandbox and bound nothing. */
static bool
io_weighted(const struct lcg_hier *h)
{
	char path[LCG_PATH_MAX + 32];

	if (!(h->res & LCG_IO))
		return false;
	snprintf(path, sizeof(path), "%s/blkio.weight", h->dir);
	if (access(path, F_OK) == 0)
		return true;
	snprintf(path, sizeof(path), "%s/blkio.bfq.weight", h->dir);
	return access(path, F_OK) == 0;
}

/* What each hierarchy offers: v2 its cgroup.controllers, and CPU time
 * (cpu.stat, in every v2 cgroup) even with none; v1 what it is mounted
 * with. */
static unsigned
offers(struct lcg_hier *h)
{
	char path[LCG_PATH_MAX + 32], buf[256];
	ssize_t n;

	if (h->version == 1)
		return h->res & ~(io_weighted(h) ? 0u : LCG_IO);
	snprintf(path, sizeof(path), "%s/cgroup.controllers", h->dir);
	if ((n = slurp(path, buf, sizeof(buf))) > 0)
		h->res = lcg_controllers_parse(buf, (size_t)n);
	return h->res | LCG_CPUACCT;
}

void
lcgroup_init(const struct sandbox_config *cfg, struct sandbox_caps *caps)
{
	static char cg[4096], mi[65536];
	unsigned serve, got = 0, want = 0;
	struct lcg_layout lay;
	char why[256] = "", what[64];
	bool v1 = false, v2 = false, denied = false;
	ssize_t a, b;
	int i, pass;

	snprintf(root_name, sizeof(root_name), "sbx-%d", (int)getpid());
	snprintf(leaf_name, sizeof(leaf_name), "sbxd-%d", (int)getpid());
	a = slurp("/proc/self/cgroup", cg, sizeof(cg));
	b = slurp("/proc/self/mountinfo", mi, sizeof(mi));
	if (a <= 0 || b <= 0 ||
	    lcg_layout_parse(cg, (size_t)a, mi, (size_t)b, &lay) < 0) {
		snprintf(caps->cgroups_off, sizeof(caps->cgroups_off),
			 "no cgroup hierarchy is mounted: sandboxes run "
			 "without memory, process or CPU limits");
		return;
	}
	/* v2 first, for everything it has; each v1 hierarchy for what is
	 * left (hybrid hosts bind controllers to v1). */
	for (pass = 2; pass >= 1; pass--)
		for (i = 0; i < lay.n; i++) {
			if (lay.h[i].version != pass)
				continue;
			want |= offers(&lay.h[i]);
			if (!(serve = offers(&lay.h[i]) & ~got))
				continue;
			if (!writable(&lay.h[i], geteuid() == 0)) {
				denied = true;
				snprintf(why, sizeof(why), "%s is not "
					 "delegated to sbxd", lay.h[i].dir);
				continue;
			}
			if (use(&lay.h[i], serve, why, sizeof(why)) < 0)
				continue;
			got |= serve;
			v1 |= pass == 1;
			v2 |= pass == 2;
		}
	if (v1 && (got & LCG_MEMORY))
		oom_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	res_text(got, what, sizeof(what));
	if (got)
		snprintf(caps->cgroups, sizeof(caps->cgroups), "cgroup %s (%s)",
			 v1 && v2 ? "v2 and v1" : v2 ? "v2" : "v1", what + 2);
	if ((got & (LCG_MEMORY | LCG_PIDS)) == (LCG_MEMORY | LCG_PIDS))
		return;
	res_text(want & ~got & (LCG_MEMORY | LCG_PIDS | LCG_CPU), what,
		 sizeof(what));
	snprintf(caps->cgroups_off, sizeof(caps->cgroups_off),
		 "no cgroup for %s (%s): sandboxes run without those limits; "
		 "fix: %s", what[0] ? what + 2 : "memory, pids",
		 why[0] ? why : "no such controller mounted",
		 !denied ? "mount the cgroup controllers (cgroup v2)" :
		 cfg->privileged ? "check sbxd's cgroup permissions" :
		 "start sbxd from its systemd user unit, which has "
		 "Delegate=yes (systemctl --user enable --now sbxd.socket), "
		 "or run it as root for the user (sbxd --user NAME)");
}

/* The use files hierarchy i serves for cg (a file it lacks, such as
 * memory.peak before Linux 5.19, stays -1: not measured). */
static void
open_stats(struct lcgroup *cg, int i)
{
	const struct lcg_stat *t = used[i].version == 2 ? lcg_v2_stats :
			       lcg_v1_stats;
	int k;

	for (k = 0; k < LCG_NSTATS; k++)
		if ((t[k].res & used[i].res) && cg->stat[k] < 0) {
			/* The peak is reset through its fd for a reuse. */
			if (k == LCG_STAT_PEAK)
				cg->stat[k] = openat(cg->fd[i], t[k].file,
						     O_RDWR | O_CLOEXEC);
			if (cg->stat[k] < 0)
				cg->stat[k] = openat(cg->fd[i], t[k].file,
						     O_RDONLY | O_CLOEXEC);
			cg->stat_key[k] = t[k].key;
			cg->stat_div[k] = t[k].div;
		}
}

static void
close_stats(struct lcgroup *cg)
{
	int k;

	for (k = 0; k < LCG_NSTATS; k++)
		if (cg->stat[k] >= 0)
			close(cg->stat[k]);
	for (k = 0; k < LCG_NSTATS; k++)
		cg->stat[k] = -1;
	for (k = 0; k < LCG_MAX_HIER; k++)
		if (cg->procs[k] >= 0) {
			close(cg->procs[k]);
			cg->procs[k] = -1;
		}
	if (cg->charge >= 0)
		close(cg->charge);
	cg->charge = -1;
}

int
lcgroup_new(const struct sandbox_limits *l, struct lcgroup **out)
{
	struct lcgroup *cg = pool;
	char name[24];
	int i, r = 0;

	if (cg) {
		pool = cg->next;
		npool--;
		cg->next = NULL;
		if ((r = lcgroup_apply(cg, l)) == 0) {
			*out = cg;
			return 0;
		}
		cg->spent = true;
		lcgroup_free(cg);
	}
	if (!(cg = calloc(1, sizeof(*cg))))
		return -ENOMEM;
	cg->id = ++next_id;
	snprintf(name, sizeof(name), "s-%u", cg->id);
	for (i = 0; i < LCG_MAX_HIER; i++)
		cg->fd[i] = cg->procs[i] = -1;
	cg->charge = -1;
	for (i = 0; i < LCG_NSTATS; i++)
		cg->stat[i] = -1;
	for (i = 0; i < nused && r == 0; i++) {
		if (mkdirat(used[i].root, name, 0755) < 0 && errno != EEXIST)
			r = -errno;
		else if ((cg->fd[i] = openat(used[i].root, name,
					     O_DIRECTORY | O_CLOEXEC)) < 0 ||
			 (cg->procs[i] = openat(cg->fd[i], "cgroup.procs",
						O_WRONLY | O_CLOEXEC)) < 0)
			r = -errno;
		else
			r = used[i].version == 2 ?
			    lcg_v2_limits(cg->fd[i], used[i].res, NULL, l) :
			    lcg_v1_limits(cg->fd[i], used[i].res, NULL, l);
	}
	if (r < 0) {
		log_warn("sandbox cgroup %s: %s", name, strerror(-r));
		lcgroup_free(cg);
		return r;
	}
	cg->applied = *l;
	for (i = 0; i < nused; i++) {
		open_stats(cg, i);
		if ((used[i].res & LCG_MEMORY) && cg->charge < 0)
			cg->charge = openat(cg->fd[i], used[i].version == 2 ?
					    "memory.current" :
					    "memory.usage_in_bytes",
					    O_RDONLY | O_CLOEXEC);
	}
	/* v1 kills one process on an OOM, not the sandbox (v2's
	 * memory.oom.group): the daemon is told and kills the rest. */
	for (i = 0; i < nused; i++)
		if (used[i].version == 1 && (used[i].res & LCG_MEMORY) &&
		    oom_efd >= 0 && cg->stat[LCG_STAT_OOM] >= 0)
			cg->oom_watched = lcg_v1_oom_watch(cg->fd[i], oom_efd,
					  cg->stat[LCG_STAT_OOM]) == 0;
	*out = cg;
	return 0;
}

int
lcgroup_oom_fd(const struct lcgroup *cg)
{
	return cg && cg->oom_watched ? oom_efd : -1;
}

int
lcgroup_apply(struct lcgroup *cg, const struct sandbox_limits *l)
{
	int i, r = 0;

	if (!memcmp(&cg->applied, l, sizeof(*l)))
		return 0;
	for (i = 0; i < nused && r == 0; i++)
		r = used[i].version == 2 ?
		    lcg_v2_limits(cg->fd[i], used[i].res, &cg->applied, l) :
		    lcg_v1_limits(cg->fd[i], used[i].res, &cg->applied, l);
	if (r == 0)
		cg->applied = *l;
	return r;
}

void
lcgroup_join(const struct lcgroup *cg, struct lcg_join *j)
{
	int i;

	j->v2 = -1;
	j->nv1 = 0;
	for (i = 0; cg && i < nused; i++) {
		if (used[i].version == 2)
			j->v2 = fcntl(cg->fd[i], F_DUPFD_CLOEXEC, 3);
		else if (j->nv1 < LCG_JOIN_MAX &&
			 (j->v1[j->nv1] = fcntl(cg->procs[i], F_DUPFD_CLOEXEC,
						3)) >= 0)
			j->nv1++;
	}
}

void
lcg_join_close(struct lcg_join *j)
{
	if (j->v2 >= 0)
		close(j->v2);
	while (j->nv1 > 0)
		close(j->v1[--j->nv1]);
	j->v2 = -1;
}

/* cg's counters now; *under_oom: v1 is killing in it. */
static void
read_stats(const struct lcgroup *cg, uint64_t v[LCG_NSTATS], bool *under_oom)
{
	uint64_t oom = 0;
	char buf[1024];
	ssize_t n;
	int k;

	*under_oom = false;
	for (k = 0; k < LCG_NSTATS; k++) {
		v[k] = 0;
		if (cg->stat[k] < 0 ||
		    (n = pread(cg->stat[k], buf, sizeof(buf), 0)) <= 0)
			continue;
		if (cg->stat_key[k])
			lcg_keyed_get(buf, (size_t)n, cg->stat_key[k], &v[k]);
		else
			lcg_u64_parse(buf, (size_t)n, &v[k]);
		/* v1 signals an OOM before its kill is done and counted. */
		if (k == LCG_STAT_OOM &&
		    lcg_keyed_get(buf, (size_t)n, "under_oom", &oom) == 0)
			*under_oom = oom > 0;
	}
}

void
lcgroup_usage(const struct lcgroup *cg, struct sandbox_usage *u)
{
	uint64_t v[LCG_NSTATS];
	int k;

	memset(u, 0, sizeof(*u));
	if (!cg)
		return;
	u->measured = true;
	read_stats(cg, v, &u->memory_oom);
	/* Counted since this sandbox took the cgroup (the peak is reset
	 * then). */
	for (k = LCG_STAT_OOM; k < LCG_NSTATS; k++)
		v[k] = v[k] > cg->base[k] ? v[k] - cg->base[k] : 0;
	u->mem_peak = v[LCG_STAT_PEAK];
	u->memory_hit = v[LCG_STAT_OOM] > 0;
	u->pids_hit = v[LCG_STAT_PIDS] > 0;
	u->cpu_us = v[LCG_STAT_CPU] / (cg->stat_div[LCG_STAT_CPU] ?
				       cg->stat_div[LCG_STAT_CPU] : 1);
}

/* cg made ready for another sandbox once empty in every hierarchy:
 * hardly charged, its peak reset and its counters' values kept as the
 * new start. 1: ready; 0: to be removed instead; -EBUSY: not empty yet
 * (neither: a removal tried now could win the race with the last exit
 * and lose a cgroup the pool would have kept). */
static int
recycle(struct lcgroup *cg)
{
	char buf[32];
	uint64_t charge = 0;
	bool oom;
	ssize_t n;
	int i, fd;

	/* One hierarchy tells: a sandbox's processes are in all of them
	 * (each joins every one before it forks). Opened anew each time: a
	 * v1 cgroup.procs fd read again shows the list it read first for
	 * as long as the kernel keeps that list (a second after the last
	 * read). */
	for (i = 0; i < nused && cg->fd[i] < 0; i++)
		;
	if (i < nused) {
		if ((fd = openat(cg->fd[i], "cgroup.procs",
				 O_RDONLY | O_CLOEXEC)) < 0)
			return 0;
		n = read(fd, buf, 1);
		close(fd);
		if (n != 0)
			return n < 0 ? 0 : -EBUSY;
	}
	if (cg->spent || npool >= POOL_MAX || cg->stat[LCG_STAT_PEAK] < 0)
		return 0;
	for (i = 0; i < nused; i++)
		if (cg->procs[i] < 0)
			return 0;
	if (cg->charge >= 0 &&
	    ((n = pread(cg->charge, buf, sizeof(buf) - 1, 0)) <= 0 ||
	     lcg_u64_parse(buf, (size_t)n, &charge) < 0 ||
	     charge > POOL_MAX_CHARGE))
		return 0;
	/* v2 (Linux 6.12): this fd's peak from now; v1: the cgroup's. */
	if (pwrite(cg->stat[LCG_STAT_PEAK], "0", 1, 0) != 1)
		return 0;
	read_stats(cg, cg->base, &oom);
	return !oom;
}

/* Removes what of cg is empty now; true once all of it is gone. */
static bool
try_remove(struct lcgroup *cg)
{
	char name[24];
	bool all = true;
	int i;

	snprintf(name, sizeof(name), "s-%u", cg->id);
	for (i = 0; i < nused; i++) {
		if (cg->fd[i] < 0)
			continue;
		if (unlinkat(used[i].root, name, AT_REMOVEDIR) == 0 ||
		    errno == ENOENT) {
			close(cg->fd[i]);
			cg->fd[i] = -1;
			if (cg->procs[i] >= 0)
				close(cg->procs[i]);
			cg->procs[i] = -1;
		} else
			all = false;
	}
	return all;
}

/* The processes of a sandbox that ended leave its cgroup within moments
 * (the init's pid namespace takes them down): tried again until then. */
static void
pending_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lcgroup **pp = &pending, *cg;
	uint64_t now = sbxd_now_ms();
	bool gone, young = false;
	int r;

	/* Emptied: kept for reuse, or removed; not yet: looked at again. */
	while ((cg = *pp)) {
		if ((r = recycle(cg)) > 0) {
			*pp = cg->next;
			cg->next = pool;
			pool = cg;
			npool++;
		} else if (((gone = r == 0 && try_remove(cg))) ||
			   now - cg->freed_ms > 60000) {
			if (!gone)
				log_warn("sandbox cgroup s-%u still has "
					 "processes; left in place", cg->id);
			close_stats(cg);
			*pp = cg->next;
			free(cg);
		} else {
			young |= now - cg->freed_ms < 50;
			pp = &cg->next;
		}
	}
	/* A sandbox's last processes are gone within milliseconds of its
	 * exit, usually: soon looked at again, so that the next warm
	 * sandbox finds its cgroup ready, then less often. */
	if (pending)
		event_add(pending_ev, &(struct timeval){ 0, young ? 5000 :
							 100000 });
}

void
lcgroup_free(struct lcgroup *cg)
{
	if (!cg)
		return;
	/* Not now: the daemon has a run's exit to report first. Once that
	 * is done (the next turn of the loop) its processes are usually
	 * gone, and it is ready for the next warm sandbox, made as the next
	 * run starts; if not, looked at again later. */
	cg->freed_ms = sbxd_now_ms();
	cg->next = pending;
	pending = cg;
	if (!pending_ev)
		pending_ev = evtimer_new(sbxd.base, pending_cb, NULL);
	if (pending_ev)
		event_add(pending_ev, &(struct timeval){ 0, 0 });
}

void
lcgroup_cleanup(void)
{
	struct lcgroup *cg;
	int i, k;

	/* The pool's go too; the sandboxes were killed and waited for: a
	 * few tries suffice. */
	while ((cg = pool)) {
		pool = cg->next;
		cg->next = pending;
		cg->spent = true;
		pending = cg;
	}
	for (cg = pending; cg; cg = cg->next)
		cg->spent = true;
	npool = 0;
	for (k = 0; pending && k < 100; k++) {
		pending_cb(-1, 0, NULL);
		if (pending)
			usleep(10000);
	}
	while ((cg = pending)) {
		pending = cg->next;
		close_stats(cg);
		free(cg);
	}
	if (oom_efd >= 0)
		close(oom_efd);
	oom_efd = -1;
	if (pending_ev)
		event_free(pending_ev);
	pending_ev = NULL;
	for (i = 0; i < nused; i++) {
		int base = open(used[i].dir, O_DIRECTORY | O_CLOEXEC);

		close(used[i].root);
		if (base >= 0 && used[i].version == 2)
			lcg_v2_teardown(base, leaf_name, root_name,
					used[i].res);
		else if (base >= 0)
			unlinkat(base, root_name, AT_REMOVEDIR);
		if (base >= 0)
			close(base);
	}
	nused = 0;
}

int
lcgroup_join_self(const struct lcg_join *j)
{
	int i;

	for (i = 0; i < j->nv1; i++)
		if (write(j->v1[i], "0", 1) != 1)
			return -errno;
	return 0;
}

pid_t
lcgroup_clone3(struct clone_args *a, const struct lcg_join *j)
{
	pid_t pid;

	if (j && j->v2 >= 0) {
		a->flags |= CLONE_INTO_CGROUP;
		a->cgroup = (uint64_t)j->v2;
		pid = (pid_t)syscall(SYS_clone3, a, sizeof(*a));
		if (pid >= 0)
			return pid;
		/* A kernel before 5.7, or the cgroup gone: the sandbox is
		 * made anyway, measured and bounded by v1 alone. */
		a->flags &= ~(uint64_t)CLONE_INTO_CGROUP;
		a->cgroup = 0;
	}
	return (pid_t)syscall(SYS_clone3, a, sizeof(*a));
}

pid_t
lcgroup_fork(const struct lcg_join *j)
{
	struct clone_args a = { .exit_signal = SIGCHLD };
	pid_t pid;

	pid = j && j->v2 >= 0 ? lcgroup_clone3(&a, j) : _Fork();
	if (pid == 0 && j && lcgroup_join_self(j) < 0)
		_exit(127);
	return pid;
}

int
lcg_join_pack(const struct lcg_join *j, char msg[LCG_JOIN_MSG], int *fds)
{
	int n = 0, i;

	msg[0] = j->v2 >= 0;
	msg[1] = (char)j->nv1;
	if (j->v2 >= 0)
		fds[n++] = j->v2;
	for (i = 0; i < j->nv1; i++)
		fds[n++] = j->v1[i];
	return n;
}

void
lcg_join_unpack(const char *msg, size_t len, int *fds, int nfds,
		struct lcg_join *j)
{
	/* A count byte: unsigned whatever char is (aarch64's is). */
	int k = 0, n = len >= LCG_JOIN_MSG ? (unsigned char)msg[1] : 0;

	j->v2 = -1;
	j->nv1 = 0;
	if (len < LCG_JOIN_MSG || n > LCG_JOIN_MAX ||
	    nfds != (msg[0] ? 1 : 0) + n) {
		while (nfds > 0)
			close(fds[--nfds]);
		return;
	}
	if (msg[0])
		j->v2 = fds[k++];
	while (k < nfds)
		j->v1[j->nv1++] = fds[k++];
}

void
lcgroup_attach_pid(const struct lcg_join *j, pid_t pid)
{
	char buf[16];
	int i, n = snprintf(buf, sizeof(buf), "%d", (int)pid);

	for (i = 0; i < j->nv1; i++)
		if (write(j->v1[i], buf, (size_t)n) != n)
			break; /* the sandbox runs unbounded there; rare */
}
