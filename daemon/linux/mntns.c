/* A template's sandbox mount namespaces, used again: each sandbox has one
 * of its own (for a /proc of its own pid namespace), a copy of the
 * template's, and the copy costs in proportion to the template's mounts
 * (25 ms for 10,000 masks, against 0.1 ms for a few dozen). So the spawner
 * keeps the namespace of a sandbox that ended (its init, or the
 * supervisor that reaped it, reaped here: none of its processes is left)
 * and the next sandbox is cloned in it. A run's end and the request for
 * the next warm sandbox race, and under load a few sandboxes that ended
 * are not reaped yet when new ones start: a copy made for want of one,
 * and its teardown when it is one too many, each cost 10-20 ms with
 * 10,000 masks (such a workspace's runs were half again slower on a busy
 * machine). So two copies are made ahead, after the first sandbox, up to
 * eight are kept, and the sandboxes that ended are reaped before a copy
 * is made. What is in one is the template's
 * tree (shared with it: later masks reach it too) and the ended session's
 * /proc, which the next one's replaces; the command can mount nothing.
 * Also the mount of a supervised sandbox's /proc, from the spawner, and
 * the workspace's mount without its binds that supervisors are given. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "proto/fdpass.h"

/* PIDFD_GET_PID_NAMESPACE (Linux 6.11), which older headers lack. */
#define SBX_PIDFD_GET_PID_NAMESPACE _IO(0xFF, 5)

#define MNTNS_IDLE 8
#define MNTNS_SPARE 2
#define MNTNS_LIVE 64

bool linux_mntns_reused;

/* used: an ended sandbox's, its /proc its own (unmounted before the next
 * one's goes on); else a copy made ahead, whose /proc is a peer of the
 * template's (made private first: an unmount would propagate). */
static struct {
	int fd;
	bool used;
} idle[MNTNS_IDLE];
static int nidle, template_ns = -1, workspace = -1;
static struct {
	pid_t pid;
	int fd;
} live[MNTNS_LIVE];
static int nlive;

int
linux_mntns_enter(void)
{
	int fd;

	if (template_ns < 0 &&
	    (template_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	linux_mntns_reused = false;
	if (nidle == 0)
		linux_mntns_reap();
	while (nidle > 0) {
		fd = idle[--nidle].fd;
		if (setns(fd, CLONE_NEWNS) == 0) {
			linux_mntns_reused = idle[nidle].used;
			return fd;
		}
		close(fd);
	}
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	if ((fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0) {
		fd = -errno;
		linux_mntns_leave();
	}
	return fd;
}

void
linux_mntns_stock(void)
{
	static bool stocked;
	int fd;

	if (stocked || template_ns < 0)
		return;
	stocked = true;
	while (nidle < MNTNS_SPARE) {
		if (unshare(CLONE_NEWNS) < 0)
			return;
		fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
		linux_mntns_leave();
		if (fd < 0)
			return;
		idle[nidle].fd = fd;
		idle[nidle++].used = false;
	}
}

void
linux_mntns_leave(void)
{
	/* Back in the template's; its root and cwd "/" again. */
	if (template_ns < 0)
		return; /* never left it */
	if (setns(template_ns, CLONE_NEWNS) < 0 || chdir("/") < 0)
		_exit(1);
}

void
linux_mntns_started(pid_t pid, int fd)
{
	if (fd < 0)
		return;
	if (pid > 0 && nlive < MNTNS_LIVE) {
		live[nlive].pid = pid;
		live[nlive++].fd = fd;
	} else {
		close(fd);
	}
}

void
linux_mntns_reap(void)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		linux_mntns_reaped(pid);
}

void
linux_mntns_reaped(pid_t pid)
{
	int i, fd;

	for (i = 0; i < nlive && live[i].pid != pid; i++)
		;
	if (i == nlive)
		return;
	fd = live[i].fd;
	live[i] = live[--nlive];
	if (nidle < MNTNS_IDLE) {
		idle[nidle].fd = fd;
		idle[nidle++].used = true;
	} else
		close(fd);
}

/* The pid namespace of the process behind pidfd (pid): PIDFD_GET_PID_-
 * NAMESPACE (Linux 6.11), else by /proc, which in the caller's mount
 * namespace is the template's now (linux_mount_proc_clear); the pidfd
 * still live after that open means the pid was not reused. */
static int
pidns_of(int pidfd, pid_t pid)
{
	char path[64];
	int fd;

	if ((fd = ioctl(pidfd, SBX_PIDFD_GET_PID_NAMESPACE, 0)) >= 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) < 0) {
		close(fd);
		return -ESRCH;
	}
	return fd;
}

/* A /proc of pidns over the caller's: proc's pidns option (Linux 6.15),
 * else (EINVAL) a process in that pid namespace mounts it, a child's
 * child (setns to a pid namespace moves only the children to come). */
static int
mount_proc_of(int pidns)
{
	pid_t c, gc;
	int r, st;

	if ((r = linux_mount_own_proc(pidns)) != -EINVAL)
		return r;
	/* Not fork(): no atfork handler (linux/lean.c). */
	if ((c = _Fork()) < 0)
		return -errno;
	if (c == 0) {
		if (setns(pidns, CLONE_NEWPID) < 0 || (gc = _Fork()) < 0)
			_exit(1);
		if (gc == 0)
			_exit(linux_mount_own_proc(-1) < 0);
		_exit(waitpid(gc, &st, 0) != gc || !WIFEXITED(st) ||
		      WEXITSTATUS(st) != 0);
	}
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -EIO;
	return 0;
}

void
linux_mntns_proc(int handback, int done_w, bool entered)
{
	int r, pidfd = -1, pidns, n = 0;
	pid_t pid;

	/* The ended sandbox's /proc goes while the init is being started:
	 * an unmount waits for an RCU grace period. */
	r = entered ? linux_mount_proc_clear() : 0;
	if (fdpass_recv(handback, &pid, sizeof(pid), &pidfd, &n, 1) !=
	    sizeof(pid) || n != 1) {
		if (n == 1)
			close(pidfd);
		return; /* the start failed; its child says why */
	}
	/* No namespace entered: the init made a copy of the template's,
	 * joined here (and left below) only if there is one to go back to. */
	if (r == 0 && !entered) {
		if (template_ns < 0)
			r = -EBADF;
		else if (setns(pidfd, CLONE_NEWNS) < 0)
			r = -errno;
		else
			r = linux_mount_proc_clear();
	}
	if (r == 0 && (pidns = pidns_of(pidfd, pid)) >= 0) {
		r = mount_proc_of(pidns);
		close(pidns);
		/* The init clones its command on this byte; none (EOF):
		 * its setup fails at /proc. */
		if (r == 0 && write(done_w, "p", 1) != 1)
			r = -errno;
	}
	if (!entered)
		linux_mntns_leave();
	close(pidfd);
}

/* A clone of a mount looks at every mount on it, holding the kernel's
 * namespace lock, which every mount and unmount on the machine waits for
 * (2-3 ms with 10,000 masks on the workspace, more than the rest of a
 * sandbox's start); its close unmounts it and waits for an RCU grace
 * period. A spawner's supervisors would each make one, so the spawner
 * makes it once, for all of them: the workspace's mount itself, which the
 * masks are on, does not change while the template is held. */
static int
clone_workspace(const struct sandbox_plan *p)
{
	int fd;

	if (!p->workspace)
		return -1;
	fd = open_tree(AT_FDCWD, p->workspace, OPEN_TREE_CLONE |
		       OPEN_TREE_CLOEXEC);
	return fd < 0 ? -1 : fd;
}

void
linux_mntns_hold_workspace(const struct sandbox_plan *p)
{
	if (workspace < 0)
		workspace = clone_workspace(p);
}

int
linux_mntns_workspace(const struct sandbox_plan *p)
{
	if (workspace < 0)
		return clone_workspace(p);
	return fcntl(workspace, F_DUPFD_CLOEXEC, 3);
}
