/* What the daemon reads of a running Linux sandbox from outside: its
 * cgroup's use and OOM fd (signals are linux/exec.c's). */
#include "daemon/linux/cgroup.h"
#include "daemon/sandbox.h"

void
sandbox_usage(const struct sandbox_proc *p, struct sandbox_usage *u)
{
	lcgroup_usage(p->cgroup, u);
}

int
sandbox_oom_fd(const struct sandbox_proc *p)
{
	return lcgroup_oom_fd(p->cgroup);
}
