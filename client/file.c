/* Bounded whole-file reads and exclusive writes for sbxctl's verbs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/client.h"
#include "client/file.h"

int
file_read(const char *path, size_t max, char **buf, size_t *len)
{
	size_t n = 0;
	ssize_t k;
	char *b;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		client_err("%s: %s", path, strerror(-r));
		return r;
	}
	/* One byte more than allowed tells "too big" from "exactly max". */
	if (!(b = malloc(max + 2))) {
		close(fd);
		return -ENOMEM;
	}
	while (n <= max && (k = read(fd, b + n, max + 1 - n)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			r = -errno;
			break;
		}
		n += (size_t)k;
	}
	close(fd);
	if (r == 0 && n > max)
		r = -EFBIG;
	if (r < 0) {
		client_err("%s: %s", path, r == -EFBIG ?
			   "file too large" : strerror(-r));
		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int
file_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t k;

	while (len > 0) {
		k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			return -EPIPE;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static int
write_close(int fd, const void *buf, size_t len)
{
	int r = file_write_all(fd, buf, len);

	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int
file_write_new(const char *path, mode_t mode, const void *buf, size_t len)
{
	int fd, r;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode);
	if (fd < 0) {
		r = -errno;
		client_err("%s: %s", path, strerror(-r));
		return r;
	}
	if ((r = write_close(fd, buf, len)) < 0) {
		client_err("%s: %s", path, strerror(-r));
		unlink(path);
	}
	return r;
}

int
file_replace(const char *path, mode_t mode, const void *buf, size_t len)
{
	char tmp[4200];
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0 || fchmod(fd, mode) < 0) {
		r = -errno;
		client_err("%s: %s", path, strerror(-r));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return r;
	}
	r = write_close(fd, buf, len);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		client_err("%s: %s", path, strerror(-r));
		unlink(tmp);
	}
	return r;
}
