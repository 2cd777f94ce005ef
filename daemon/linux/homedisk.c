/* The home layer's quota for a root daemon: a workspace's layers live on
 * an ext4 file system of limits.home bytes in a sparse image file root
 * owns (HASH/home.img, beside the record of the workspace), loop-mounted
 * on HASH/fs in the daemon's mount namespace. A write past it gets ENOSPC
 * in the sandbox; the state file system holds at most the image's size.
 * Made once per workspace (mkfs.ext4 with lazy init: a few milliseconds,
 * at the first run that needs the layers), kept across runs and daemons;
 * a daemon mounts a kept image again at its first run. An unprivileged
 * daemon cannot make loop devices: it measures instead (status says so). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/linux/probe.h"
#include "daemon/sandbox.h"

#define IMAGE "home.img"
#define MNTDIR "fs"
#define MAX_DISKS 256
/* Each image takes a loop device, which the host's other users and
 * programs draw from too: one user's many workspaces take at most this
 * many (sbxd --home-disks). */
#define DEFAULT_DISKS 32

static const char *mkfs;
static unsigned max_disks = DEFAULT_DISKS;
/* The roots of the file systems this daemon mounted (O_PATH), unmounted
 * at exit: a daemon in the host's mount namespace leaves none behind. */
static int mounted[MAX_DISKS];
static int nmounted;

void
linux_homedisk_probe(const struct sandbox_config *cfg, struct sandbox_caps *c)
{
	static const char *const tools[] = { "/usr/sbin/mkfs.ext4",
		"/sbin/mkfs.ext4", "/usr/sbin/mke2fs", "/sbin/mke2fs" };
	size_t i;
	int fd;

	/* Root of a user namespace (a container) cannot mount a block
	 * file system: measured like a user's daemon. */
	if (geteuid() != 0 || !probe_initial_userns()) {
		snprintf(c->home_quota, sizeof(c->home_quota),
			 "limits.home checked after each run (no loop mount "
			 "without root in the host's user namespace): past it "
			 "the workspace's home is read-only until sbxctl reset");
		return;
	}
	for (i = 0; i < sizeof(tools) / sizeof(*tools) && !mkfs; i++)
		if (access(tools[i], X_OK) == 0)
			mkfs = tools[i];
	fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (cfg->home_disks)
		max_disks = cfg->home_disks < MAX_DISKS ? cfg->home_disks :
			    MAX_DISKS;
	if (mkfs && fd >= 0) {
		c->home_disk = true;
		c->home_disks = max_disks;
		snprintf(c->home_quota, sizeof(c->home_quota),
			 "an ext4 image of limits.home bytes per workspace "
			 "(loop-mounted, at most %u mounted at once)",
			 max_disks);
	} else
		snprintf(c->home_quota, sizeof(c->home_quota),
			 "limits.home checked after each run (%s): past it the "
			 "workspace's home is read-only until sbxctl reset",
			 mkfs ? "no /dev/loop-control" :
				"no mkfs.ext4: install e2fsprogs");
}

/* mkfs.ext4 on the image, fd (as /proc/self/fd/3 in the child): root
 * owns the file system's root, no blocks reserved for root (the user's
 * writes may use all of it), tables initialised lazily by the kernel. */
static int
run_mkfs(int fd)
{
	char *const argv[] = { (char *)mkfs, (char *)"-q", (char *)"-F",
		(char *)"-m", (char *)"0", (char *)"-L", (char *)"sbx-home",
		(char *)"-E", (char *)"root_owner=0:0,lazy_itable_init=1,"
		"lazy_journal_init=1,nodiscard", (char *)"/proc/self/fd/3",
		NULL };
	char *const envp[] = { (char *)"PATH=/usr/sbin:/usr/bin:/sbin:/bin",
			       NULL };
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
		    dup2(null, 2) < 0 || dup2(fd, 3) < 0)
			_exit(127);
		if (fd == 3)
			fcntl(3, F_SETFD, 0);
		execve(mkfs, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* The image in dfd, made (sparse, size bytes, formatted) if missing: made
 * under a temporary name, so a failure half-way leaves no image a later
 * run would mount. Its fd, read-write. */
static int
open_image(int dfd, uint64_t size)
{
	int fd = openat(dfd, IMAGE, O_RDWR | O_NOFOLLOW | O_CLOEXEC), r;

	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : -errno;
	if (unlinkat(dfd, IMAGE ".new", 0) < 0 && errno != ENOENT)
		return -errno;
	fd = openat(dfd, IMAGE ".new", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0)
		r = -errno;
	else if ((r = run_mkfs(fd)) == 0 &&
		 renameat(dfd, IMAGE ".new", dfd, IMAGE) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		unlinkat(dfd, IMAGE ".new", 0);
		return r;
	}
	return fd;
}

/* A free loop device backed by img, cleared by the kernel once nothing
 * uses it (the file system's unmount); *dev its name. */
static int
loop_attach(int img, char *dev, size_t len)
{
	struct loop_config lc = { .fd = (unsigned)img };
	int ctl, fd = -EBUSY, n, tries;

	lc.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)lc.info.lo_file_name, sizeof(lc.info.lo_file_name),
		 "sbx-home");
	if ((ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) < 0)
		return -errno;
	/* Another program may take the free one first. */
	for (tries = 0; tries < 8 && fd == -EBUSY; tries++) {
		if ((n = ioctl(ctl, LOOP_CTL_GET_FREE)) < 0) {
			fd = -errno;
			break;
		}
		snprintf(dev, len, "/dev/loop%d", n);
		if ((fd = open(dev, O_RDWR | O_CLOEXEC)) < 0)
			fd = -errno;
		else if (ioctl(fd, LOOP_CONFIGURE, &lc) < 0) {
			int e = -errno;

			close(fd);
			fd = e;
		}
	}
	close(ctl);
	return fd;
}

static bool
is_mounted(int dfd, int fs)
{
	struct stat a, b;

	return fstat(dfd, &a) == 0 && fstat(fs, &b) == 0 &&
	       a.st_dev != b.st_dev;
}

/* The index of the remembered mount of fs's file system, or -1. */
static int
find(int fs)
{
	struct stat st, m;
	int i;

	if (fstat(fs, &st) < 0)
		return -1;
	for (i = 0; i < nmounted; i++)
		if (fstat(mounted[i], &m) == 0 && m.st_dev == st.st_dev)
			return i;
	return -1;
}

/* A kept one (an earlier daemon's, killed outright) is this one's to
 * unmount at exit too. */
static void
remember(int dfd)
{
	int fd = openat(dfd, MNTDIR, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);

	if (fd >= 0 && find(fd) < 0 && nmounted < MAX_DISKS)
		mounted[nmounted++] = fd;
	else if (fd >= 0)
		close(fd);
}

int
sandbox_home_disk(int dfd, uint64_t size)
{
	const char *opts[] = { "source", NULL, "discard", NULL,
			       "errors", "remount-ro", NULL };
	char dev[32];
	int fs, img, loop, mnt, r;

	if (!mkfs)
		return -EOPNOTSUPP;
	if (mkdirat(dfd, MNTDIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	fs = openat(dfd, MNTDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fs < 0)
		return -errno;
	r = is_mounted(dfd, fs);
	close(fs);
	if (r) { /* an earlier run's (or daemon's): kept */
		remember(dfd);
		return 0;
	}
	if ((unsigned)nmounted >= max_disks)
		return -EMLINK;
	if ((img = open_image(dfd, size)) < 0)
		return img;
	loop = loop_attach(img, dev, sizeof(dev));
	close(img);
	if (loop < 0)
		return loop;
	opts[1] = dev;
	/* Set-user-id files and devices of the user's are nothing here. */
	mnt = lmount_new_fs_with("ext4", opts, MOUNT_ATTR_NOSUID |
				 MOUNT_ATTR_NODEV);
	/* The mount holds the device now; closing ours arms the clear. */
	close(loop);
	if (mnt < 0)
		return mnt;
	r = move_mount(mnt, "", dfd, MNTDIR, MOVE_MOUNT_F_EMPTY_PATH) < 0 ?
	    -errno : 0;
	close(mnt);
	if (r == 0)
		remember(dfd);
	return r;
}

/* umount2 takes a path: the fd's, through /proc. */
static int
unmount_fd(int fd)
{
	char path[40];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return umount2(path, MNT_DETACH) < 0 ? -errno : 0;
}

int
sandbox_home_disk_drop(int dfd)
{
	int fs = openat(dfd, MNTDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC), i, r = 0;

	if (fs < 0)
		return errno == ENOENT ? 0 : -errno;
	if (is_mounted(dfd, fs)) {
		if ((i = find(fs)) >= 0) {
			close(mounted[i]);
			mounted[i] = mounted[--nmounted];
		}
		r = unmount_fd(fs);
	}
	close(fs);
	return r;
}

void
linux_homedisk_cleanup(void)
{
	while (nmounted > 0) {
		unmount_fd(mounted[--nmounted]);
		close(mounted[nmounted]);
	}
}
