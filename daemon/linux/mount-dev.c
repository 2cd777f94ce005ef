/* The sandbox's /dev: a tmpfs holding binds of the host's harmless
 * device nodes, the fd links, a /dev/shm of its own and a devpts of its
 * own (or, for a -t session whose pty number is too high, that pty
 * alone). Built by mount.c's linux_mount_build. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"

const char *const lmount_dev_nodes[LMOUNT_NDEV] = {
	"null", "zero", "full", "random", "urandom", "tty",
};

static int
touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The most ptys a -t sandbox opens to reach its session pty's number;
 * past it the sandbox gets no devpts, only that pty (no new ptys). */
#define TTY_INDEX_MAX 256

static unsigned
tty_index(const struct sandbox_plan *p)
{
	return (unsigned)strtoul(strrchr(p->tty_path, '/') + 1, NULL, 10);
}

/* A -t session's pty goes at its own name, /dev/pts/N, inside the
 * sandbox's devpts (ttyname and the supervisor's /dev/tty find it there):
 * the devpts is made to hold a pty N of its own (lower ones are opened
 * on the way and closed again, so the sandbox gets them), whose master
 * this process keeps open for the session (closing it would remove the
 * name), and the session's pty is bound over it. */
static int
bind_tty(const struct sandbox_plan *p, int tty)
{
	const char *name = strrchr(p->tty_path, '/') + 1;
	unsigned want = tty_index(p), got = 0, i, n = 0;
	int fds[TTY_INDEX_MAX + 1], r = -E2BIG;
	char path[64];

	while (n <= TTY_INDEX_MAX) {
		fds[n] = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fds[n] < 0 || ioctl(fds[n], TIOCGPTN, &got) < 0) {
			r = -errno;
			if (fds[n] >= 0)
				close(fds[n]);
			break;
		}
		if (n++, got == want) {
			r = 0;
			break;
		}
	}
	/* Every other one goes back to the sandbox. */
	for (i = 0; i < n; i++)
		if (r < 0 || i + 1 < n)
			close(fds[i]);
	snprintf(path, sizeof(path), "/dev/pts/%s", name);
	return r < 0 ? r : lmount_attach(tty, path);
}

/* The sandbox's /dev, with a devpts instance of its own: made here for a
 * direct sandbox (a -t session's pty bound at its name in it), and for a
 * template's by each sandbox over an empty read-only placeholder
 * (linux_mount_own_proc). */
int
lmount_build_dev(const struct sandbox_plan *p, const int dev[LMOUNT_NDEV],
		 int tty, bool shared)
{
	static const char *const links[][2] = {
		{ "/proc/self/fd", "/dev/fd" },
		{ "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" },
		{ "/proc/self/fd/2", "/dev/stderr" },
	};
	char path[4096];
	size_t i;
	int fd, r;

	fd = lmount_new_fs("tmpfs", "0755", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (fd < 0 || (r = lmount_attach(fd, "/dev")) < 0)
		return fd < 0 ? fd : r;
	close(fd);
	for (i = 0; i < LMOUNT_NDEV; i++) {
		snprintf(path, sizeof(path), "/dev/%s", lmount_dev_nodes[i]);
		if ((r = touch(path)) < 0 || (r = lmount_attach(dev[i], path)) < 0)
			return r;
	}
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(links[i][0], links[i][1]) < 0)
			return -errno;
	if (mkdir("/dev/shm", 01777) < 0 || mkdir("/dev/pts", 0755) < 0)
		return -errno;
	fd = lmount_new_fs("tmpfs", "1777", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				     MOUNT_ATTR_NOEXEC);
	if (fd < 0 || (r = lmount_attach(fd, "/dev/shm")) < 0)
		return fd < 0 ? fd : r;
	close(fd);
	if (p->tty_path && tty_index(p) > TTY_INDEX_MAX) {
		snprintf(path, sizeof(path), "/dev/pts/%s",
			 strrchr(p->tty_path, '/') + 1);
		if ((r = touch(path)) < 0 || (r = lmount_attach(tty, path)) < 0)
			return r;
		return lmount_set_attr(AT_FDCWD, "/dev", 0, MOUNT_ATTR_RDONLY, 0);
	}
	if (symlink("pts/ptmx", "/dev/ptmx") < 0)
		return -errno;
	if (!shared)
		r = lmount_devpts();
	else if ((fd = lmount_new_fs("tmpfs", "0755", MOUNT_ATTR_RDONLY |
			MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			MOUNT_ATTR_NOEXEC)) < 0)
		r = fd;
	else {
		r = lmount_attach(fd, "/dev/pts");
		close(fd);
	}
	if (r == 0 && p->tty_path)
		r = bind_tty(p, tty);
	if (r < 0)
		return r;
	return lmount_set_attr(AT_FDCWD, "/dev", 0, MOUNT_ATTR_RDONLY, 0);
}
