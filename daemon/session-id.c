/* Session ids that no earlier daemon gave out: a counter kept in the
 * state dir's session-ids file, reserved a block at a time (written
 * atomically, under a lock, before any id of the block is used), so a
 * restart, a crash included, starts past every id already seen. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/session.h"

#define ID_FILE "session-ids"
/* Ids reserved per write of the file. */
#define ID_BLOCK 1024u

static int dir_fd = -1;
static uint64_t next_id = 1, reserved_to = 0;

int
session_id_parse(const char *buf, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len < 2 || buf[len - 1] != '\n' || len > 21)
		return -EINVAL;
	for (i = 0; i < len - 1; i++) {
		unsigned d = (unsigned)(buf[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* The file's number (0: none yet), then the number past a new block
 * written in its place: the ids from the old number up to it are ours. */
static int
reserve(void)
{
	char buf[32], tmp[32];
	uint64_t from = 0;
	ssize_t n = 0;
	int fd, lock, tfd, r = 0, len;

	/* Two daemons sharing the state dir (privileged mode) each take
	 * their own blocks: the lock is on a file the rename leaves alone. */
	lock = openat(dir_fd, ID_FILE ".lock", O_RDONLY | O_CREAT | O_NOFOLLOW |
		      O_CLOEXEC, 0600);
	if (lock < 0)
		return -errno;
	if (flock(lock, LOCK_EX) < 0) {
		r = -errno;
		goto out;
	}
	fd = openat(dir_fd, ID_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		n = pread(fd, buf, sizeof(buf), 0);
		close(fd);
	}
	if (n > 0 && session_id_parse(buf, (size_t)n, &from) < 0) {
		log_error("%s: not a number: refusing to guess session ids",
			  ID_FILE);
		r = -EINVAL;
		goto out;
	}
	if (from < next_id)
		from = next_id;
	len = snprintf(buf, sizeof(buf), "%llu\n",
		       (unsigned long long)(from + ID_BLOCK));
	snprintf(tmp, sizeof(tmp), "%s.%d", ID_FILE, (int)getpid());
	tfd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		     O_CLOEXEC, 0600);
	if (tfd < 0) {
		r = -errno;
		goto out;
	}
	if (write(tfd, buf, (size_t)len) != len || fsync(tfd) < 0)
		r = errno ? -errno : -EIO;
	close(tfd);
	if (r == 0 && renameat(dir_fd, tmp, dir_fd, ID_FILE) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dir_fd, tmp, 0);
	else {
		fsync(dir_fd);
		next_id = from;
		reserved_to = from + ID_BLOCK;
	}
out:
	close(lock);
	return r;
}

/* The state dir, made as mkdir -p would (the daemon's umask is 077): a
 * new user has no ~/.local/state yet. */
static int
make_dir(const char *statedir)
{
	char path[PATH_MAX], *s;

	if (snprintf(path, sizeof(path), "%s", statedir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

int
session_id_init(const char *statedir)
{
	struct timespec ts;
	int r;

	r = make_dir(statedir);
	if (r == 0 && (dir_fd = open(statedir, O_RDONLY | O_DIRECTORY |
				     O_CLOEXEC)) < 0)
		r = -errno;
	if (r == 0)
		r = reserve();
	if (r < 0) {
		/* Without the file: ids from the clock in microseconds,
		 * past any earlier daemon's unless the clock went back. */
		clock_gettime(CLOCK_REALTIME, &ts);
		next_id = (uint64_t)ts.tv_sec * 1000000u +
			  (uint64_t)ts.tv_nsec / 1000u;
		reserved_to = UINT64_MAX;
	}
	return r;
}

uint64_t
session_id_next(void)
{
	/* A block that cannot be reserved is not used: the next ids go
	 * on in the block after it, which a later reserve covers. */
	if (next_id >= reserved_to && reserve() < 0)
		log_warn("%s: cannot reserve session ids; a daemon started "
			 "after this one may reuse them", ID_FILE);
	return next_id++;
}
