/* Masks: a masked file becomes an unopenable device node, a masked
 * directory an empty, mode 000, read-only tmpfs; each mounted through the
 * fd that looked at its path. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"

/* A mask of each kind, once mounted (its fd refers to that mount): the
 * later ones are clones of it, which keep its attributes. */
static int mask_made[2] = { -1, -1 };

/* A new mask, detached: for a directory an empty, mode 000, read-only
 * tmpfs, for a file a read-only, nodev bind of /dev/null. */
static int
new_mask(bool dir, bool *first)
{
	int fd, r;

	if (mask_made[dir] >= 0) {
		fd = open_tree(mask_made[dir], "", OPEN_TREE_CLONE |
			       OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		*first = false;
		if (fd >= 0)
			return fd;
		/* That mount is gone: the file or directory it covered was
		 * removed or replaced on the host, which detaches it, and a
		 * detached mount cannot be cloned. Start from a new one. */
		close(mask_made[dir]);
		mask_made[dir] = -1;
	}
	*first = true;
	if (dir)
		return lmount_new_fs("tmpfs", "0000", MOUNT_ATTR_RDONLY |
			      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			      MOUNT_ATTR_NOEXEC);
	fd = lmount_clone_tree("/dev/null", 0);
	if (fd >= 0 && (r = lmount_set_attr(fd, "", AT_EMPTY_PATH,
				     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV |
				     MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NOSUID,
				     0)) < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* A masked file becomes an unopenable device node (a nodev bind of
 * /dev/null); a masked directory an empty, mode 000, read-only tmpfs.
 * Either way content and listing fail, and writes go nowhere. */
static int
attach_mask(const char *path, bool dir)
{
	bool first;
	int fd, r;

	if ((fd = new_mask(dir, &first)) < 0)
		return fd;
	r = lmount_attach(fd, path);
	if (r == 0 && first)
		mask_made[dir] = fd; /* now that mount */
	else
		close(fd);
	return r;
}

/* Looked at and mounted onto through one fd: the mask covers what was
 * looked at. */
int
linux_mount_mask(const char *path)
{
	struct stat st;
	bool first;
	int to, fd, r;

	to = linux_userpath_policy(path, O_NOFOLLOW);
	if (to < 0)
		return to == -ENOENT ? 0 : to;
	if (fstat(to, &st) < 0 || S_ISLNK(st.st_mode)) {
		/* the walk never follows links; its target is masked */
		r = S_ISLNK(st.st_mode) ? 0 : -errno;
		close(to);
		return r;
	}
	if ((fd = new_mask(S_ISDIR(st.st_mode), &first)) < 0) {
		close(to);
		return fd;
	}
	r = linux_userpath_move(fd, to); /* closes to */
	if (r == 0 && first)
		mask_made[S_ISDIR(st.st_mode)] = fd; /* now that mount */
	else
		close(fd);
	return r;
}

int
linux_mount_mask_as(const char *path, bool dir)
{
	return attach_mask(path, dir) == 0 ? 0 : linux_mount_mask(path);
}
