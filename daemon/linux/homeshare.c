/* One home overlay per workspace: the template keeps the overlay it
 * mounted and hands a clone of it (same superblock) to a -t sandbox of the
 * workspace, which mounts that instead of a second overlay of the same
 * upper layer (two would each cache their own view of it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mount.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "proto/fdpass.h"

/* The overlay this process mounted (a template's), or -1. */
static int kept = -1;

void
linux_homeshare_keep(int mnt)
{
	if (kept < 0)
		kept = fcntl(mnt, F_DUPFD_CLOEXEC, 3);
}

/* The template's answer to a request ('h'): a detached clone of its home
 * overlay mount alone (what is mounted on top is the sandbox's to make),
 * or the errno why not, on reply. */
void
linux_homeshare_answer(int reply)
{
	int32_t err = 0;
	int fd = -1;

	if (kept < 0)
		err = ENOENT; /* a failed build, or no overlay */
	else if ((fd = open_tree(kept, "", OPEN_TREE_CLONE |
				 OPEN_TREE_CLOEXEC | AT_EMPTY_PATH)) < 0)
		err = errno;
	/* A failed send: the sandbox that asked is gone. */
	(void)fdpass_send(reply, &err, sizeof(err), &fd, fd >= 0 ? 1 : 0);
	if (fd >= 0)
		close(fd);
}

/* In the sandbox: the template's overlay, detached, from sock; -errno
 * when the template could not give it (-EIO: it died first). */
int
linux_homeshare_recv(int sock)
{
	int32_t err = EIO;
	int fd = -1, nfds = 0;
	ssize_t n = fdpass_recv(sock, &err, sizeof(err), &fd, &nfds, 1);

	if (n == sizeof(err) && nfds == 1 && err == 0)
		return fd;
	if (nfds == 1)
		close(fd);
	if (n < 0)
		return (int)n;
	return n == sizeof(err) && err > 0 ? -err : -EIO;
}
