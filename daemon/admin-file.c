/* Reading what only an administrator may write. The checks are on the
 * opened fd, so a file swapped in after the check is not the one read. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/admin-file.h"

static int
trusted(int fd, uid_t also, mode_t type)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if ((st.st_mode & S_IFMT) != type)
		return -EINVAL;
	if ((st.st_uid != 0 && st.st_uid != also) || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

int
admin_dir_open(const char *path, uid_t also)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if ((r = trusted(fd, also, S_IFDIR)) < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int
admin_file_read(int dirfd, const char *name, size_t max, uid_t also,
		char **buf, size_t *len)
{
	struct stat st;
	ssize_t n;
	char *b;
	int fd, r;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if ((r = trusted(fd, also, S_IFREG)) < 0 || fstat(fd, &st) < 0) {
		close(fd);
		return r < 0 ? r : -errno;
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	if (!(b = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, b, (size_t)st.st_size, 0);
	close(fd);
	if (n != st.st_size) {
		free(b);
		return -EIO;
	}
	b[n] = '\0';
	*buf = b;
	*len = (size_t)n;
	return 0;
}
