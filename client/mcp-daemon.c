/* sbxctl mcp's connection to sbxd: frames queued out and read in on the
 * event loop, each handed on by its request id. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdlib.h>

#include "client/mcp.h"

struct mcp_daemon {
	struct mcp *m;
	int fd;
	struct evbuffer *in, *out;
	struct event *rev, *wev;
};

static void
lost(struct mcp_daemon *d, const char *why)
{
	event_del(d->rev);
	event_del(d->wev);
	if (!d->m->lost) {
		d->m->lost = true;
		mcp_proc_lost(d->m, why);
	}
	event_base_loopbreak(d->m->base);
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mcp_daemon *d = arg;
	int n = evbuffer_read(d->in, fd, 256 * 1024);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		lost(d, "lost the connection to sbxd");
		return;
	}
	while (!d->m->lost) {
		size_t avail = evbuffer_get_length(d->in), flen;
		uint8_t *p = evbuffer_pullup(d->in, avail < WIRE_HEADER ?
						 (ssize_t)avail : WIRE_HEADER);
		Sbx__Envelope *env;
		int k = wire_frame_check(p, avail, &flen);

		if (k == 0)
			return;
		if (k > 0) {
			p = evbuffer_pullup(d->in, (ssize_t)flen);
			k = wire_decode(p + WIRE_HEADER, flen - WIRE_HEADER,
					&env);
			evbuffer_drain(d->in, flen);
		}
		if (k < 0) {
			lost(d, "a bad frame from sbxd");
			return;
		}
		mcp_proc_frame(d->m, env);
		wire_envelope_free(env);
	}
}

static void
write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mcp_daemon *d = arg;

	if (evbuffer_write(d->out, fd) < 0 && errno != EAGAIN &&
	    errno != EINTR) {
		lost(d, "lost the connection to sbxd");
		return;
	}
	if (!evbuffer_get_length(d->out))
		event_del(d->wev);
}

struct mcp_daemon *
mcp_daemon_new(struct mcp *m, struct client *c)
{
	struct mcp_daemon *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->m = m;
	d->fd = c->fd;
	d->in = evbuffer_new();
	d->out = evbuffer_new();
	d->rev = event_new(m->base, d->fd, EV_READ | EV_PERSIST, read_cb, d);
	d->wev = event_new(m->base, d->fd, EV_WRITE | EV_PERSIST, write_cb,
			   d);
	if (!d->in || !d->out || !d->rev || !d->wev ||
	    event_add(d->rev, NULL) < 0) {
		mcp_daemon_free(d);
		return NULL;
	}
	evutil_make_socket_nonblocking(d->fd);
	return d;
}

int
mcp_daemon_send(struct mcp_daemon *d, const Sbx__Envelope *env, uint64_t op)
{
	Sbx__Envelope e = *env;
	uint8_t *buf;
	size_t len;
	int r;

	if (d->m->lost)
		return -EPIPE;
	e.request_id = op;
	if ((r = wire_encode(&e, &buf, &len)) < 0)
		return r;
	r = evbuffer_add(d->out, buf, len) < 0 ? -ENOMEM : 0;
	free(buf);
	event_add(d->wev, NULL);
	return r;
}

void
mcp_daemon_flush(struct mcp_daemon *d)
{
	int fl = fcntl(d->fd, F_GETFL);

	fcntl(d->fd, F_SETFL, fl & ~O_NONBLOCK);
	while (!d->m->lost && evbuffer_get_length(d->out) > 0 &&
	       evbuffer_write(d->out, d->fd) > 0)
		;
	fcntl(d->fd, F_SETFL, fl);
}

void
mcp_daemon_free(struct mcp_daemon *d)
{
	if (!d)
		return;
	if (d->rev)
		event_free(d->rev);
	if (d->wev)
		event_free(d->wev);
	if (d->in)
		evbuffer_free(d->in);
	if (d->out)
		evbuffer_free(d->out);
	free(d);
}
