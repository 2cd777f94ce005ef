/* The link counts a template's walk sees under the writable trees: a
 * regular file with more links than the walk met there has one elsewhere
 * (a package store's, cp -al, a planted link), which a write through the
 * workspace would change too, so the walk makes it read-only. Three
 * tables of path hashes: per inode its first path and how many were
 * seen; per (inode, path) the further ones, so walking a directory again
 * counts nothing twice; per path its inode, so a removal (inotify names
 * only the path) takes its path off its inode's count. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/walk.h"

enum { FREE, LIVE, GONE };          /* GONE: a removed key, probed past */
enum key { BY_INODE, BY_PAIR, BY_PATH };

struct ilink {
	uint64_t dev, ino, ph; /* the key's parts (BY_PATH: dev, ino too) */
	uint32_t n, nlink;     /* BY_INODE: paths seen, links it has */
	uint16_t state;
	uint16_t first_gone;   /* BY_INODE: its first path was removed */
};

static uint64_t
mix(enum key k, uint64_t dev, uint64_t ino, uint64_t ph)
{
	uint64_t h = k == BY_PATH ? 0 : (dev * 0x9e3779b97f4a7c15ull) ^ ino;

	h = (h ^ (k == BY_INODE ? 0 : ph)) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static bool
match(enum key k, const struct ilink *e, uint64_t dev, uint64_t ino,
      uint64_t ph)
{
	if (k == BY_PATH)
		return e->ph == ph;
	return e->dev == dev && e->ino == ino && (k == BY_INODE || e->ph == ph);
}

/* The slot of the key: its entry (live or gone), or a free one. */
static struct ilink *
slot(struct linux_links_tab *t, enum key k, uint64_t dev, uint64_t ino,
     uint64_t ph)
{
	size_t i = mix(k, dev, ino, ph) & (t->cap - 1);
	struct ilink *e;

	for (;; i = (i + 1) & (t->cap - 1)) {
		e = &t->v[i];
		if (e->state == FREE || match(k, e, dev, ino, ph))
			return e;
	}
}

/* The live entry of the key, or NULL. */
static struct ilink *
find(struct linux_links_tab *t, enum key k, uint64_t dev, uint64_t ino,
     uint64_t ph)
{
	struct ilink *e;

	if (!t->cap)
		return NULL;
	e = slot(t, k, dev, ino, ph);
	return e->state == LIVE ? e : NULL;
}

/* Twice as large (gone entries left behind), once 3/4 full. */
static int
grow(struct linux_links_tab *t, enum key k)
{
	struct linux_links_tab big = { .cap = t->cap ? t->cap * 2 : 4096 };
	size_t i;

	if (!(big.v = calloc(big.cap, sizeof(*big.v))))
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->v[i].state == LIVE) {
			*slot(&big, k, t->v[i].dev, t->v[i].ino,
			      t->v[i].ph) = t->v[i];
			big.n++;
		}
	free(t->v);
	*t = big;
	return 0;
}

/* The live entry of the key, made (zeroed but for the key) when it was
 * not. */
static struct ilink *
get(struct linux_links_tab *t, enum key k, uint64_t dev, uint64_t ino,
    uint64_t ph, bool *made)
{
	struct ilink *e;

	if (t->n * 4 >= t->cap * 3 && grow(t, k) < 0)
		return NULL;
	e = slot(t, k, dev, ino, ph);
	*made = e->state != LIVE;
	if (*made) {
		if (e->state == FREE)
			t->n++;
		*e = (struct ilink){ .dev = dev, .ino = ino, .ph = ph,
				     .state = LIVE };
	}
	return e;
}

/* Path ph no longer names inode (dev, ino): off its count. Its entry,
 * when that path counted. */
static struct ilink *
drop(struct linux_links *l, uint64_t dev, uint64_t ino, uint64_t ph)
{
	struct ilink *e = find(&l->inodes, BY_INODE, dev, ino, 0), *q;

	if (!e)
		return NULL;
	if (e->ph == ph && !e->first_gone)
		e->first_gone = 1;
	else if ((q = find(&l->pairs, BY_PAIR, dev, ino, ph)))
		q->state = GONE;
	else
		return NULL;
	e->n--;
	return e;
}

bool
linux_links_gone(struct linux_links *l, uint64_t ph, dev_t *dev, ino_t *ino)
{
	struct ilink *p = find(&l->paths, BY_PATH, 0, 0, ph), *e;

	if (!p)
		return false;
	p->state = GONE;
	e = drop(l, p->dev, p->ino, ph);
	*dev = (dev_t)p->dev;
	*ino = (ino_t)p->ino;
	/* Links left here, fewer than it had: one may be outside now (a
	 * link moved out), or the one removed was the only other. */
	return e && e->n > 0 && e->nlink > e->n;
}

int
linux_links_see(struct linux_links *l, const struct stat *st, uint64_t ph)
{
	struct ilink *e, *p;
	bool made;

	if (!(p = get(&l->paths, BY_PATH, 0, 0, ph, &made)))
		return -ENOMEM;
	/* Another file there now (replaced unseen): the old one's count
	 * loses that path. */
	if (!made && (p->dev != (uint64_t)st->st_dev ||
		      p->ino != (uint64_t)st->st_ino))
		drop(l, p->dev, p->ino, ph);
	p->dev = st->st_dev; /* what is at that path now */
	p->ino = st->st_ino;
	if (!(e = get(&l->inodes, BY_INODE, st->st_dev, st->st_ino, 0,
		      &made)))
		return -ENOMEM;
	if (made || st->st_nlink == 1) {
		/* New, or alone here whatever was counted before (an inode
		 * number used again, paths renamed away unseen). */
		e->ph = ph;
		e->n = 1;
		e->first_gone = 0;
	} else if (e->ph == ph) {
		if (e->first_gone)
			e->n++;
		e->first_gone = 0;
	} else {
		if (!get(&l->pairs, BY_PAIR, st->st_dev, st->st_ino, ph,
			 &made))
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
	struct ilink *e = find(&l->inodes, BY_INODE, dev, ino, 0);

	return e && e->nlink > e->n;
}

void
linux_links_free(struct linux_links *l)
{
	free(l->inodes.v);
	free(l->pairs.v);
	free(l->paths.v);
	memset(l, 0, sizeof(*l));
}
