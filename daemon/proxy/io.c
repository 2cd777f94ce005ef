/* Proxied sockets: read in adaptive sizes, written at once, events only when a socket is full. */

/*
 * Why not bufferevents: a proxy's cost is syscalls per request, and a
 * bufferevent writes only from its write event (an epoll_ctl to arm it,
 * a loop turn, another epoll_ctl to disarm) and reads at most 4 KiB per
 * call. Here a write goes out in the same turn it was queued in, the
 * write event is armed only when the kernel pushes back, and reads grow
 * to 256 KiB while the peer keeps them full. Errors found while writing
 * inside a protocol's callback are reported from the loop, so a callback
 * never has its pconn closed under it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/proxy/io.h"

#define READ_MIN (16u * 1024)
#define READ_MAX (256u * 1024)

struct pio {
	int fd;
	struct pconn *pc;
	const struct pio_ops *ops;
	struct event *rev, *wev;
	struct evbuffer *in, *out;
	size_t low, rsize;
	int err;
	bool reading, raw, connecting, shut_pending, failed;
};

static void read_cb(evutil_socket_t fd, short what, void *arg);
static void write_cb(evutil_socket_t fd, short what, void *arg);

static int
arm(struct pio *p)
{
	int one = 1;

	p->rev = event_new(sbxd.base, p->fd, EV_READ | EV_PERSIST, read_cb, p);
	p->wev = event_new(sbxd.base, p->fd, EV_WRITE | EV_PERSIST, write_cb,
	    p);
	if (p->rev == NULL || p->wev == NULL)
		return -ENOMEM;
	/* Requests and answers are small: no Nagle delay on either side. */
	setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

struct pio *
pio_new(int fd, struct pconn *pc)
{
	struct pio *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p->fd = fd;
	p->pc = pc;
	p->rsize = READ_MIN;
	p->in = evbuffer_new();
	p->out = evbuffer_new();
	if (p->in == NULL || p->out == NULL || (fd >= 0 &&
	    (evutil_make_socket_nonblocking(fd) < 0 || arm(p) < 0))) {
		pio_free(p);
		return NULL;
	}
	return p;
}

void
pio_free(struct pio *p)
{
	if (p == NULL)
		return;
	if (p->rev != NULL)
		event_free(p->rev);
	if (p->wev != NULL)
		event_free(p->wev);
	if (p->in != NULL)
		evbuffer_free(p->in);
	if (p->out != NULL)
		evbuffer_free(p->out);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

void
pio_loopback(struct pio *p)
{
	/*
	 * The default congestion control may be BBR, which paces: a timer
	 * per burst, about a sixth of the daemon's CPU in a bulk download,
	 * for a hop with no network to be fair to. Reno is always built in
	 * and allowed to unprivileged callers; failing is harmless.
	 */
	static const char reno[] = "reno";

	setsockopt(p->fd, IPPROTO_TCP, TCP_CONGESTION, reno, sizeof(reno) - 1);
}

void
pio_set_ops(struct pio *p, const struct pio_ops *ops)
{
	p->ops = ops;
}

struct evbuffer *
pio_in(struct pio *p)
{
	return p->in;
}

struct evbuffer *
pio_out(struct pio *p)
{
	return p->out;
}

size_t
pio_pending(const struct pio *p)
{
	return evbuffer_get_length(p->out);
}

int
pio_error(const struct pio *p)
{
	return p->err;
}

void
pio_read(struct pio *p, bool on)
{
	if (p->reading == on || p->rev == NULL)
		return;
	p->reading = on;
	if (on)
		event_add(p->rev, NULL);
	else
		event_del(p->rev);
}

void
pio_raw(struct pio *p, bool raw)
{
	p->raw = raw;
}

/* rsize grows only from reads that filled it. */
bool
pio_bulk(const struct pio *p)
{
	return p->rsize > READ_MIN;
}

void
pio_low_mark(struct pio *p, size_t low)
{
	p->low = low;
}

/* Reads into p->in; the size grows while reads come back full. */
static ssize_t
read_some(struct pio *p)
{
	struct evbuffer_iovec v[2];
	size_t left;
	ssize_t n;
	int nv, i;

	nv = evbuffer_reserve_space(p->in, (ev_ssize_t)p->rsize, v, 2);
	if (nv <= 0) {
		errno = ENOMEM;
		return -1;
	}
	do
		n = readv(p->fd, (struct iovec *)v, nv);
	while (n < 0 && errno == EINTR);
	left = n > 0 ? (size_t)n : 0;
	for (i = 0; i < nv; i++) {
		if (v[i].iov_len > left)
			v[i].iov_len = left;
		left -= v[i].iov_len;
	}
	evbuffer_commit_space(p->in, v, nv);
	/* The space reserved may be larger than asked for: full is at
	 * least rsize. */
	if (n > 0 && (size_t)n >= p->rsize && p->rsize < READ_MAX)
		p->rsize *= 2;
	else if (n > 0 && (size_t)n < p->rsize / 8 && p->rsize > READ_MIN)
		p->rsize /= 2;
	return n;
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pio *p = arg;
	ssize_t n;

	if (p->raw) {
		p->ops->read(p->pc, p);
		return;
	}
	n = read_some(p);
	if (n > 0) {
		p->ops->read(p->pc, p);
		return;
	}
	if (n < 0 && errno == EAGAIN)
		return;
	pio_read(p, false);
	if (n < 0)
		p->err = errno;
	p->ops->event(p->pc, p, n == 0 ? PIO_EOF : PIO_ERROR);
}

/* Writes what the socket takes; arms the write event for the rest. */
static void
flush(struct pio *p)
{
	int n;

	if (p->failed || p->connecting || p->fd < 0)
		return;
	while (evbuffer_get_length(p->out) > 0) {
		n = evbuffer_write(p->out, p->fd);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			/* Told from the loop: the caller may be a callback. */
			p->err = errno;
			p->failed = true;
			event_active(p->wev, EV_WRITE, 0);
			return;
		}
		break;
	}
	if (evbuffer_get_length(p->out) > 0) {
		if (!event_pending(p->wev, EV_WRITE, NULL))
			event_add(p->wev, NULL);
		return;
	}
	if (event_pending(p->wev, EV_WRITE, NULL))
		event_del(p->wev);
	if (p->shut_pending) {
		p->shut_pending = false;
		shutdown(p->fd, SHUT_WR);
	}
}

static void
connected(struct pio *p, short what)
{
	socklen_t len = sizeof(p->err);

	p->connecting = false;
	event_del(p->wev);
	if (what & EV_TIMEOUT) {
		p->err = ETIMEDOUT;
		p->ops->event(p->pc, p, PIO_TIMEOUT);
		return;
	}
	if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &p->err, &len) < 0)
		p->err = errno;
	if (p->err != 0) {
		p->failed = true;
		p->ops->event(p->pc, p, PIO_ERROR);
		return;
	}
	p->ops->event(p->pc, p, PIO_CONNECTED);
}

static void
write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pio *p = arg;

	if (p->connecting) {
		connected(p, what);
		return;
	}
	if (p->failed) {
		event_del(p->wev);
		p->ops->event(p->pc, p, PIO_ERROR);
		return;
	}
	flush(p);
	if (!p->failed && evbuffer_get_length(p->out) <= p->low &&
	    p->ops->drained != NULL)
		p->ops->drained(p->pc, p);
}

void
pio_flush(struct pio *p)
{
	flush(p);
}

/* Calls ops->drained once the socket is writable (for writes made
 * around the queue, with splice). */
static void
pio_want_write(struct pio *p)
{
	if (!p->failed && !event_pending(p->wev, EV_WRITE, NULL))
		event_add(p->wev, NULL);
}

void
pio_write(struct pio *p, const void *data, size_t len)
{
	if (evbuffer_add(p->out, data, len) < 0 && !p->failed) {
		p->err = ENOMEM;
		p->failed = true;
		event_active(p->wev, EV_WRITE, 0);
		return;
	}
	flush(p);
}

void
pio_write_buffer(struct pio *p, struct evbuffer *buf)
{
	evbuffer_add_buffer(p->out, buf);
	flush(p);
}

void
pio_shutdown(struct pio *p)
{
	p->shut_pending = true;
	flush(p);
}

int
pio_connect(struct pio *p, const struct sockaddr *sa, socklen_t len,
    unsigned timeout_ms)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	return pio_connect_fd(p, fd, sa, len, timeout_ms);
}

int
pio_connect_fd(struct pio *p, int fd, const struct sockaddr *sa,
    socklen_t len, unsigned timeout_ms)
{
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	int r;

	p->fd = fd;
	if (arm(p) < 0)
		return -ENOMEM;
	do
		r = connect(p->fd, sa, len);
	while (r < 0 && errno == EINTR);
	if (r < 0 && errno != EINPROGRESS)
		return -errno;
	p->connecting = true;
	event_add(p->wev, &tv);
	if (r == 0)
		event_active(p->wev, EV_WRITE, 0);
	return 0;
}

void
pio_pipe_init(struct pio_pipe *pp)
{
	pp->fd[0] = pp->fd[1] = -1;
	pp->held = pp->size = 0;
	pp->filled = pp->grown = false;
}

int
pio_pipe_open(struct pio_pipe *pp)
{
	int size;

	if (pp->fd[0] >= 0)
		return 0;
	if (pipe2(pp->fd, O_NONBLOCK | O_CLOEXEC) < 0) {
		pp->fd[0] = pp->fd[1] = -1;
		return -errno;
	}
	/* Past the user's pipe-page quota a new pipe is smaller. */
	size = fcntl(pp->fd[1], F_GETPIPE_SZ);
	pp->size = size > 0 ? (size_t)size : 4096;
	return 0;
}

void
pio_pipe_close(struct pio_pipe *pp)
{
	if (pp->fd[0] >= 0) {
		close(pp->fd[0]);
		close(pp->fd[1]);
	}
	pio_pipe_init(pp);
}

ssize_t
pio_splice_in(struct pio *src, struct pio_pipe *pp, size_t max)
{
	ssize_t n;
	int size;

	if (max > PIO_SPLICE_MAX)
		max = PIO_SPLICE_MAX;
	do
		n = splice(src->fd, NULL, pp->fd[1], NULL, max,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	pp->held += (size_t)n;
	/* Full by slots, not bytes: a slot holds a page or less. */
	pp->filled = (size_t)n > pp->size / 2;
	/* Bulk is flowing: best effort, once (the quota may refuse, and
	 * would on every splice after). */
	if (pp->filled && !pp->grown) {
		pp->grown = true;
		if ((size = fcntl(pp->fd[1], F_SETPIPE_SZ, PIO_SPLICE_MAX)) > 0)
			pp->size = (size_t)size;
	}
	return n;
}

int
pio_splice_out(struct pio *dst, struct pio_pipe *pp)
{
	ssize_t n;

	while (pp->held > 0) {
		n = splice(pp->fd[0], NULL, dst->fd, NULL, pp->held,
		    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			pp->held -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			pio_want_write(dst);
			return -EAGAIN;
		}
		return n < 0 ? -errno : -EPIPE;
	}
	return 0;
}
