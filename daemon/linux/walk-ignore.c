/* The ignore files of the template's walk: read as the walk finds them,
 * without following a link or blocking, refused unless regular files of
 * a sane size; the last refusal is kept for the build's error. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/walk-ignore.h"
#include "daemon/policy/ignore.h"

/* The last ignore file this process refused: "path: reason". */
static char refused[600];

void
linux_walk_ignore_forget(void)
{
	refused[0] = '\0';
}

const char *
linux_walk_refused(void)
{
	return refused[0] ? refused : NULL;
}

static int
refuse(const char *root, const char *rel, const char *name, const char *why,
       int r)
{
	snprintf(refused, sizeof(refused), "%.200s%s%.200s/%.60s: %.100s",
		 root, rel[0] ? "/" : "", rel, name, why);
	return r;
}

/* One ignore file of directory dfd: its fd, or -ENOENT when there is none.
 * Opened without following a link and without blocking (a FIFO there must
 * not stop the walk), and refused unless it is a regular file. */
static int
open_ignore_file(const char *root, int dfd, const char *rel,
		 const char *name, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC), e = errno;
	struct stat ls;

	if (fd < 0 && (e == ENOENT || e == ENOTDIR))
		return -ENOENT;
	/* The user's own, mode 000 (or in such a directory): the user could
	 * read it after a chmod, so its patterns hold (a deny list must not
	 * fail open). Only a regular file of the user's is opened so. */
	if (fd < 0 && e == EACCES &&
	    (fd = linux_userpath_owned(dfd, name, O_RDONLY | O_NONBLOCK)) < 0)
		e = -fd;
	/* Not opened (a link, a socket, a device on a nodev mount): its
	 * type says why better than the errno. */
	if (fd < 0 && fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISREG(ls.st_mode))
		return refuse(root, rel, name, S_ISLNK(ls.st_mode) ?
			      "a symbolic link (not followed)" :
			      "not a regular file", -EINVAL);
	if (fd < 0)
		return refuse(root, rel, name, strerror(e), -e);
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) ||
	    st->st_size > IGNORE_FILE_MAX) {
		close(fd);
		return refuse(root, rel, name, S_ISREG(st->st_mode) ?
			      "too large" : "not a regular file", -EINVAL);
	}
	return fd;
}

/* (Re)reads the ignore files of directory dfd (rel: its root-relative
 * path) into the set; present has bit i set when the i-th name was listed
 * (names past the 64th are always tried). A file that does not parse
 * fails the walk: a broken deny list must not fail open. */
int
linux_walk_ignore_read(const struct fsplan *fs, const char *root,
		       struct ignore_set *set, int dfd, const char *rel,
		       uint64_t present)
{
	const struct fsplan_list *names = &fs->l[FSPLAN_IGNORE];
	struct ignore_file *f;
	struct ignore_error e;
	struct stat st;
	char *buf;
	size_t i;
	int fd, r;

	for (i = 0; i < names->n; i++) {
		ignore_set_remove(set, rel, names->v[i]);
		if (i < 64 && !(present & (1ull << i)))
			continue;
		fd = open_ignore_file(root, dfd, rel, names->v[i], &st);
		if (fd == -ENOENT)
			continue;
		if (fd < 0)
			return fd;
		buf = malloc((size_t)st.st_size + 1);
		r = buf && read(fd, buf, (size_t)st.st_size) == st.st_size ?
			    0 : -EIO;
		close(fd);
		if (r == 0 &&
		    (r = ignore_parse(rel, names->v[i], buf,
				      (size_t)st.st_size, &f, &e)) < 0) {
			char why[160];

			snprintf(why, sizeof(why), "line %u: %s", e.line,
				 e.reason ? e.reason : "invalid");
			refuse(root, rel, names->v[i], why, r);
		}
		free(buf);
		if (r == 0 && (r = ignore_set_add(set, f)) < 0)
			ignore_file_free(f);
		if (r < 0)
			return r;
	}
	return 0;
}
