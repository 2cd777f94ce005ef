/* Each sandbox's cgroups: made by the daemon below a subtree of its own
 * (docs/architecture.md, "Resource limits"), joined by the sandbox while
 * it is warm, read when it ends, removed after. cgroup v2 where the
 * controllers are there, else each controller's v1 hierarchy
 * (linux/cgroup-v1.c, linux/cgroup-v2.c). Private to the Linux backend. */
#ifndef SBX_LINUX_CGROUP_H
#define SBX_LINUX_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/linux/cgroup-parse.h"
#include "daemon/sandbox.h"

/* Linux 5.7; the headers may predate it. */
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

struct lcgroup;

/* What a new sandbox process joins: the v2 directory (CLONE_INTO_CGROUP,
 * -1: none), and the cgroup.procs of each v1 hierarchy, written "0" by
 * the process itself. The fds are the holder's. */
#define LCG_JOIN_MAX 5
struct lcg_join {
	int v2;
	int v1[LCG_JOIN_MAX];
	int nv1;
};

/* At start-up: finds the daemon's cgroups, makes its subtree (v2: moves
 * the daemon into a leaf of its own first). Fills caps' cgroups, or
 * cgroups_off with why not and the fix; never fails the daemon. */
void lcgroup_init(const struct sandbox_config *cfg, struct sandbox_caps *caps);
bool lcgroup_enabled(void);
/* A new sandbox's cgroups, with limits l. */
int lcgroup_new(const struct sandbox_limits *l, struct lcgroup **out);
/* Rewrites the limits that differ from what cg has (a run whose policy
 * differs from the one its warm sandbox was made for). */
int lcgroup_apply(struct lcgroup *cg, const struct sandbox_limits *l);
void lcgroup_join(const struct lcgroup *cg, struct lcg_join *j);
void lcgroup_usage(const struct lcgroup *cg, struct sandbox_usage *u);
/* Readable after an OOM kill in cg where the kernel kills only the one
 * process (v1): the caller kills the sandbox if lcgroup_usage says its
 * memory limit was hit (one fd serves every sandbox: closing one per
 * sandbox would cost more than its whole cgroup). -1: nothing to watch. */
int lcgroup_oom_fd(const struct lcgroup *cg);
/* Removes cg once its processes are gone (now, or retried from the event
 * loop); frees it. NULL is fine. */
void lcgroup_free(struct lcgroup *cg);
/* At exit: removes what is left and the daemon's subtree. */
void lcgroup_cleanup(void);

/* In a process about to become (or fork) a sandbox: joins the v1
 * hierarchies of j (v2 is joined by clone3). No allocation. */
int lcgroup_join_self(const struct lcg_join *j);
/* fork() into j's v2 cgroup (CLONE_INTO_CGROUP) and its v1 ones; like
 * _Fork(): no atfork handler. */
pid_t lcgroup_fork(const struct lcg_join *j);
/* clone3(a) into j's v2 cgroup (none: as given; refused: without it). */
struct clone_args;
pid_t lcgroup_clone3(struct clone_args *a, const struct lcg_join *j);
/* Puts pid into j's v1 hierarchies (v2: clone3 did); no allocation. */
void lcgroup_attach_pid(const struct lcg_join *j, pid_t pid);
void lcg_join_close(struct lcg_join *j);
/* A join on the template's and spawner's sockets: the message bytes
 * after the request's letter and the fds after its own, and back. */
#define LCG_JOIN_MSG 2
int lcg_join_pack(const struct lcg_join *j, char msg[LCG_JOIN_MSG],
		  int *fds);
void lcg_join_unpack(const char *msg, size_t len, int *fds, int nfds,
		     struct lcg_join *j);

/* The per-version operations (linux/cgroup-v1.c, linux/cgroup-v2.c) on an
 * open cgroup directory. res: the resources that hierarchy serves. */
int lcg_v1_limits(int dfd, unsigned res, const struct sandbox_limits *old,
		  const struct sandbox_limits *l);
/* Has the eventfd efd signalled at each OOM in the memory cgroup dfd,
 * whose memory.oom_control is open as ofd. */
int lcg_v1_oom_watch(int dfd, int efd, int ofd);
int lcg_v2_limits(int dfd, unsigned res, const struct sandbox_limits *old,
		  const struct sandbox_limits *l);
/* The files a sandbox's use is read from, per version: opened with its
 * cgroup, read (pread) at its end, so the end costs a read each. */
enum lcg_stat_id { LCG_STAT_PEAK, LCG_STAT_OOM, LCG_STAT_PIDS, LCG_STAT_CPU,
		   LCG_NSTATS };
struct lcg_stat {
	unsigned res;            /* the hierarchy must serve it */
	const char *file;
	const char *key;         /* a "key value" line; NULL: one number */
	unsigned div;            /* to microseconds (CPU) */
};
extern const struct lcg_stat lcg_v1_stats[LCG_NSTATS];
extern const struct lcg_stat lcg_v2_stats[LCG_NSTATS];
/* v2: moves the daemon into base/NAME and hands res down to base/ROOT's
 * children; 0 or -errno, why set. */
int lcg_v2_setup(int base, const char *leaf, const char *root, unsigned res,
		 char *why, size_t n);

/* v2, at exit (its sandboxes' cgroups removed): back to base, the
 * controllers no longer handed down, the leaf removed. */
void lcg_v2_teardown(int base, const char *leaf, const char *root,
		     unsigned res);

/* Small file I/O on a cgroup directory. */
int lcg_write(int dfd, const char *name, const char *text);
int lcg_write_u64(int dfd, const char *name, uint64_t v);
/* Writes v to name unless old (NULL: a new cgroup) already had it. */
int lcg_update(int dfd, const char *name, const uint64_t *old, uint64_t v);

#endif
