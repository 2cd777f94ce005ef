/* Sets of paths, by hash (open addressing): what the template's walk has
 * decided (masked, protected, walked) and must not decide twice. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/pathset.h"

uint64_t
pathset_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Adds s; 1 when new, 0 when already there. */
int
pathset_add(struct pathset *ps, const char *s)
{
	size_t i;

	if (ps->n * 2 >= ps->cap) {
		struct pathset bigger = { 0 };

		bigger.cap = ps->cap ? ps->cap * 2 : 1024;
		bigger.slot = calloc(bigger.cap, sizeof(char *));
		if (!bigger.slot)
			return -ENOMEM;
		for (i = 0; i < ps->cap; i++)
			if (ps->slot[i]) {
				size_t j = pathset_hash(ps->slot[i]) & (bigger.cap - 1);

				while (bigger.slot[j])
					j = (j + 1) & (bigger.cap - 1);
				bigger.slot[j] = ps->slot[i];
			}
		bigger.n = ps->n;
		free(ps->slot);
		*ps = bigger;
	}
	for (i = pathset_hash(s) & (ps->cap - 1); ps->slot[i]; i = (i + 1) & (ps->cap - 1))
		if (!strcmp(ps->slot[i], s))
			return 0;
	if (!(ps->slot[i] = strdup(s)))
		return -ENOMEM;
	ps->n++;
	return 1;
}

void
pathset_free(struct pathset *ps)
{
	size_t i;

	for (i = 0; i < ps->cap; i++)
		free(ps->slot[i]);
	free(ps->slot);
}

bool
pathset_has(const struct pathset *ps, const char *s)
{
	size_t i;

	if (!ps->cap)
		return false;
	for (i = pathset_hash(s) & (ps->cap - 1); ps->slot[i]; i = (i + 1) & (ps->cap - 1))
		if (!strcmp(ps->slot[i], s))
			return true;
	return false;
}

/* Drops s and every path below it (a rebuild: only for a path that was
 * there, which is rare). */
int
pathset_drop_tree(struct pathset *ps, const char *s)
{
	struct pathset kept = { 0 };
	size_t i, n = strlen(s);
	int r = 0;

	for (i = 0; r >= 0 && i < ps->cap; i++) {
		const char *p = ps->slot[i];

		if (p && !(strncmp(p, s, n) == 0 &&
			   (p[n] == '\0' || p[n] == '/')))
			r = pathset_add(&kept, p);
	}
	if (r < 0) {
		pathset_free(&kept);
		return r;
	}
	pathset_free(ps);
	*ps = kept;
	return 0;
}
