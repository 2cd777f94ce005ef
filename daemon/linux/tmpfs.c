/* Size-limited tmpfs instances for the daemon (a workspace's /tmp): made
 * detached (fsmount), never attached in the daemon's mount namespace, so
 * nothing of them is on the host; sandboxes clone the mount from the fd.
 * A root daemon makes them itself; a user's daemon, which may mount
 * nothing, in a child that enters a user namespace of its own (tmpfs
 * mounts there) and sends the mount back. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

static int
new_tmpfs(uint64_t size)
{
	char bytes[32], inodes[32];
	/* Inodes bounded too: empty files cost kernel memory the size does
	 * not count. One per KiB of size. */
	const char *const opts[] = { "size", bytes, "nr_inodes", inodes,
				     "mode", "0700", NULL };

	snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)size);
	snprintf(inodes, sizeof(inodes), "%llu",
		 (unsigned long long)(size / 1024 < 1024 ? 1024 : size / 1024));
	return lmount_new_fs_with("tmpfs", opts, MOUNT_ATTR_NOSUID |
				  MOUNT_ATTR_NODEV);
}

static int
map_self(const char *file, unsigned id)
{
	char path[32], map[40];
	int fd, n, ok;

	snprintf(path, sizeof(path), "/proc/self/%s", file);
	n = snprintf(map, sizeof(map), "%u %u 1", id, id);
	if (!strcmp(file, "setgroups"))
		n = snprintf(map, sizeof(map), "deny");
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -errno;
	ok = write(fd, map, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -EPERM;
}

/* A user namespace where the user (uid, gid) is itself, for a daemon
 * that is not root; a mount namespace of its own either way. */
static int
own_namespaces(unsigned uid, unsigned gid)
{
	int r;

	if (unshare(uid ? CLONE_NEWUSER | CLONE_NEWNS : CLONE_NEWNS) < 0)
		return -errno;
	if (uid && ((r = map_self("uid_map", uid)) < 0 ||
		    (r = map_self("setgroups", 0)) < 0 ||
		    (r = map_self("gid_map", gid)) < 0))
		return r;
	return 0;
}

/* The child: the tmpfs made in namespaces of its own (tmpfs mounts in a
 * user namespace; the user is itself there, so its files are the
 * user's) and sent back; or -errno. */
static void __attribute__((noreturn))
child(int sock, uint64_t size)
{
	/* Read before: unmapped ids read as the overflow id after. */
	unsigned uid = (unsigned)geteuid(), gid = (unsigned)getegid();
	int32_t err;
	int mnt = -1;

	if ((err = own_namespaces(uid, gid)) == 0 &&
	    (mnt = new_tmpfs(size)) < 0)
		err = mnt;
	fdpass_send(sock, &err, sizeof(err), &mnt, mnt >= 0 ? 1 : 0);
	_exit(0);
}

int
sandbox_tmpfs_new(uint64_t size, int *mnt_out)
{
	int sv[2], fds[1], nfds = 0, mnt, status;
	int32_t err = -EIO;
	ssize_t n;
	pid_t pid;

	if (geteuid() == 0) {
		if ((mnt = new_tmpfs(size)) < 0)
			return mnt;
		*mnt_out = mnt;
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	if ((pid = fork()) < 0) {
		err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], size);
	}
	close(sv[1]);
	n = fdpass_recv(sv[0], &err, sizeof(err), fds, &nfds, 1);
	close(sv[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n != sizeof(err) || err < 0 || nfds != 1) {
		if (nfds == 1)
			close(fds[0]);
		return n != sizeof(err) ? -EIO : err < 0 ? err : -EIO;
	}
	*mnt_out = fds[0];
	return 0;
}

bool
linux_tmpfs_probe(void)
{
	unsigned uid = (unsigned)geteuid(), gid = (unsigned)getegid();
	int mnt, status = -1;
	pid_t pid;

	if (sandbox_tmpfs_new(1 << 20, &mnt) < 0)
		return false;
	/* A sandbox's view: namespaces other than the ones it was made in. */
	if ((pid = fork()) == 0) {
		int t = -1;

		if (own_namespaces(uid, gid) == 0)
			t = open_tree(mnt, "", OPEN_TREE_CLONE |
				      OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		_exit(t >= 0 ? 0 : 1);
	}
	close(mnt);
	if (pid < 0)
		return false;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
