/* Held sandbox templates: per workspace, a process that holds a user, mount
 * and pid namespace with the finished mount tree and makes the sandboxes
 * that join it, a few of them ahead of time (warm). Private to the Linux
 * backend. */
#ifndef SBX_LINUX_TEMPLATE_H
#define SBX_LINUX_TEMPLATE_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/linux/roots.h"
#include "daemon/sandbox.h"

struct sandbox_plan;
struct lcgroup;

/* What a template reports once built, in its shared state memfd. */
struct ltemplate_state {
	int32_t done;   /* 1 once the template finished (either way) */
	int32_t step;   /* 0 = built; else the failing linux_step */
	int32_t err;
	char detail[480]; /* what failed, "file: reason", or empty */
};

/* Shared with the template (a MAP_SHARED page it inherits): how far it
 * is with the file events of the workspace. A batch is counted started
 * before its events are read and done once their masks are in place, so
 * an empty event queue and started == done mean nothing is pending. */
struct ltemplate_shared {
	uint64_t started;
	uint64_t done;
	uint32_t watching;  /* the watches are in place */
	/* A later walk refused an ignore file (a FIFO put there, say): the
	 * template makes no new sandbox, and detail says why. */
	uint32_t broken;
	/* Directories walked but not watched: past LTEMPLATE_WATCH_MAX, or
	 * refused by the user's inotify limits (the instance is the user's). */
	uint32_t unwatched;
	/* The workspace or a writable tree the template holds was removed,
	 * moved or unmounted on the host (its watch said so): no sandbox of
	 * it sees the directory now at that name. */
	uint32_t gone;
	char detail[480];
};

/* Watches one template adds at most: the user's directories must not use
 * up even the user's own inotify budget through one workspace. */
#define LTEMPLATE_WATCH_MAX 100000

/* Warm sandboxes kept per template, and in all. Three: in a loop of
 * runs the one made when a run ends is taken two runs later, not at the
 * next (a sandbox takes about as long to make as a short run). */
#define LTEMPLATE_WARM 3
#define LTEMPLATE_WARM_MAX 8

/* A sandbox the template made (or is making) that has no job yet: its
 * status channel and go socket, the daemon's ends. */
struct ltemplate_warm {
	int status_fd;
	int go_fd;
	struct lcgroup *cg; /* its cgroups, or NULL */
};

struct ltemplate {
	char *key;
	char *workspace;
	bool landlock_log;
	bool ca;		/* its mounts add sbx's CA to the bundles */
	pid_t pid;
	int pidfd;          /* template init */
	int ready_fd;       /* read end; EOF once the template is done */
	int state_fd;       /* memfd holding struct ltemplate_state */
	int ctl_fd;         /* SEQPACKET: requests to the template */
	int inotify_fd;     /* the template's, polled only */
	struct ltemplate_shared *shared;
	unsigned users;     /* spawns in flight or running */
	bool ready;         /* built: warm sandboxes may be made */
	bool dead;          /* killed or exited; freed at the last put */
	bool stale;         /* a newer plan for its workspace exists: killed
			     * at the last put */
	struct ltemplate_warm warm[LTEMPLATE_WARM];
	unsigned nwarm;
	uint64_t last_used_ms;
	struct event *exit_ev, *ready_ev, *fill_ev;
	char *problem;      /* the failed build's detail, or NULL */
	struct linux_roots roots; /* what it was built on */
	struct sandbox_limits limits; /* the last run's: warm sandboxes'
				       * cgroups are made with them */
	dev_t layers_dev;   /* its home overlay's layers dir, 0: none */
	ino_t layers_ino;
	struct ltemplate *next;
};

/* The template for plan's workspace, started when there is none yet (the
 * build continues in the background; requests queue until it is done);
 * never one whose workspace, writable trees or home were replaced on the
 * host since it was started (linux/roots.c, and its own watch). A
 * new one makes the workspace's older templates stale: idle ones go at
 * once, busy ones when their last session ends, so they do not pile up. */
int ltemplate_get(const struct sandbox_plan *plan, struct ltemplate **out);
void ltemplate_put(struct ltemplate *t);
/* What made t's build fail, "file: reason" (a refused ignore file), or
 * NULL when nothing more than its step and errno is known. */
const char *ltemplate_problem(struct ltemplate *t);
/* Gives t back the network namespace of one of its sessions that ended
 * cleanly, through its proxy listener (linux/netns.c). */
void ltemplate_netns_return(struct ltemplate *t, int listener);
/* A sandbox of t for one job: a warm one (*warm true) or one asked for
 * now; the pool is topped up from the event loop afterwards. The caller
 * owns *status_fd, *go_fd and *cg (its cgroups, or NULL). */
int ltemplate_sandbox(struct ltemplate *t, int *status_fd, int *go_fd,
		      struct lcgroup **cg, bool *warm);
/* Asks t to handle every file event queued so far, then write one byte on
 * reply_fd (sent along; the caller keeps its copy). */
int ltemplate_sync(struct ltemplate *t, int reply_fd);
/* Asks t for its home overlay (linux/homeshare.c), sent on reply_fd
 * once t is built (the caller keeps its copy). */
int ltemplate_home(struct ltemplate *t, int reply_fd);
/* True when t has no file event queued or being handled: a sync would
 * find nothing to do. */
bool ltemplate_quiet(const struct ltemplate *t);
unsigned ltemplate_count(void);
/* Kills the templates of workspace ws (sbxctl reset: they hold its home
 * overlay) and waits until every killed template is gone; -EBUSY, killing
 * none, when one is in use. */
int ltemplate_retire(const char *ws);
/* Kills every template (daemon shutdown). */
void ltemplate_kill_all(void);

#endif
