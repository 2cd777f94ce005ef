/* Removes a directory tree made inside sandboxes (a home layer, a temp
 * dir) from the daemon, iteratively: any depth, one directory fd at a
 * time, no symbolic link followed, never leaving the file system. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/rmtree.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Unlinks every entry of dfd that is not a directory; *sub is the name of
 * a directory still in it (malloc'd), or NULL when it holds none. */
static int
clear_files(int dfd, dev_t dev, char **sub)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, r = 0;

	*sub = NULL;
	fd = openat(dfd, ".", DIR_FLAGS);
	if (fd < 0 || !(d = fdopendir(fd))) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return r;
	}
	while (r == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = errno == ENOENT ? 0 : -errno;
		else if (!S_ISDIR(st.st_mode))
			r = unlinkat(dfd, de->d_name, 0) < 0 ? -errno : 0;
		else if (st.st_dev != dev)
			r = -EXDEV; /* a mount inside: not ours to empty */
		else if (!*sub && !(*sub = strdup(de->d_name)))
			r = -ENOMEM;
	}
	closedir(d);
	if (r < 0) {
		free(*sub);
		*sub = NULL;
	}
	return r;
}

struct frame {
	char *name;        /* of the directory entered, in its parent */
	dev_t pdev;        /* the parent, to recognise it again */
	ino_t pino;
};

/* Empties and removes directory name of base, depth-first, holding one
 * directory fd at a time; ".." is checked against the inode it came from. */
int
rmtree_at(int base, const char *name)
{
	struct frame *stack = NULL, *ns;
	size_t depth = 0, cap = 0;
	struct stat st, pst;
	char *sub;
	int cur, next, r;

	cur = openat(base, name, DIR_FLAGS);
	if (cur < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(cur, &st) < 0) {
		r = -errno;
		goto out;
	}
	fchmod(cur, 0700);
	for (;;) {
		if ((r = clear_files(cur, st.st_dev, &sub)) < 0)
			goto out;
		if (sub) {
			if (depth == cap) {
				cap = cap ? cap * 2 : 64;
				ns = realloc(stack, cap * sizeof(*stack));
				if (!ns) {
					free(sub);
					r = -ENOMEM;
					goto out;
				}
				stack = ns;
			}
			/* Made read-only in a sandbox, or by overlayfs
			 * (work/work is mode 000): still ours to empty. */
			/* (if this fails, openat says why) */
			r = fchmodat(cur, sub, 0700, AT_SYMLINK_NOFOLLOW);
			if (fstat(cur, &pst) < 0 ||
			    (next = openat(cur, sub, DIR_FLAGS)) < 0) {
				r = -errno;
				free(sub);
				goto out;
			}
			stack[depth++] = (struct frame){ sub, pst.st_dev,
							 pst.st_ino };
			close(cur);
			cur = next;
			continue;
		}
		if (depth == 0)
			break;
		next = openat(cur, "..", DIR_FLAGS);
		depth--;
		if (next < 0 || fstat(next, &pst) < 0 ||
		    pst.st_dev != stack[depth].pdev ||
		    pst.st_ino != stack[depth].pino) {
			r = next < 0 ? -errno : -ESTALE;
			if (next >= 0)
				close(next);
			free(stack[depth].name);
			goto out;
		}
		close(cur);
		cur = next;
		r = unlinkat(cur, stack[depth].name, AT_REMOVEDIR) < 0 ?
			    -errno : 0;
		free(stack[depth].name);
		if (r < 0)
			goto out;
	}
	close(cur);
	cur = -1;
	r = unlinkat(base, name, AT_REMOVEDIR) < 0 ? -errno : 0;
out:
	if (cur >= 0)
		close(cur);
	while (depth > 0)
		free(stack[--depth].name);
	free(stack);
	return r;
}
