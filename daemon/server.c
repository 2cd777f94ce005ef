/* Listening on the per-user socket and admitting only the served user (and
 * root, whose requests may be admin requests). */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/fdlimit.h"
#include "daemon/log.h"
#include "daemon/server.h"

static int listen_fd = -1;
static int lock_fd = -1;
static bool own_socket;
/* The socket as bound: what server_stop() may remove. */
static struct stat sock_st;
static struct event *accept_ev;
static struct fdlimit_waiter accept_waiter;

static void
accept_resume(void *arg)
{
	if (accept_ev)
		event_add(accept_ev, NULL);
}

/* An accepted connection, or -1. Out of fds, the reserve fd makes room
 * for one (so that `sbxctl status` is answered while a sandbox holds the
 * rest); when it is in use too, accepting pauses until an fd comes free,
 * instead of failing again at once for as long as the backlog is full. */
static int
accept_one(int fd)
{
	int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (c < 0 && fdlimit_exhausted(errno) && fdlimit_reserve_use() == 0)
		c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (c >= 0)
		return c;
	if (fdlimit_exhausted(errno)) {
		log_warn("accept: %s; waiting for one to close",
			 strerror(errno));
		event_del(accept_ev);
		fdlimit_wait(&accept_waiter);
	} else if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
		log_warn("accept: %s", strerror(errno));
	return -1;
}

static void
accept_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct conn *conn;
	int c;

	if ((c = accept_one(fd)) < 0)
		return;
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		close(c);
		return;
	}
	if (conn_new(c, cred.uid, cred.pid, &conn) < 0)
		return;
	if (cred.uid != sbxd.uid && cred.uid != 0) {
		log_warn("refusing uid %u (pid %d): this daemon serves uid %u",
			 (unsigned)cred.uid, (int)cred.pid, (unsigned)sbxd.uid);
		conn_fail(conn, SBX__ERROR_CODE__ERROR_CODE_PERMISSION,
			  "uid %u may not use the sbxd of uid %u",
			  (unsigned)cred.uid, (unsigned)sbxd.uid);
	}
}

/* One daemon per socket: a lock next to it decides, so a stale socket of a
 * dead daemon can be replaced without racing a live one. */
static int
take_lock(char *err, size_t errlen)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s.lock", sbxd.socket_path);
	lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen, "another sbxd is running on %s",
			 sbxd.socket_path);
		return -EADDRINUSE;
	}
	/* A hard link someone made at that name is not chowned. */
	if (sbxd.privileged && (fstat(lock_fd, &st) < 0 ||
				!S_ISREG(st.st_mode) || st.st_nlink != 1 ||
				fchown(lock_fd, sbxd.uid, sbxd.gid) < 0)) {
		snprintf(err, errlen, "%s: not a file of the daemon's", path);
		return -EPERM;
	}
	return 0;
}

static int
bind_socket(char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, r;

	if (strlen(sbxd.socket_path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket path too long");
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, sbxd.socket_path);
	if ((r = take_lock(err, errlen)) < 0)
		return r;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	unlink(sbxd.socket_path); /* stale: we hold the lock */
	old = umask(0177);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	/* lchown: a link put in its place is not followed (the default
	 * socket's directory is root's; a --socket elsewhere may not be). */
	if (r < 0 || listen(fd, 128) < 0 ||
	    (sbxd.privileged && lchown(sbxd.socket_path, sbxd.uid, sbxd.gid) < 0) ||
	    lstat(sbxd.socket_path, &sock_st) < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", sbxd.socket_path, strerror(-r));
		close(fd);
		return r;
	}
	own_socket = true;
	return fd;
}

int
server_start(int inherited_fd, char *err, size_t errlen)
{
	int fd = inherited_fd;

	if (fd < 0 && (fd = bind_socket(err, errlen)) < 0)
		return fd;
	evutil_make_socket_nonblocking(fd);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	listen_fd = fd;
	accept_waiter.cb = accept_resume;
	accept_ev = event_new(sbxd.base, fd, EV_READ | EV_PERSIST, accept_cb,
			      NULL);
	if (!accept_ev || event_add(accept_ev, NULL) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

void
server_stop(void)
{
	struct stat st;

	fdlimit_cancel(&accept_waiter);
	if (accept_ev) {
		event_free(accept_ev);
		accept_ev = NULL;
	}
	if (listen_fd >= 0)
		close(listen_fd);
	listen_fd = -1;
	/* Only ours: once it was removed, the path may be another daemon's. */
	if (own_socket && lstat(sbxd.socket_path, &st) == 0 &&
	    st.st_dev == sock_st.st_dev && st.st_ino == sock_st.st_ino)
		unlink(sbxd.socket_path);
	own_socket = false;
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}
