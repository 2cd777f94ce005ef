/* Watches the directory of the daemon's socket: once the socket is gone
 * (logind removes the runtime dir at logout), no client can reach the
 * daemon again, and it stops instead of holding its sandboxes for nobody
 * while the next sbxctl starts a second daemon. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/sockwatch.h"

static int ifd = -1;
static struct event *ev;
static const char *sock;
static dev_t sock_dev;
static ino_t sock_ino;
static void (*gone_cb)(void);

static bool
still_there(void)
{
	struct stat st;

	return lstat(sock, &st) == 0 && st.st_dev == sock_dev &&
	       st.st_ino == sock_ino;
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	if (still_there())
		return;
	log_info("%s is gone: stopping", sock);
	sockwatch_stop();
	gone_cb();
}

int
sockwatch_start(struct event_base *base, const char *path, void (*gone)(void))
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) < 0 || snprintf(dir, sizeof(dir), "%s", path) >=
	    (int)sizeof(dir))
		return -errno ? -errno : -ENAMETOOLONG;
	sock = path;
	sock_dev = st.st_dev;
	sock_ino = st.st_ino;
	gone_cb = gone;
	ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ifd < 0)
		return -errno;
	/* The socket removed or renamed, or its directory (or the file
	 * system under it) going. */
	if (inotify_add_watch(ifd, dirname(dir), IN_DELETE | IN_MOVED_FROM |
			      IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT |
			      IN_ONLYDIR) < 0) {
		int e = -errno;

		sockwatch_stop();
		return e;
	}
	ev = event_new(base, ifd, EV_READ | EV_PERSIST, read_cb, NULL);
	if (!ev || event_add(ev, NULL) < 0) {
		sockwatch_stop();
		return -ENOMEM;
	}
	return 0;
}

void
sockwatch_stop(void)
{
	if (ev)
		event_free(ev);
	ev = NULL;
	if (ifd >= 0)
		close(ifd);
	ifd = -1;
}
