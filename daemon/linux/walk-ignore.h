/* Reading a directory's ignore files for the template's walk. Private to
 * the Linux backend (linux/walk.c). */
#ifndef SBX_LINUX_WALK_IGNORE_H
#define SBX_LINUX_WALK_IGNORE_H

#include <stdint.h>

struct fsplan;
struct ignore_set;

/* (Re)reads the ignore files of directory dfd (rel: its path relative to
 * the tree root) into set; present has bit i set when the i-th name was
 * listed (names past the 64th are always tried). A file that is refused
 * or does not parse fails the walk (-errno; linux_walk_refused() says
 * which and why): a broken deny list must not fail open. */
int linux_walk_ignore_read(const struct fsplan *fs, const char *root,
			   struct ignore_set *set, int dfd, const char *rel,
			   uint64_t present);

/* Forgets the last refusal (a new walk or rescan starts). */
void linux_walk_ignore_forget(void);

#endif
