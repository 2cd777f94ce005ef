/* Where the daemon's cgroups are: /proc/self/cgroup and mountinfo read into
 * one hierarchy per resource (cgroup v2's unified one, else a v1 one), and
 * the small files the kernel reports counters in. Pure: no syscalls. */
#ifndef SBX_LINUX_CGROUP_PARSE_H
#define SBX_LINUX_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a sandbox's cgroup bounds or measures. */
enum lcg_res {
	LCG_MEMORY = 1u << 0,
	LCG_PIDS = 1u << 1,
	LCG_CPU = 1u << 2,     /* the weight */
	LCG_CPUACCT = 1u << 3, /* CPU time (v2: cpu.stat, always there) */
	LCG_IO = 1u << 4,
	LCG_ALL = (1u << 5) - 1,
};

#define LCG_PATH_MAX 512
#define LCG_MAX_HIER 8

/* One mounted hierarchy this process is in. */
struct lcg_hier {
	int version;            /* 1 or 2 */
	unsigned res;           /* v1: what it is mounted with; v2: 0 until
				   its cgroup.controllers is read */
	char dir[LCG_PATH_MAX]; /* our cgroup there, as a host path */
};

struct lcg_layout {
	struct lcg_hier h[LCG_MAX_HIER];
	int n;
};

/*
 * Reads /proc/self/cgroup (cg) and /proc/self/mountinfo (mi) into out:
 * each v1 hierarchy mounted with a controller of enum lcg_res, and the
 * unified (v2) one, each with the directory of this process's cgroup
 * (mount point + path below the mount's root). A hierarchy whose
 * cgroup is not below its mount's root (another namespace's) is left
 * out. 0, or -EINVAL when nothing usable is found.
 */
int lcg_layout_parse(const char *cg, size_t cglen, const char *mi,
		     size_t milen, struct lcg_layout *out);

/* cgroup.controllers / cgroup.subtree_control words -> enum lcg_res. */
unsigned lcg_controllers_parse(const char *text, size_t len);

/* The value of key in a "key value" per line file (memory.events,
 * pids.events, cpu.stat, memory.oom_control); 0 and *v, or -ENOENT. */
int lcg_keyed_get(const char *text, size_t len, const char *key,
		  uint64_t *v);

/* A file of one unsigned number ("max" is UINT64_MAX); 0 or -EINVAL. */
int lcg_u64_parse(const char *text, size_t len, uint64_t *v);

#endif
