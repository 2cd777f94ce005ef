/* The served user's paths in a sandbox's mount tree: looked up with the
 * user's file-system rights (usercred.h) into fds, which root then clones
 * from and mounts onto. In privileged mode a policy path is the user's
 * input to root: what root mounts from it or onto it is then only what the
 * user could reach by that name, whatever links the user placed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
#include "daemon/linux/linux.h"
#include "daemon/usercred.h"

/* One lookup with the caller's credentials: never through a magic link
 * (/proc/PID/fd, /proc/PID/root), which would reach past the names, and
 * never making a terminal of the user's the daemon's controlling one
 * (openat2 refuses O_NOCTTY beside O_PATH, which opens no file anyway). */
static int
open2(int dfd, const char *path, int flags, uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC |
				    (flags & O_PATH ? 0 : O_NOCTTY)),
		.resolve = resolve | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

int
linux_userpath_open(const char *path, int flags, uint64_t resolve)
{
	int fd;

	usercred_enter();
	fd = open2(AT_FDCWD, path, flags, resolve);
	usercred_leave();
	return fd;
}

/* One component, name, of directory dfd, with no link: as the user, or
 * as root when the user may not search dfd but dfd is the user's own (a
 * directory of the user's, mode 000, that a chmod in the sandbox opens). */
static int
policy_step(int dfd, const char *name, int flags)
{
	const uint64_t how = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
	int fd = open2(dfd, name, O_PATH | flags, how);
	struct stat st;

	if (fd != -EACCES || fstat(dfd, &st) < 0 || !usercred_owns(&st))
		return fd;
	usercred_leave();
	fd = open2(dfd, name, O_PATH | flags, how);
	usercred_enter();
	return fd;
}

int
linux_userpath_nolink(const char *path)
{
	return open2(AT_FDCWD, path, O_PATH, RESOLVE_NO_SYMLINKS);
}

int
linux_userpath_policy(const char *path, int flags)
{
	char buf[4096], *name, *next;
	int fd = open2(AT_FDCWD, path, O_PATH | flags, 0), dfd;

	if (fd != -EACCES)
		return fd;
	/* Out of the user's reach now, but perhaps not for long: the very
	 * name, component by component through no link, where each
	 * directory the user cannot search is the user's own. Behind
	 * another's (a 0700 home) it is absent: whether it exists is not
	 * the user's to learn from the sandbox's mounts. */
	if (path[0] != '/' || strlen(path) >= sizeof(buf))
		return -ENOENT;
	strcpy(buf, path);
	if ((dfd = open2(AT_FDCWD, "/", O_PATH | O_DIRECTORY, 0)) < 0)
		return dfd;
	for (name = buf + 1; dfd >= 0 && *name; name = next) {
		bool last = !(next = strchr(name, '/'));

		if (last)
			next = name + strlen(name);
		else
			*next++ = '\0';
		if (!*name)
			continue; /* "//" */
		fd = policy_step(dfd, name, last ? flags : O_DIRECTORY);
		close(dfd);
		dfd = fd;
	}
	return dfd == -ELOOP || dfd == -EACCES || dfd == -EXDEV ? -ENOENT
								 : dfd;
}

int
linux_userpath_owned(int dfd, const char *name, int flags)
{
	struct stat st;
	int p, fd, e;

	/* Looked at before it is opened: root opens no device, FIFO or
	 * another's file for the user, and follows no link of the user's. */
	usercred_leave();
	p = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	usercred_enter();
	if (p < 0)
		return -e;
	if (fstat(p, &st) < 0 || !usercred_owns(&st))
		fd = -EACCES;
	else if (!(flags & O_DIRECTORY ? S_ISDIR(st.st_mode) :
					 S_ISREG(st.st_mode)))
		fd = -EINVAL;
	else {
		usercred_leave();
		fd = res_reopen(p, flags); /* that very inode */
		usercred_enter();
	}
	close(p);
	return fd;
}

int
linux_userpath_lstat(int dfd, const char *name, struct stat *st)
{
	struct stat ds;
	int r;

	if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (errno != EACCES)
		return -errno;
	/* Not searchable by the user: only in a directory of its own. */
	if (fstat(dfd, &ds) < 0 || !usercred_owns(&ds))
		return -EACCES;
	usercred_leave();
	r = fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	usercred_enter();
	return r;
}

int
linux_userpath_clone_fd(int src, unsigned extra)
{
	int fd;

	if (src < 0)
		return src;
	fd = open_tree(src, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
		       AT_EMPTY_PATH | extra);
	fd = fd < 0 ? -errno : fd;
	close(src);
	return fd;
}

int
linux_userpath_clone(const char *path, unsigned extra)
{
	return linux_userpath_clone_fd(linux_userpath_open(path, O_PATH, 0),
				       extra);
}

static bool
same_inode(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Makes the missing components of path (absolute, normalised) as the
 * user, following no link: directories, the last one like src (a
 * directory or an empty file). An O_PATH fd of the last, or -errno. */
static int
make_as_user(const char *path, int src)
{
	char buf[4096], *name, *next;
	struct stat st;
	int dfd, fd = -1, r = 0;

	if (fstat(src, &st) < 0)
		return -errno;
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	if ((dfd = open2(AT_FDCWD, "/", O_PATH | O_DIRECTORY, 0)) < 0)
		return dfd;
	for (name = buf + 1; r == 0 && *name; name = next) {
		bool last = !(next = strchr(name, '/'));

		if (last)
			next = name + strlen(name);
		else
			*next++ = '\0';
		fd = open2(dfd, name, O_PATH, RESOLVE_NO_SYMLINKS);
		if (fd == -ENOENT) {
			if (!last || S_ISDIR(st.st_mode))
				r = mkdirat(dfd, name, 0755) < 0 ? -errno : 0;
			else if ((fd = openat(dfd, name, O_WRONLY | O_CREAT |
					      O_EXCL | O_NOFOLLOW | O_CLOEXEC,
					      0644)) < 0)
				r = -errno;
			else
				close(fd);
			if (r == 0)
				fd = open2(dfd, name, O_PATH,
					   RESOLVE_NO_SYMLINKS);
		}
		close(dfd);
		dfd = fd;
		if (r == 0 && fd < 0)
			r = fd; /* a link, or not there to be made */
	}
	if (r < 0) {
		if (dfd >= 0)
			close(dfd);
		return r;
	}
	return dfd;
}

int
linux_userpath_target(const char *path, int src, bool make)
{
	int fd;

	usercred_enter();
	/* The very name: what the sandbox sees at it (in the overlaid home,
	 * or its own /tmp, another inode than src's) is where src goes. */
	fd = open2(AT_FDCWD, path, O_PATH, RESOLVE_NO_SYMLINKS);
	if (fd == -ELOOP) {
		/* Through a link (~/.cache pointing elsewhere): only onto
		 * the very tree cloned, never somewhere a link sends it. */
		fd = open2(AT_FDCWD, path, O_PATH, 0);
		if (fd >= 0 && !same_inode(fd, src)) {
			close(fd);
			fd = -EXDEV;
		}
	}
	/* Root makes nothing for the user: a mount point that is missing
	 * (the sandbox's /tmp lacks the host's) is made as the user. */
	if (fd == -ENOENT && make)
		fd = make_as_user(path, src);
	usercred_leave();
	return fd;
}

int
linux_userpath_move(int fd, int to)
{
	int r = 0;

	if (to < 0)
		return to;
	if (move_mount(fd, "", to, "", MOVE_MOUNT_F_EMPTY_PATH |
		       MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = -errno;
	close(to);
	return r;
}

int
linux_userpath_attach(int fd, const char *path, bool make)
{
	return linux_userpath_move(fd, linux_userpath_target(path, fd, make));
}
