/* cgroup v2: the daemon's own leaf and the sandboxes' parent below its
 * cgroup, then per sandbox memory.max, memory.high, memory.swap.max 0,
 * memory.oom.group (an OOM kills the whole sandbox), pids.max, cpu.weight
 * and io.weight; read back memory.peak, cpu.stat and the events files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/cgroup.h"

int
lcg_v2_limits(int dfd, unsigned res, const struct sandbox_limits *old,
	      const struct sandbox_limits *l)
{
	int r;

	if ((res & LCG_MEMORY) && (!old || old->memory != l->memory)) {
		if ((r = lcg_write_u64(dfd, "memory.max", l->memory)) < 0 ||
		    (r = lcg_write_u64(dfd, "memory.high",
				       l->memory - l->memory / 8)) < 0)
			return r;
		/* Absent without swap accounting: then there is no swap
		 * to limit. */
		if ((r = lcg_write(dfd, "memory.swap.max", "0")) < 0 &&
		    r != -ENOENT)
			return r;
		if (!old)
			lcg_write(dfd, "memory.oom.group", "1");
	}
	if ((res & LCG_PIDS) && (r = lcg_update(dfd, "pids.max",
						old ? &old->pids : NULL,
						l->pids)) < 0)
		return r;
	if ((res & LCG_CPU) && (r = lcg_update(dfd, "cpu.weight",
					       old ? &old->cpu_weight : NULL,
					       l->cpu_weight)) < 0)
		return r;
	if ((res & LCG_IO) && (!old || old->cpu_weight != l->cpu_weight))
		lcg_write_u64(dfd, "io.weight", l->cpu_weight);
	return 0;
}

/* memory.peak: Linux 5.19. */
const struct lcg_stat lcg_v2_stats[LCG_NSTATS] = {
	[LCG_STAT_PEAK] = { LCG_MEMORY, "memory.peak", NULL, 1 },
	[LCG_STAT_OOM] = { LCG_MEMORY, "memory.events", "oom_kill", 1 },
	[LCG_STAT_PIDS] = { LCG_PIDS, "pids.events", "max", 1 },
	[LCG_STAT_CPU] = { LCG_CPUACCT, "cpu.stat", "usage_usec", 1 },
};

/* "+memory +pids " (sign '+') for cgroup.subtree_control; "" for none. */
static void
controllers_text(unsigned res, char sign, char *buf, size_t n)
{
	static const struct {
		unsigned res;
		const char *name;
	} c[] = { { LCG_MEMORY, "memory" }, { LCG_PIDS, "pids" },
		  { LCG_CPU, "cpu" }, { LCG_IO, "io" } };
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(c) / sizeof(c[0]) && k < n; i++)
		if (res & c[i].res)
			k += (size_t)snprintf(buf + k, n - k, "%c%s ", sign,
					      c[i].name);
}

int
lcg_v2_setup(int base, const char *leaf, const char *root, unsigned res,
	     char *why, size_t n)
{
	char ctl[64];
	int fd, r;

	controllers_text(res, '+', ctl, sizeof(ctl));
	/* No process may stay in a cgroup that hands controllers down: the
	 * daemon moves to a leaf of its own. */
	if (mkdirat(base, leaf, 0755) < 0 && errno != EEXIST) {
		snprintf(why, n, "mkdir %s: %s", leaf, strerror(errno));
		return -errno;
	}
	fd = openat(base, leaf, O_DIRECTORY | O_CLOEXEC);
	r = fd < 0 ? -errno : lcg_write(fd, "cgroup.procs", "0");
	if (fd >= 0)
		close(fd);
	if (r < 0) {
		snprintf(why, n, "moving sbxd to %s: %s", leaf, strerror(-r));
		return r;
	}
	if (ctl[0] && (r = lcg_write(base, "cgroup.subtree_control",
				     ctl)) < 0) {
		snprintf(why, n, "enabling %sin its cgroup: %s (other "
			 "processes share it)", ctl, strerror(-r));
		return r;
	}
	if (mkdirat(base, root, 0755) < 0 && errno != EEXIST) {
		snprintf(why, n, "mkdir %s: %s", root, strerror(errno));
		return -errno;
	}
	fd = openat(base, root, O_DIRECTORY | O_CLOEXEC);
	r = fd < 0 ? -errno :
	    ctl[0] ? lcg_write(fd, "cgroup.subtree_control", ctl) : 0;
	if (fd >= 0)
		close(fd);
	if (r < 0)
		snprintf(why, n, "enabling %sin %s: %s", ctl, root,
			 strerror(-r));
	return r;
}

void
lcg_v2_teardown(int base, const char *leaf, const char *root, unsigned res)
{
	char ctl[64];

	unlinkat(base, root, AT_REMOVEDIR);
	controllers_text(res, '-', ctl, sizeof(ctl));
	if (ctl[0])
		lcg_write(base, "cgroup.subtree_control", ctl);
	/* Refused while base hands controllers down that someone else
	 * enabled: then the leaf stays, for the service manager. */
	if (lcg_write(base, "cgroup.procs", "0") == 0)
		unlinkat(base, leaf, AT_REMOVEDIR);
}
