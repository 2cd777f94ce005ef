/* A template's sandbox mount namespaces, used again: each sandbox has one
 * of its own (for a /proc of its own pid namespace), a copy of the
 * template's, and the copy costs in proportion to the template's mounts
 * (25 ms for 10,000 masks, against 0.1 ms for a few dozen). So the spawner
 * keeps the namespace of a sandbox that ended (its init, or the
 * supervisor that reaped it, reaped here: none of its processes is left)
 * and the next sandbox is cloned in it. What is in one is the template's
 * tree (shared with it: later masks reach it too) and the ended session's
 * /proc, which the next one's replaces; the command can mount nothing.
 * Also the helper that mounts a supervised sandbox's /proc. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"

#define MNTNS_IDLE 4
#define MNTNS_LIVE 64

bool linux_mntns_reused;

static int idle[MNTNS_IDLE], nidle, template_ns = -1;
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
	while (nidle > 0) {
		fd = idle[--nidle];
		if (setns(fd, CLONE_NEWNS) == 0) {
			linux_mntns_reused = true;
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
linux_mntns_reaped(pid_t pid)
{
	int i, fd;

	for (i = 0; i < nlive && live[i].pid != pid; i++)
		;
	if (i == nlive)
		return;
	fd = live[i].fd;
	live[i] = live[--nlive];
	if (nidle < MNTNS_IDLE)
		idle[nidle++] = fd;
	else
		close(fd);
}

/* The helper that mounts a supervised sandbox's /proc, which its init,
 * in the supervisor's Landlock domain, may not: forked before that domain,
 * told the init's pid, it joins the init's mount namespace and mounts a
 * /proc of the init's pid namespace there, then says so to the init.
 * Before Linux 6.15 proc has no pidns option (EINVAL): then a child of
 * the helper's in that pid namespace mounts it. */
void
linux_mntns_proc_helper(int pid_r, int done_w)
{
	char path[64];
	pid_t init, c;
	int pidns, mnt, r, st;

	if (read(pid_r, &init, sizeof(init)) != sizeof(init) || init <= 0)
		_exit(1);
	/* The template's /proc, not an ended sandbox's. */
	linux_mntns_leave();
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init);
	pidns = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)init);
	mnt = open(path, O_RDONLY | O_CLOEXEC);
	if (pidns < 0 || mnt < 0 || setns(mnt, CLONE_NEWNS) < 0)
		_exit(1);
	r = linux_mount_own_proc(pidns);
	/* (The ended session's /proc is gone already.) */
	linux_mntns_reused = false;
	if (r == -EINVAL && setns(pidns, CLONE_NEWPID) == 0 &&
	    (c = _Fork()) >= 0) {
		if (c == 0)
			_exit(linux_mount_own_proc(-1) < 0);
		if (waitpid(c, &st, 0) == c && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0)
			r = 0;
	}
	if (r < 0 || write(done_w, "p", 1) != 1)
		_exit(1);
	_exit(0);
}
