/* Sets of paths, by hash: what the template's walk has already decided.
 * Private to the Linux backend (linux/walk.c). */
#ifndef SBX_LINUX_PATHSET_H
#define SBX_LINUX_PATHSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pathset {
	char **slot;
	size_t cap, n;
};

/* FNV-1a of s: the slot, and the walk's key for a path's link count. */
uint64_t pathset_hash(const char *s);
/* Adds a copy of s; 1 when new, 0 when already there, -ENOMEM. */
int pathset_add(struct pathset *ps, const char *s);
bool pathset_has(const struct pathset *ps, const char *s);
/* Drops s and every path below it; 0 or -ENOMEM (ps unchanged). */
int pathset_drop_tree(struct pathset *ps, const char *s);
void pathset_free(struct pathset *ps);

#endif
