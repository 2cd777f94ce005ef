/* The directories a held template was built on, and whether the names
 * still lead to them (linux/roots.c). Private to the Linux backend. */
#ifndef SBX_LINUX_ROOTS_H
#define SBX_LINUX_ROOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sandbox_plan;

struct linux_root_id {
	uint64_t ino;
	int64_t btime_sec;
	uint32_t btime_nsec;
	uint32_t dev_major, dev_minor;
	int32_t err;
};

struct linux_roots {
	struct linux_root_id *id; /* owned */
	size_t n;
};

/* Looks at plan p's roots now: what a template started for it holds. */
int linux_roots_record(const struct sandbox_plan *p, struct linux_roots *out);
/* True when a root of p is no longer what r recorded (one statx each). */
bool linux_roots_changed(const struct sandbox_plan *p,
			 const struct linux_roots *r);
void linux_roots_free(struct linux_roots *r);
/* The i-th root's path (the workspace first, the home last), or NULL. */
const char *linux_roots_path(const struct sandbox_plan *p, size_t i);

#endif
