/* The walk's link counts (daemon/linux/links.c): a file is outside when
 * it has more links than distinct paths were seen, whatever is seen twice
 * (a directory walked again) and however large the table grows. */
#include <sys/stat.h>

#include "daemon/linux/walk.h"
#include "unit.h"

static struct stat
file(dev_t dev, ino_t ino, nlink_t nlink)
{
	struct stat st = { .st_dev = dev, .st_ino = ino, .st_nlink = nlink };

	return st;
}

static void
counts(void)
{
	struct linux_links l = { 0 };
	struct stat a = file(1, 10, 2), b = file(1, 11, 1), c = file(2, 10, 3);

	CHECK(!linux_links_outside(&l, 1, 10)); /* empty table */
	CHECK_INT(linux_links_see(&l, &a, 100), 0);
	CHECK(linux_links_outside(&l, 1, 10));  /* one of two links seen */
	CHECK_INT(linux_links_see(&l, &a, 100), 0); /* the same path again */
	CHECK(linux_links_outside(&l, 1, 10));
	CHECK_INT(linux_links_see(&l, &a, 101), 0); /* the other link */
	CHECK(!linux_links_outside(&l, 1, 10));
	CHECK_INT(linux_links_see(&l, &a, 101), 0);
	a.st_nlink = 3; /* a link made elsewhere, seen at a new look */
	CHECK_INT(linux_links_see(&l, &a, 100), 0);
	CHECK(linux_links_outside(&l, 1, 10));
	CHECK_INT(linux_links_see(&l, &b, 200), 0);
	CHECK(!linux_links_outside(&l, 1, 11));
	/* Same inode number on another device: its own entry. */
	CHECK_INT(linux_links_see(&l, &c, 100), 0);
	CHECK_INT(linux_links_see(&l, &c, 101), 0);
	CHECK(linux_links_outside(&l, 2, 10));
	CHECK(!linux_links_outside(&l, 3, 10)); /* never seen */
	linux_links_free(&l);
}

/* Removals: a path taken off its inode's count, what is left said; a
 * path that names another file now; an inode alone again. */
static void
removals(void)
{
	struct linux_links l = { 0 };
	struct stat a = file(1, 10, 3), b = file(1, 20, 1);
	dev_t dev = 0;
	ino_t ino = 0;

	CHECK_INT(linux_links_see(&l, &a, 100), 0);
	CHECK_INT(linux_links_see(&l, &a, 101), 0);
	CHECK_INT(linux_links_see(&l, &a, 102), 0);
	CHECK(!linux_links_outside(&l, 1, 10)); /* three links, all here */
	/* One moved out: two left, the file still has three. */
	CHECK(linux_links_gone(&l, 102, &dev, &ino));
	CHECK_INT(dev, 1);
	CHECK_INT(ino, 10);
	CHECK(linux_links_outside(&l, 1, 10));
	CHECK(!linux_links_gone(&l, 102, &dev, &ino)); /* gone already */
	CHECK(!linux_links_gone(&l, 999, &dev, &ino)); /* never seen */
	/* Back under its name: counted again. */
	CHECK_INT(linux_links_see(&l, &a, 102), 0);
	CHECK(!linux_links_outside(&l, 1, 10));
	/* The first path removed: the count as last seen says two here of
	 * three (the caller looks at the file again), and seen again. */
	CHECK(linux_links_gone(&l, 100, &dev, &ino));
	CHECK(linux_links_outside(&l, 1, 10));
	CHECK_INT(linux_links_see(&l, &a, 100), 0);
	CHECK(!linux_links_outside(&l, 1, 10));
	/* Path 101 now names another file: the first loses it. */
	CHECK_INT(linux_links_see(&l, &b, 101), 0);
	CHECK(linux_links_outside(&l, 1, 10));
	CHECK(!linux_links_outside(&l, 1, 20));
	/* Every link removed: nothing left to make read-only. */
	CHECK(linux_links_gone(&l, 100, &dev, &ino)); /* 102 is left */
	CHECK(!linux_links_gone(&l, 102, &dev, &ino));
	/* An inode alone when seen again: its old paths no longer count
	 * (a number used again by a new file). */
	a.st_nlink = 1;
	CHECK_INT(linux_links_see(&l, &a, 300), 0);
	a.st_nlink = 2;
	CHECK_INT(linux_links_see(&l, &a, 301), 0);
	CHECK(!linux_links_outside(&l, 1, 10));
	a.st_nlink = 3;
	CHECK_INT(linux_links_see(&l, &a, 302), 0);
	CHECK(!linux_links_outside(&l, 1, 10));
	a.st_nlink = 4;
	CHECK_INT(linux_links_see(&l, &a, 302), 0);
	CHECK(linux_links_outside(&l, 1, 10));
	linux_links_free(&l);
}

/* Many files, each linked twice under the trees, the table growing
 * between their sightings. */
static void
many(void)
{
	struct linux_links l = { 0 };
	struct stat st;
	unsigned i, bad = 0;

	for (i = 0; i < 50000; i++) {
		st = file(7, i, 2);
		CHECK_INT(linux_links_see(&l, &st, i * 2), 0);
	}
	for (i = 0; i < 50000; i++)
		bad += !linux_links_outside(&l, 7, i);
	CHECK_INT(bad, 0);
	for (i = 0; i < 50000; i++) {
		st = file(7, i, 2);
		CHECK_INT(linux_links_see(&l, &st, i * 2 + 1), 0);
	}
	for (i = 0; i < 50000; i++)
		bad += linux_links_outside(&l, 7, i);
	CHECK_INT(bad, 0);
	/* One link of each removed, the table keeping its gone entries. */
	for (i = 0; i < 50000; i++) {
		dev_t d;
		ino_t n;

		bad += !linux_links_gone(&l, i * 2, &d, &n) || n != i;
	}
	CHECK_INT(bad, 0);
	for (i = 0; i < 50000; i++)
		bad += !linux_links_outside(&l, 7, i);
	CHECK_INT(bad, 0);
	linux_links_free(&l);
}

int
main(void)
{
	counts();
	removals();
	many();
	UNIT_DONE();
}
