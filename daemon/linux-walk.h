/* The workspace walk of a template build: which existing paths under the
 * writable trees the policy's globs and the ignore files mask or protect. */
#ifndef SBX_LINUX_WALK_H
#define SBX_LINUX_WALK_H

#include "daemon/fsplan.h"

/* Bounds on one walk: a workspace beyond them fails the build visibly
 * rather than leaving part of it unmasked. */
#define WALK_MAX_ENTRIES 1000000
#define WALK_MAX_DEPTH 256

struct walk_result {
	struct fsplan_list deny;   /* unreadable */
	struct fsplan_list ro;     /* read-only */
};

/* Walks every writable tree of fs. Other hard links of a masked file are
 * masked too (a mask is by file, not by name). */
int linux_walk(const struct fsplan *fs, struct walk_result *out);
void linux_walk_free(struct walk_result *r);

#endif
