/* Tunnels (HTTP CONNECT, SOCKS5): the first bytes must name the host asked for, then bytes flow both ways. */

/*
 * Without decrypting anything, a TLS ClientHello's server name or a plain
 * HTTP request's Host is compared with the destination the tunnel was
 * opened for: a tunnel to an allowed host that asks the far end for
 * another (domain fronting, a shared CDN edge) is closed and reported.
 * Until the client's first bytes have passed, nothing of them goes
 * upstream; the server's bytes flow at once, for protocols where the
 * server speaks first. Other protocols (SSH, ...) name no host and pass.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdio.h>
#include <sys/socket.h>

#include "daemon/proxy-int.h"
#include "daemon/sni.h"

/* A whole ClientHello in its largest form: every record header too. */
#define SNIFF_MAX (SNI_HELLO_MAX + 5 * (SNI_RECORDS_MAX + 1))

static void
mismatch(struct pconn *pc, const char *why, const struct host *named)
{
	struct proxy_denial d = { 0 };

	d.check = "tunnel check";
	d.why = why;
	if (named != NULL)
		snprintf(d.detail, sizeof(d.detail), "it names %s",
		    named->text);
	d.remedy = "a tunnel may only carry traffic for the host it was "
	    "opened to";
	proxy_report(pc, &d);
	pconn_close(pc);
}

/* 1: passed, 0: need more, -1: closed. */
static int
sniff(struct pconn *pc)
{
	struct evbuffer *in = bufferevent_get_input(pc->c);
	size_t len = evbuffer_get_length(in), need = 0;
	const uint8_t *buf;
	struct sni_hello hello;
	struct host h;
	const char *why = NULL;
	uint16_t port = 0;
	int r;

	if (len > SNIFF_MAX)
		len = SNIFF_MAX;
	buf = evbuffer_pullup(in, (ssize_t)len);
	r = sni_parse(buf, len, &hello, &need, &why);
	if (r == SNI_NEED_MORE && len == SNIFF_MAX) {
		mismatch(pc, "first bytes too long to check", NULL);
		return -1;
	}
	if (r == SNI_NEED_MORE)
		return 0;
	if (r == SNI_FOUND) {
		if (host_equal(&hello.host, &pc->host))
			return 1;
		mismatch(pc, "the TLS server name is another host",
		    &hello.host);
		return -1;
	}
	if (r == SNI_MALFORMED) {
		mismatch(pc, why ? why : "malformed TLS handshake", NULL);
		return -1;
	}
	if (r != SNI_NOT_TLS)
		return 1;	/* TLS without a server name */
	r = sni_http_host(buf, len, &h, &port, &why);
	switch (r) {
	case SNI_NEED_MORE:
		return 0;
	case SNI_FOUND:
		if (host_equal(&h, &pc->host) && (port == 0 ||
		    port == pc->port))
			return 1;
		mismatch(pc, "the HTTP request inside is for another host",
		    &h);
		return -1;
	case SNI_MALFORMED:
		mismatch(pc, why ? why : "malformed HTTP request", NULL);
		return -1;
	default:
		return 1;	/* no host named, or not HTTP */
	}
}

static bool
drained(struct bufferevent *bev)
{
	return evbuffer_get_length(bufferevent_get_output(bev)) == 0;
}

/* One side ended: pass the end on once its bytes are out. */
static void
half_close(struct pconn *pc)
{
	if (pc->c_eof && drained(pc->u))
		shutdown(bufferevent_getfd(pc->u), SHUT_WR);
	if (pc->u_eof && drained(pc->c))
		shutdown(bufferevent_getfd(pc->c), SHUT_WR);
	if (pc->c_eof && pc->u_eof && drained(pc->c) && drained(pc->u))
		pconn_close(pc);
}

static void
relay(struct pconn *pc, struct bufferevent *from, struct bufferevent *to)
{
	struct evbuffer *out = bufferevent_get_output(to);

	evbuffer_add_buffer(out, bufferevent_get_input(from));
	if (evbuffer_get_length(out) > PROXY_HIGH)
		bufferevent_disable(from, EV_READ);
}

static void
c_read_cb(struct bufferevent *bev, void *arg)
{
	struct pconn *pc = arg;
	int r;

	if (!pc->sniffed) {
		if ((r = sniff(pc)) <= 0)
			return;
		pc->sniffed = true;
		pconn_deadline(pc, 0);
	}
	relay(pc, pc->c, pc->u);
}

static void
u_read_cb(struct bufferevent *bev, void *arg)
{
	struct pconn *pc = arg;

	relay(pc, pc->u, pc->c);
}

static void
write_cb(struct bufferevent *bev, void *arg)
{
	struct pconn *pc = arg;
	struct bufferevent *from = bev == pc->c ? pc->u : pc->c;
	bool eof = bev == pc->c ? pc->u_eof : pc->c_eof;

	/* Below the low mark again: read more from the other side. */
	if (!eof)
		bufferevent_enable(from, EV_READ);
	if (pc->c_eof || pc->u_eof)
		half_close(pc);
}

static void
event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct pconn *pc = arg;

	if (!(what & BEV_EVENT_EOF)) {
		pconn_close(pc);
		return;
	}
	if (bev == pc->c) {
		/* The client ended before its first bytes decided: nothing
		 * unchecked goes upstream. */
		if (!pc->sniffed && evbuffer_get_length(
		    bufferevent_get_input(pc->c)) > 0) {
			pconn_close(pc);
			return;
		}
		pc->sniffed = true;
		pc->c_eof = true;
	} else {
		pc->u_eof = true;
	}
	half_close(pc);
}

void
tunnel_start(struct pconn *pc)
{
	pconn_deadline(pc, proxy_config()->head_timeout_ms);
	bufferevent_setcb(pc->c, c_read_cb, write_cb, event_cb, pc);
	bufferevent_setcb(pc->u, u_read_cb, write_cb, event_cb, pc);
	bufferevent_setwatermark(pc->c, EV_WRITE, PROXY_HIGH / 2, 0);
	bufferevent_setwatermark(pc->u, EV_WRITE, PROXY_HIGH / 2, 0);
	bufferevent_enable(pc->c, EV_READ);
	bufferevent_enable(pc->u, EV_READ);
	/* Bytes the client sent with its request are already here. */
	if (evbuffer_get_length(bufferevent_get_input(pc->c)) > 0)
		c_read_cb(pc->c, pc);
}
