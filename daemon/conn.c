/* Client connections: reading frames (with SCM_RIGHTS fds), dispatching
 * them, writing replies, and tearing down a bad or departed peer without
 * disturbing anyone else. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/fdlimit.h"
#include "daemon/log.h"
#include "daemon/session.h"

/* A connection whose peer does not read its replies is dropped rather than
 * buffered without bound (streaming output has its own backpressure). */
#define CONN_OUT_MAX (64u << 20)
#define CONN_READ_CHUNK (64u * 1024)
/* Frames begun and not yet whole, all connections together, counted at
 * the size their headers announce: past this a connection that begins
 * another is refused (a client that stops mid-frame holds what it sent). */
#define CONN_PARTIAL_MAX (16u * WIRE_FRAME_MAX)

static struct conn *conns;
static unsigned nconns;
/* Where decoded requests go: rpc_dispatch, registered by main.c. */
static void (*dispatch)(struct conn *c, const Sbx__Envelope *env);
static size_t partial_total;
static unsigned frame_timeout_ms = CONN_FRAME_TIMEOUT_MS;

static void conn_read_cb(evutil_socket_t fd, short what, void *arg);
static void conn_write_cb(evutil_socket_t fd, short what, void *arg);
static void conn_frame_late(evutil_socket_t fd, short what, void *arg);
static void conn_resume_cb(evutil_socket_t fd, short what, void *arg);

void
conn_on_request(void (*fn)(struct conn *c, const Sbx__Envelope *env))
{
	dispatch = fn;
}

static void
conn_free_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg, **pp;
	int i;

	for (pp = &conns; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	nconns--;
	partial_total -= c->partial;
	events_unsubscribe(c);
	session_conn_gone(c);
	if (c->hup_ev)
		event_free(c->hup_ev);
	if (c->hup_fd >= 0)
		close(c->hup_fd);
	for (i = 0; i < c->nfds; i++)
		close(c->fds[i]);
	for (i = 0; i < c->nheld; i++)
		close(c->held_fds[i]);
	free(c->held);
	if (c->resume_ev)
		event_free(c->resume_ev);
	event_free(c->rev);
	event_free(c->wev);
	event_free(c->free_ev);
	event_free(c->frame_ev);
	evbuffer_free(c->in);
	evbuffer_free(c->out);
	close(c->fd);
	free(c);
	fdlimit_released();
}

/* Stops reading and frees the connection from a fresh event, after any
 * queued reply (usually the Error) has been written or cannot be. */
static void
conn_kill(struct conn *c)
{
	if (c->dead)
		return;
	c->dead = true;
	event_del(c->rev);
	event_del(c->frame_ev);
	if (evbuffer_get_length(c->out) > 0)
		evbuffer_write(c->out, c->fd);
	event_del(c->wev);
	event_active(c->free_ev, EV_TIMEOUT, 0);
}

int
conn_new(int fd, uid_t uid, pid_t pid, struct conn **out)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	c->hup_fd = -1;
	c->uid = uid;
	c->pid = pid;
	c->in = evbuffer_new();
	c->out = evbuffer_new();
	c->rev = event_new(sbxd.base, fd, EV_READ | EV_PERSIST, conn_read_cb, c);
	c->wev = event_new(sbxd.base, fd, EV_WRITE | EV_PERSIST, conn_write_cb,
			   c);
	c->free_ev = event_new(sbxd.base, -1, 0, conn_free_cb, c);
	c->frame_ev = evtimer_new(sbxd.base, conn_frame_late, c);
	if (!c->in || !c->out || !c->rev || !c->wev || !c->free_ev ||
	    !c->frame_ev) {
		if (c->rev)
			event_free(c->rev);
		if (c->wev)
			event_free(c->wev);
		if (c->free_ev)
			event_free(c->free_ev);
		if (c->frame_ev)
			event_free(c->frame_ev);
		if (c->in)
			evbuffer_free(c->in);
		if (c->out)
			evbuffer_free(c->out);
		close(fd);
		free(c);
		return -ENOMEM;
	}
	evutil_make_socket_nonblocking(fd);
	c->next = conns;
	conns = c;
	nconns++;
	event_add(c->rev, NULL);
	*out = c;
	return 0;
}

int
conn_send_id(struct conn *c, uint64_t id, const Sbx__Envelope *env)
{
	Sbx__Envelope e = *env;

	e.request_id = id;
	return conn_send(c, &e);
}

int
conn_send(struct conn *c, const Sbx__Envelope *env)
{
	uint8_t *buf;
	size_t len;
	int r;

	if (c->dead)
		return -EPIPE;
	if (evbuffer_get_length(c->out) > CONN_OUT_MAX) {
		log_warn("client pid %d does not read its replies; dropping",
			 (int)c->pid);
		conn_kill(c);
		return -ENOBUFS;
	}
	r = wire_encode(env, &buf, &len);
	if (r < 0)
		return r;
	r = evbuffer_add(c->out, buf, len);
	free(buf);
	if (r < 0)
		return -ENOMEM;
	event_add(c->wev, NULL);
	return 0;
}

static void __attribute__((format(printf, 4, 0)))
conn_verror(struct conn *c, uint64_t id, Sbx__ErrorCode code, const char *fmt,
	    va_list ap)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Error err = SBX__ERROR__INIT;
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	err.code = code;
	err.message = msg;
	env.msg_case = SBX__ENVELOPE__MSG_ERROR;
	env.error = &err;
	env.request_id = id;
	conn_send(c, &env);
}

void
conn_error(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	conn_verror(c, c->req, code, fmt, ap);
	va_end(ap);
}

void
conn_error_id(struct conn *c, uint64_t id, Sbx__ErrorCode code,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	conn_verror(c, id, code, fmt, ap);
	va_end(ap);
}

void
conn_fail(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
{
	va_list ap;

	if (c->dead)
		return;
	va_start(ap, fmt);
	conn_verror(c, c->req, code, fmt, ap);
	va_end(ap);
	log_info("client pid %d uid %u dropped (error %d)", (int)c->pid,
		 (unsigned)c->uid, (int)code);
	conn_kill(c);
}

/* Anything still in flight: a session or a subscription. */
static bool
conn_busy(struct conn *c)
{
	return session_conn_count(c) > 0 || events_subscribed(c, NULL);
}

/* A half-closed connection closes once nothing is in flight and what is
 * queued for it is written. */
static void
conn_maybe_close(struct conn *c)
{
	if (!c->read_eof || conn_busy(c))
		return;
	if (evbuffer_get_length(c->out) == 0)
		conn_kill(c);
	else
		c->closing = true;
}

void
conn_op_ended(struct conn *c, uint64_t id)
{
	c->ended[c->nended++ % CONN_ENDED] = id;
	conn_maybe_close(c);
}

bool
conn_op_was(const struct conn *c, uint64_t id)
{
	unsigned i, n = c->nended < CONN_ENDED ? c->nended : CONN_ENDED;

	for (i = 0; i < n; i++)
		if (c->ended[i] == id)
			return true;
	return false;
}

/* Both directions are shut: the client closed, not half-closed. */
static bool
peer_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

static void
conn_hup_cb(evutil_socket_t fd, short what, void *arg)
{
	conn_kill(arg);
}

/* The client shut down its writing side only (Node's socket.end()): that
 * is the end of its requests and of its sessions' stdin, not of the
 * connection, which stays for their output and exit status. An epoll
 * set watching for nothing reports EPOLLHUP alone: the full close. */
static int
conn_watch_hup(struct conn *c)
{
	struct epoll_event ev = { .events = 0 };

	if (c->hup_ev)
		return 0;
	if (c->hup_fd < 0 &&
	    (c->hup_fd = epoll_create1(EPOLL_CLOEXEC)) < 0)
		return -errno;
	if (epoll_ctl(c->hup_fd, EPOLL_CTL_ADD, c->fd, &ev) < 0 &&
	    errno != EEXIST)
		return -errno;
	c->hup_ev = event_new(sbxd.base, c->hup_fd, EV_READ, conn_hup_cb, c);
	if (!c->hup_ev || event_add(c->hup_ev, NULL) < 0)
		return -ENOMEM;
	return 0;
}

static int
conn_half_close(struct conn *c)
{
	c->read_eof = true;
	event_del(c->rev);
	event_del(c->frame_ev);
	session_conn_eof(c);
	if (!conn_busy(c))
		return -ENOTCONN; /* closed now, as a close would be */
	return conn_watch_hup(c);
}

int
conn_take_fds(struct conn *c, int n, int *fds)
{
	if (c->nfds != n)
		return -EBADMSG;
	memcpy(fds, c->fds, sizeof(int) * (size_t)n);
	c->nfds = 0;
	return 0;
}

static void
frame_deadline(struct conn *c)
{
	struct timeval tv = { frame_timeout_ms / 1000,
			      frame_timeout_ms % 1000 * 1000 };

	evtimer_add(c->frame_ev, &tv);
}

static void
conn_frame_late(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
		  "frame not completed within %u ms", frame_timeout_ms);
}

/* The frame in progress needs len bytes in all (0: none is): counted
 * against CONN_PARTIAL_MAX, and the deadline runs from its first byte.
 * -ENOBUFS when it would pass the cap. */
static int
frame_pending(struct conn *c, size_t len)
{
	if (len > c->partial &&
	    partial_total - c->partial + len > CONN_PARTIAL_MAX)
		return -ENOBUFS;
	if (c->partial == 0 && len > 0)
		frame_deadline(c);
	else if (len == 0)
		event_del(c->frame_ev);
	partial_total = partial_total - c->partial + len;
	c->partial = len;
	return 0;
}

void
conn_set_frame_timeout(unsigned ms)
{
	frame_timeout_ms = ms;
}

void
conn_pause_read(struct conn *c, bool pause)
{
	if (c->dead || c->read_eof || c->read_paused == pause)
		return;
	c->read_paused = pause;
	/* While the daemon does not read, the client cannot finish its
	 * frame: the deadline starts again when reading does. A held
	 * request keeps reading off until it is dispatched again. */
	if (c->held)
		return;
	if (pause) {
		event_del(c->rev);
		event_del(c->frame_ev);
	} else {
		event_add(c->rev, NULL);
		event_active(c->rev, EV_READ, 0); /* frames may be buffered */
		if (c->partial)
			frame_deadline(c);
	}
}

size_t
conn_out_pending(const struct conn *c)
{
	return evbuffer_get_length(c->out);
}

unsigned
conn_count(void)
{
	return nconns;
}

void
conn_flush_all(void)
{
	struct conn *c;

	for (c = conns; c; c = c->next)
		if (evbuffer_get_length(c->out) > 0)
			evbuffer_write(c->out, c->fd);
}

void
conn_close_all(void)
{
	while (conns)
		conn_free_cb(-1, 0, conns);
}

/* Decodes and dispatches every whole frame in the input buffer. */
static void
conn_process(struct conn *c)
{
	while (!c->dead && !c->read_paused && !c->held) {
		size_t avail = evbuffer_get_length(c->in), flen;
		uint8_t *p = evbuffer_pullup(c->in, avail < WIRE_HEADER ?
						 (ssize_t)avail : WIRE_HEADER);
		Sbx__Envelope *env;
		int r;

		r = wire_frame_check(p, avail, &flen);
		if (r < 0) {
			conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
				  "frame larger than %u bytes", WIRE_FRAME_MAX);
			return;
		}
		if (r == 0) {
			flen = avail ? wire_frame_need(p, avail) : 0;
			if (frame_pending(c, flen) < 0)
				conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
					  "frame of %zu bytes refused: the "
					  "daemon holds %zu MiB of other "
					  "clients' unfinished frames; retry",
					  flen, partial_total >> 20);
			return;
		}
		frame_pending(c, 0);
		p = evbuffer_pullup(c->in, (ssize_t)flen);
		r = wire_decode(p + WIRE_HEADER, flen - WIRE_HEADER, &env);
		evbuffer_drain(c->in, flen);
		if (r < 0) {
			conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
				  "undecodable frame");
			return;
		}
		c->cur = env;
		dispatch(c, env);
		c->cur = NULL;
		wire_envelope_free(env);
	}
}

int
conn_hold(struct conn *c, const int *fds, int nfds)
{
	uint8_t *buf;
	size_t len;
	int r;

	if (!c->cur || c->held || c->dead)
		return -EINVAL;
	if (!c->resume_ev &&
	    !(c->resume_ev = event_new(sbxd.base, -1, 0, conn_resume_cb, c)))
		return -ENOMEM;
	if ((r = wire_encode(c->cur, &buf, &len)) < 0)
		return r;
	/* Not reading, the close of the peer would go unseen until the
	 * request is dispatched again. */
	if ((r = conn_watch_hup(c)) < 0) {
		free(buf);
		return r;
	}
	c->held = buf;
	c->held_len = len;
	memcpy(c->held_fds, fds, sizeof(int) * (size_t)nfds);
	c->nheld = nfds;
	event_del(c->rev);
	event_del(c->frame_ev);
	return 0;
}

void
conn_resume(struct conn *c)
{
	if (c->held && !c->dead)
		event_active(c->resume_ev, EV_TIMEOUT, 0);
}

/* The held request once more, its fds ahead of any a later frame brought;
 * then reading goes on unless the request was held again. */
static void
conn_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	Sbx__Envelope *env;
	uint8_t *buf = c->held;
	int r, i;

	c->held = NULL;
	r = c->dead ? -EPIPE : c->nfds + c->nheld > FDPASS_MAX ?
	    -ETOOMANYREFS : wire_decode(buf + WIRE_HEADER,
	    c->held_len - WIRE_HEADER, &env);
	free(buf);
	if (r < 0) {
		for (i = 0; i < c->nheld; i++)
			close(c->held_fds[i]);
		c->nheld = 0;
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			  "a held request could not be taken up again");
		return;
	}
	memmove(c->fds + c->nheld, c->fds, sizeof(int) * (size_t)c->nfds);
	memcpy(c->fds, c->held_fds, sizeof(int) * (size_t)c->nheld);
	c->nfds += c->nheld;
	c->nheld = 0;
	c->cur = env;
	dispatch(c, env);
	c->cur = NULL;
	wire_envelope_free(env);
	/* Whether the run started or failed on the way (its workspace gone
	 * meanwhile, say), nothing of the results outlives this dispatch. */
	if (!c->held)
		session_cred_done(c);
	if (c->held || c->dead || c->read_paused || c->read_eof)
		return;
	event_add(c->rev, NULL);
	event_active(c->rev, EV_READ, 0); /* frames may be buffered */
	if (c->partial)
		frame_deadline(c);
}

static void
conn_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	uint8_t buf[CONN_READ_CHUNK];
	int fds[FDPASS_MAX], nfds = 0, i;
	ssize_t n;

	if (c->read_paused || c->dead || c->read_eof || c->held)
		return;
	n = fdpass_recv(fd, buf, sizeof(buf), fds, &nfds, FDPASS_MAX);
	for (i = 0; i < nfds; i++) {
		if (c->nfds < FDPASS_MAX)
			c->fds[c->nfds++] = fds[i];
		else {
			close(fds[i]);
			n = -ETOOMANYREFS;
		}
	}
	if (n == -ETOOMANYREFS) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
			  "too many file descriptors");
		return;
	}
	if (n == -EAGAIN)
		goto process; /* woken by conn_pause_read(false) */
	if (n == 0) {
		/* Whole frames that came before the end are requests still
		 * (held while reading was paused); the end is read again
		 * once reading resumes. */
		conn_process(c);
		if (c->dead || c->read_paused || c->held)
			return;
		if (evbuffer_get_length(c->in) > 0) {
			/* Half-closed mid-frame: say so; the peer may
			 * still read. */
			conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
				  "truncated frame");
			return;
		}
		if (!peer_closed(fd) && conn_half_close(c) == 0)
			return;
	}
	if (n <= 0) {
		conn_kill(c);
		return;
	}
	evbuffer_add(c->in, buf, (size_t)n);
process:
	conn_process(c);
}

void
conn_flush(struct conn *c)
{
	if (!c->dead && evbuffer_get_length(c->out) > 0)
		conn_write_cb(c->fd, EV_WRITE, c);
}

static void
conn_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	int n = evbuffer_write(c->out, fd);

	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		conn_kill(c);
		return;
	}
	if (evbuffer_get_length(c->out) == 0) {
		event_del(c->wev);
		if (c->closing) {
			conn_kill(c);
			return;
		}
	}
	session_conn_drained(c, evbuffer_get_length(c->out));
}

bool
conn_hung_up(const struct conn *c)
{
	struct pollfd p = { .fd = c->fd };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}
