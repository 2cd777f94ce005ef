/* Held sandbox templates: per workspace, a process that holds a user, mount
 * and pid namespace with the finished mount tree, so each spawn only joins
 * it. Private to the Linux backend. */
#ifndef SBX_LINUX_TEMPLATE_H
#define SBX_LINUX_TEMPLATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct sandbox_plan;

/* What a template reports once built, in its shared state memfd. */
struct ltemplate_state {
	int32_t done;   /* 1 once the template finished (either way) */
	int32_t step;   /* 0 = built; else the failing linux_step */
	int32_t err;
};

struct ltemplate {
	char *key;
	char *workspace;
	pid_t pid;
	int pidfd;          /* template init */
	int ready_fd;       /* read end; EOF once the template is done */
	int state_fd;       /* memfd holding struct ltemplate_state */
	int ctl_fd;         /* SEQPACKET: sync requests to the template */
	unsigned users;     /* spawns in flight or running */
	bool dead;          /* killed or exited; freed at the last put */
	bool stale;         /* a newer plan for its workspace exists: killed
			     * at the last put */
	uint64_t last_used_ms;
	struct event *exit_ev;
	struct ltemplate *next;
};

/* The template for plan's workspace, started when there is none yet (the
 * build continues in the background; spawns wait for it themselves). A new
 * one makes the workspace's older templates stale: idle ones go at once,
 * busy ones when their last session ends, so they do not pile up. */
int ltemplate_get(const struct sandbox_plan *plan, struct ltemplate **out);
void ltemplate_put(struct ltemplate *t);
unsigned ltemplate_count(void);
/* Kills the templates of workspace ws (sbxctl reset: they hold its home
 * overlay); -EBUSY, killing none, when one is in use. */
int ltemplate_retire(const char *ws);
/* Kills every template (daemon shutdown). */
void ltemplate_kill_all(void);

#endif
