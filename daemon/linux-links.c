/* The link counts a template's walk sees under the writable trees: a
 * regular file with more links than the walk met there has one elsewhere
 * (a package store's, cp -al, a planted link), which a write through the
 * workspace would change too, so the walk makes it read-only. One entry
 * per inode (the first path's hash), one more per further path of a file
 * with several links, so walking a directory again counts nothing twice. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/linux-walk.h"

struct ilink {
	uint64_t dev, ino, ph; /* ph: a path's hash (for paths: the key) */
	uint32_t n, nlink;     /* paths seen, links the inode has */
	uint32_t used;
};

static uint64_t
mix(uint64_t dev, uint64_t ino, uint64_t ph)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ull) ^ ino;

	h = (h ^ ph) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* The slot of key (ph part of it when bypath), empty if absent. */
static struct ilink *
slot(struct linux_links_tab *t, uint64_t dev, uint64_t ino, uint64_t ph,
     bool bypath)
{
	size_t i = mix(dev, ino, bypath ? ph : 0) & (t->cap - 1);
	struct ilink *e;

	for (;; i = (i + 1) & (t->cap - 1)) {
		e = &t->v[i];
		if (!e->used || (e->dev == dev && e->ino == ino &&
				 (!bypath || e->ph == ph)))
			return e;
	}
}

static int
grow(struct linux_links_tab *t, bool bypath)
{
	struct linux_links_tab big = { .cap = t->cap ? t->cap * 2 : 4096 };
	size_t i;

	if (!(big.v = calloc(big.cap, sizeof(*big.v))))
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->v[i].used)
			*slot(&big, t->v[i].dev, t->v[i].ino, t->v[i].ph,
			      bypath) = t->v[i];
	big.n = t->n;
	free(t->v);
	*t = big;
	return 0;
}

/* The entry of key, made (zeroed but for the key) when new. */
static struct ilink *
get(struct linux_links_tab *t, uint64_t dev, uint64_t ino, uint64_t ph,
    bool bypath, bool *made)
{
	struct ilink *e;

	if (t->n * 2 >= t->cap && grow(t, bypath) < 0)
		return NULL;
	e = slot(t, dev, ino, ph, bypath);
	*made = !e->used;
	if (*made) {
		*e = (struct ilink){ .dev = dev, .ino = ino, .ph = ph,
				     .used = 1 };
		t->n++;
	}
	return e;
}

int
linux_links_see(struct linux_links *l, const struct stat *st, uint64_t ph)
{
	struct ilink *e, *p;
	bool made;

	if (!(e = get(&l->inodes, st->st_dev, st->st_ino, ph, false, &made)))
		return -ENOMEM;
	if (made)
		e->n = 1;
	else if (e->ph != ph) {
		/* A further path (or the first again, after a rename). */
		if (!(p = get(&l->paths, st->st_dev, st->st_ino, ph, true,
			      &made)))
			return -ENOMEM;
		if (made)
			e->n++;
	}
	e->nlink = (uint32_t)st->st_nlink;
	return 0;
}

bool
linux_links_outside(struct linux_links *l, dev_t dev, ino_t ino)
{
	struct ilink *e;

	if (!l->inodes.cap)
		return false;
	e = slot(&l->inodes, dev, ino, 0, false);
	return e->used && e->nlink > e->n;
}

void
linux_links_free(struct linux_links *l)
{
	free(l->inodes.v);
	free(l->paths.v);
	memset(l, 0, sizeof(*l));
}
