/* The SOCKS5 proxy: no-auth greeting, CONNECT by name, IPv4 or IPv6, then a tunnel. */
#include <errno.h>
#include <event2/buffer.h>
#include <string.h>

#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/socks5.h"

enum { S_GREET, S_REQUEST, S_DIAL };

/* Sends a reply (bound address 0.0.0.0:0: the client learns nothing of
 * the host's addresses) and, unless it is success, ends. */
static void
socks_reply(struct pconn *pc, uint8_t rep)
{
	uint8_t out[SOCKS5_REPLY_MAX];
	int n = socks5_reply(rep, NULL, 0, out, sizeof(out));

	if (n > 0)
		pio_write(pc->c, out, (size_t)n);
	if (rep != SOCKS5_REP_SUCCEEDED)
		pconn_finish(pc);
}

static uint8_t
rep_for_errno(int err)
{
	switch (err) {
	case -EACCES:
		return SOCKS5_REP_NOT_ALLOWED;
	case -ECONNREFUSED:
		return SOCKS5_REP_REFUSED;
	case -ENETUNREACH:
		return SOCKS5_REP_NET_UNREACHABLE;
	case -EHOSTUNREACH:
	case -ETIMEDOUT:
		return SOCKS5_REP_HOST_UNREACHABLE;
	default:
		return SOCKS5_REP_FAILURE;
	}
}

static void
dial_done(struct pconn *pc, int err, const struct proxy_denial *d)
{
	socks_reply(pc, err < 0 ? rep_for_errno(err) : SOCKS5_REP_SUCCEEDED);
	if (err == 0)
		tunnel_start(pc);
}

/* 1: the greeting is done; 0: wait; -1: ended. */
static int
greeting(struct pconn *pc, struct evbuffer *in)
{
	size_t len = evbuffer_get_length(in);
	uint8_t method, out[2];
	int n;

	n = socks5_greeting(evbuffer_pullup(in, (ev_ssize_t)len), len,
	    &method);
	if (n == 0)
		return 0;
	if (n < 0) {
		pconn_close(pc);	/* not SOCKS5: no reply it would read */
		return -1;
	}
	evbuffer_drain(in, (size_t)n);
	socks5_greeting_reply(method, out);
	pio_write(pc->c, out, 2);
	if (method == SOCKS5_AUTH_REFUSED) {
		pconn_finish(pc);
		return -1;
	}
	pc->state = S_REQUEST;
	return 1;
}

static void
request(struct pconn *pc, struct evbuffer *in)
{
	size_t len = evbuffer_get_length(in);
	struct socks5_req req;
	const char *why = NULL;
	int n;

	n = socks5_request(evbuffer_pullup(in, (ev_ssize_t)len), len, &req,
	    &why);
	if (n == 0)
		return;
	if (n < 0) {
		socks_reply(pc, socks5_rep_for(n));
		return;
	}
	evbuffer_drain(in, (size_t)n);
	pc->host = req.host;
	pc->port = req.port;
	pc->proto = "socks5";
	pc->state = S_DIAL;
	pconn_deadline(pc, 0);
	pio_read(pc->c, false);
	dial_start(pc, dial_done);
}

static void
c_read(struct pconn *pc, struct pio *p)
{
	struct evbuffer *in = pio_in(p);

	if (pc->state == S_GREET && greeting(pc, in) <= 0)
		return;
	if (pc->state == S_REQUEST)
		request(pc, in);
}

static void
c_event(struct pconn *pc, struct pio *p, int what)
{
	pconn_close(pc);
}

static const struct pio_ops c_ops = { c_read, NULL, c_event };

void
socks_start(struct pconn *pc)
{
	pc->state = S_GREET;
	pio_set_ops(pc->c, &c_ops);
	pio_read(pc->c, true);
}
