/* What each sandbox has of its own in a tree it may share: a fresh /proc
 * of its pid namespace, the host-wide kernel settings under it read-only,
 * and a devpts instance of its own at /dev/pts. */
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

/* The host-wide kernel settings under /proc, read-only to everyone: a
 * root sandbox is uid 0 mapped to itself, and sysctl's permission check
 * looks at that uid, not at capabilities (it could otherwise write
 * /proc/sys/kernel/core_pattern, which the host's kernel runs as root). */
static int
proc_read_only(void)
{
	static const char *const paths[] = {
		"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus",
	};
	size_t i;
	int r;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if ((r = lmount_bind_self(paths[i], MOUNT_ATTR_RDONLY |
				   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
				   false)) < 0)
			return r;
	return 0;
}

/* A fresh /proc over /proc, showing pid namespace pidns (-1: the
 * caller's), its host-wide settings read-only. */
int
lmount_proc(int pidns)
{
	int fs, fd, r;

	if (pidns < 0) {
		fd = lmount_new_fs("proc", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					  MOUNT_ATTR_NOEXEC);
	} else {
		if ((fs = fsopen("proc", FSOPEN_CLOEXEC)) < 0)
			return -errno;
		fd = fsconfig(fs, FSCONFIG_SET_FD, "pidns", NULL, pidns) < 0 ||
		     fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ?
		     -1 : fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID |
				  MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
		fd = fd < 0 ? -errno : fd;
		close(fs);
	}
	if (fd < 0)
		return fd;
	r = lmount_attach(fd, "/proc");
	close(fd);
	return r < 0 ? r : proc_read_only();
}

/* A devpts instance of the sandbox's own over /dev/pts, /dev/ptmx (a
 * link to pts/ptmx) its multiplexer: the sandbox's ptys are not the
 * host's, and another sandbox's are not in it. Opened by anyone (ptmxmode
 * 0666); each pty is its opener's. */
int
lmount_devpts(void)
{
	static const char *const opts[] = { "mode", "0620", "newinstance",
					    NULL, "ptmxmode", "0666", NULL };
	int fd = lmount_new_fs_with("devpts", opts, MOUNT_ATTR_NOSUID |
				    MOUNT_ATTR_NOEXEC), r;

	if (fd < 0)
		return fd;
	r = lmount_attach(fd, "/dev/pts");
	close(fd);
	return r;
}

/* A templated sandbox's mount namespace is a copy of the template's,
 * whose /proc and /dev/pts (an empty placeholder) are peers of its own
 * (linux/template.c shares the tree): made private before ours are
 * mounted over them, or they would be mounted in the template and every
 * other sandbox too. An ended sandbox's (linux/mntns.c) go first. The
 * devpts is made here, the /proc (of the init's pid namespace) by
 * linux_mount_own_proc once the init exists. */
int
linux_mount_proc_clear(void)
{
	if (linux_mntns_reused && (umount2("/proc", MNT_DETACH) < 0 ||
				   umount2("/dev/pts", MNT_DETACH) < 0))
		return -errno;
	if (mount(NULL, "/proc", NULL, MS_PRIVATE, NULL) < 0 ||
	    mount(NULL, "/dev/pts", NULL, MS_PRIVATE, NULL) < 0)
		return -errno;
	return lmount_devpts();
}

int
linux_mount_own_proc(int pidns)
{
	return lmount_proc(pidns);
}
