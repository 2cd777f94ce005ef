/* cgroup v1 controllers, one hierarchy each (hosts where the controllers
 * are bound to v1): memory.limit_in_bytes with memsw (no swap beyond it),
 * pids.max, cpu.shares, blkio.weight where the I/O scheduler has one;
 * read back max_usage_in_bytes, cpuacct.usage, oom_control's oom_kill and
 * pids.events. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "daemon/linux/cgroup.h"

/* v2's weight 100 is v1's 1024 shares. */
static uint64_t
shares(uint64_t weight)
{
	uint64_t s = weight * 1024 / 100;

	return s < 2 ? 2 : s;
}

static int
memory_limits(int dfd, const struct sandbox_limits *old,
	      const struct sandbox_limits *l)
{
	int r;

	if (old && old->memory == l->memory)
		return 0;
	/* memsw may never be below the limit: raise it first, lower it
	 * last. A kernel without swap accounting has no memsw. */
	if (old && l->memory > old->memory &&
	    (r = lcg_write_u64(dfd, "memory.memsw.limit_in_bytes",
			       l->memory)) < 0 && r != -ENOENT)
		return r;
	if ((r = lcg_write_u64(dfd, "memory.limit_in_bytes", l->memory)) < 0)
		return r;
	if ((r = lcg_write_u64(dfd, "memory.memsw.limit_in_bytes",
			       l->memory)) < 0 && r != -ENOENT)
		return r;
	/* memory.high's role: reclaimed towards it under pressure. */
	lcg_write_u64(dfd, "memory.soft_limit_in_bytes",
		      l->memory - l->memory / 8);
	return 0;
}

int
lcg_v1_limits(int dfd, unsigned res, const struct sandbox_limits *old,
	      const struct sandbox_limits *l)
{
	uint64_t w;
	int r;

	if ((res & LCG_MEMORY) && (r = memory_limits(dfd, old, l)) < 0)
		return r;
	if ((res & LCG_PIDS) && (r = lcg_update(dfd, "pids.max",
						old ? &old->pids : NULL,
						l->pids)) < 0)
		return r;
	if ((res & LCG_CPU) && (!old || old->cpu_weight != l->cpu_weight) &&
	    (r = lcg_write_u64(dfd, "cpu.shares", shares(l->cpu_weight))) < 0)
		return r;
	if ((res & LCG_IO) && (!old || old->cpu_weight != l->cpu_weight)) {
		/* 10-1000, default 500; absent without CFQ or BFQ. */
		w = l->cpu_weight * 5;
		w = w < 10 ? 10 : w > 1000 ? 1000 : w;
		if (lcg_write_u64(dfd, "blkio.weight", w) == -ENOENT)
			lcg_write_u64(dfd, "blkio.bfq.weight", w);
	}
	return 0;
}

int
lcg_v1_oom_watch(int dfd, int efd, int ofd)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d %d", efd, ofd);
	return lcg_write(dfd, "cgroup.event_control", buf);
}

const struct lcg_stat lcg_v1_stats[LCG_NSTATS] = {
	[LCG_STAT_PEAK] = { LCG_MEMORY, "memory.max_usage_in_bytes", NULL, 1 },
	[LCG_STAT_OOM] = { LCG_MEMORY, "memory.oom_control", "oom_kill", 1 },
	[LCG_STAT_PIDS] = { LCG_PIDS, "pids.events", "max", 1 },
	[LCG_STAT_CPU] = { LCG_CPUACCT, "cpuacct.usage", NULL, 1000 },
};
