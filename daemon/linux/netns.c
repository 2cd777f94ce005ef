/* A template's network namespaces, made once and used again. Making a
 * network namespace (its loopback, its sysctl tables) and the kernel's
 * teardown of one after the session cost about as much CPU as the rest of
 * a sandbox together, so a namespace whose session ended cleanly serves
 * the next sandbox of the same template.
 *
 * Used again only when nothing of the old session can be left in it: the
 * daemon gives a namespace back (one of its proxy listeners, 'r') once the
 * session init has reported the command's exit, which it does after every
 * process of the sandbox was killed and reaped, and after the daemon
 * closed the proxy's listeners and connections; the template closes the
 * last reference to the listener, which drops whatever connection was
 * still queued on it. No sandbox's process survives to hold a socket, and
 * one without capabilities can change nothing else there (routes, rules,
 * sysctls). What may remain is TCP TIME_WAIT state, which delays binding
 * the same port without SO_REUSEADDR, as it would on a host.
 *
 * Never two sandboxes at once: a namespace is lent to one sandbox and is
 * taken back only through that sandbox's listener; the namespace of a
 * listener the template did not lend (another template's, the host's) is
 * refused. A session that was killed or failed gives nothing back: its
 * namespace goes with it. Runs in the template's spawner only. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "daemon/linux/linux.h"

#ifndef SIOCGSKNETNS
#define SIOCGSKNETNS 0x894C
#endif

/* Lent namespaces remembered (the oldest forgotten beyond: it is not used
 * again) and idle ones kept. */
#define LENT_MAX 16
#define IDLE_MAX 4

struct held {
	int fd;
	ino_t ino;
};

static struct held lent[LENT_MAX], idle[IDLE_MAX];
static int nlent, nidle, home = -1;

/* The network namespace sock is in (needs CAP_NET_ADMIN over it). */
static int
netns_of(int sock, ino_t *ino)
{
	struct stat st;
	int fd = ioctl(sock, SIOCGSKNETNS);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	*ino = st.st_ino;
	return fd;
}

static int
current_netns(ino_t *ino)
{
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), fd;

	if (s < 0)
		return -errno;
	fd = netns_of(s, ino);
	close(s);
	return fd;
}

/* A new namespace, made by the template for itself and left at once. */
static int
fresh(ino_t *ino)
{
	int fd;

	if (unshare(CLONE_NEWNET) < 0)
		return -errno;
	fd = current_netns(ino);
	if (setns(home, CLONE_NEWNET) < 0) {
		/* Cannot happen with our own namespace's fd; never go on
		 * from inside one that is lent. */
		_exit(125);
	}
	return fd;
}

int
linux_netns_lend(void)
{
	struct held h;
	ino_t ino;

	if (home < 0 && (home = current_netns(&ino)) < 0)
		return home;
	if (nidle > 0) {
		/* The one idle longest: none waits for ever. */
		h = idle[0];
		memmove(&idle[0], &idle[1], (size_t)(--nidle) * sizeof(idle[0]));
	} else if ((h.fd = fresh(&h.ino)) < 0)
		return h.fd;
	if (nlent == LENT_MAX) {
		close(lent[0].fd);
		memmove(&lent[0], &lent[1], (LENT_MAX - 1) * sizeof(lent[0]));
		nlent--;
	}
	/* Ours stays open while lent: its number cannot be reused. */
	lent[nlent] = h;
	h.fd = fcntl(h.fd, F_DUPFD_CLOEXEC, 3);
	if (h.fd < 0) {
		close(lent[nlent].fd);
		return -errno;
	}
	nlent++;
	return h.fd;
}

void
linux_netns_return(int sock)
{
	ino_t ino;
	int fd = netns_of(sock, &ino), i;

	/* The last reference to the listener: its queue goes with it. */
	close(sock);
	if (fd < 0)
		return;
	close(fd);
	for (i = 0; i < nlent && lent[i].ino != ino; i++)
		;
	if (i == nlent)
		return; /* not one we lent (or forgotten): never used again */
	if (nidle < IDLE_MAX)
		idle[nidle++] = lent[i];
	else
		close(lent[i].fd);
	memmove(&lent[i], &lent[i + 1], (size_t)(nlent - i - 1) * sizeof(lent[0]));
	nlent--;
}

int
linux_netns_enter(int nsfd)
{
	return setns(nsfd, CLONE_NEWNET) < 0 ? -errno : 0;
}

void
linux_netns_leave(void)
{
	if (setns(home, CLONE_NEWNET) < 0)
		_exit(125);
}
