/* Files with hard links outside the writable trees: each bound read-only
 * onto itself, alone, so a write cannot change the outside copy. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/policy/fsplan.h"

/* A file with links outside the writable trees, the same way, but alone:
 * nothing is mounted below a file (a mask on it is what the path names),
 * and a recursive clone looks at every mount of the workspace's tree, so
 * 10,000 of them would cost a hundred times more. */
int
lmount_read_only_file(const char *path)
{
	return lmount_bind_self_as(path, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				  MOUNT_ATTR_NODEV, true, 0);
}

/* The deepest writable tree path is in: its index, or -1. */
static int
tree_of(const struct fsplan_list *trees, const char *path)
{
	size_t i, n, best = 0;
	int t = -1;

	for (i = 0; i < trees->n && i < MAX_WRITE; i++) {
		n = strlen(trees->v[i]);
		if (!strncmp(path, trees->v[i], n) && path[n] == '/' &&
		    n >= best) {
			t = (int)i;
			best = n;
		}
	}
	return t;
}

/* One file of lmount_read_only_links: cloned from src (its tree's mount alone)
 * at rel, attached onto what path names when that is the same file. 1:
 * not the same (another mount over it, or changed meanwhile). */
static int
read_only_link(int src, const char *rel, const char *path)
{
	struct stat a, b;
	int t, fd, r = 0;

	if ((t = linux_userpath_policy(path, O_NOFOLLOW)) < 0)
		return t == -ENOENT ? 0 : t;
	fd = open_tree(src, rel, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
		       AT_SYMLINK_NOFOLLOW);
	if (fd < 0 || fstat(fd, &a) < 0 || fstat(t, &b) < 0 ||
	    !S_ISREG(a.st_mode) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		r = 1;
	if (r == 0)
		r = lmount_set_attr(fd, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY |
				    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0);
	if (r == 0)
		r = linux_userpath_move(fd, t); /* closes t */
	else
		close(t);
	if (fd >= 0)
		close(fd);
	return r;
}

/* The build's files with links outside the writable trees (linux/walk.c),
 * each bound read-only onto itself, cloned from a clone of its tree's
 * mount alone, made first: a clone from the tree itself has the kernel
 * look at every mount on it (has_locked_children), which made 10,000
 * such binds quadratic (about 2 s). What that clone does not reach as the
 * same file goes the ordinary way. */
int
lmount_read_only_links(const struct fsplan_list *trees,
		       const struct fsplan_list *l)
{
	int src[MAX_WRITE], t, k, fd, r = 0;
	size_t i;

	for (k = 0; k < MAX_WRITE; k++)
		src[k] = -1;
	for (i = 0; r >= 0 && i < l->n; i++) {
		k = tree_of(trees, l->v[i]);
		if (k >= 0 && src[k] < 0 &&
		    (t = linux_userpath_policy(trees->v[k], 0)) >= 0) {
			fd = open_tree(t, "", OPEN_TREE_CLONE |
				       OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
			src[k] = fd < 0 ? -1 : fd;
			close(t);
		}
		r = k >= 0 && src[k] >= 0 ?
			read_only_link(src[k], l->v[i] +
				       strlen(trees->v[k]) + 1, l->v[i]) : 1;
		if (r == 1)
			r = lmount_read_only_file(l->v[i]);
	}
	for (k = 0; k < MAX_WRITE; k++)
		if (src[k] >= 0)
			close(src[k]);
	return r < 0 ? r : 0;
}
