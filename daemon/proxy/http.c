/* The HTTP proxy: CONNECT, and absolute-URI requests forwarded with keep-alive and chunked bodies. */

/*
 * One exchange at a time per client connection: a head is parsed (strict,
 * http-parse.c), decided, rewritten to origin form without hop-by-hop
 * fields, and sent; then the request body (by length or validated chunks)
 * and the response (framed by http-response.c) flow at once, so 100
 * Continue and early answers work. Only when both ends of the exchange are
 * done is the next head read; an upstream is kept for the next request to
 * the same host:port. Anything irregular closes the connection rather
 * than guess where the next message starts.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/http-chunked.h"
#include "daemon/proxy/http-parse.h"
#include "daemon/proxy/http-response.h"
#include "daemon/proxy/inspect.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/upstream.h"
#include "daemon/proxy/io.h"

enum { H_HEAD, H_DIAL, H_FORWARD };
enum { R_HEAD, R_BODY, R_DONE };

/* Pipelined bytes read ahead while an exchange is in flight. */
#define READ_AHEAD_MAX (64u * 1024)
/* Bodies by length at least this long go socket to socket (splice). */
#define SPLICE_MIN (64u * 1024)
/* Splices per wake-up before giving other connections a turn. */
#define SPLICE_ROUNDS 4

struct http_state {
	struct http_req req;
	struct evbuffer *head;		/* the head to send upstream */
	bool head_method, req_close, req_done;
	enum http_body body;
	uint64_t left;			/* request body by length */
	struct http_chunked ck;
	int rst;
	struct http_resp resp;
	bool resp_started;		/* response bytes went to the client */
	bool splicing;			/* the body is going by splice */
	uint64_t rleft;
	struct http_chunked rck;
};

static const struct pio_ops c_ops, u_ops;

void
http_free(struct pconn *pc)
{
	if (pc->http == NULL)
		return;
	if (pc->http->head != NULL)
		evbuffer_free(pc->http->head);
	free(pc->http);
	pc->http = NULL;
}

/* A complete answer of the proxy's own; the connection ends after it. */
static void
reply(struct pconn *pc, unsigned status, const char *phrase,
    const char *text)
{
	evbuffer_add_printf(pio_out(pc->c), "HTTP/1.1 %u %s\r\nContent-Type: "
	    "text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n%s\n", status, phrase,
	    strlen(text) + 1, text);
	pconn_finish(pc);
}

static const char *
phrase(unsigned status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 504: return "Gateway Timeout";
	case 505: return "HTTP Version Not Supported";
	}
	return "Error";
}

static void __attribute__((format(printf, 3, 4)))
reply_error(struct pconn *pc, unsigned status, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	reply(pc, status, phrase(status), text);
}

static void
reply_denied(struct pconn *pc, const struct proxy_denial *d)
{
	char text[1024];

	if (proxy_denial_format(pc, d, text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "blocked by sbx policy");
	reply(pc, 403, "Forbidden", text);
}

/*
 * Origin-form request line and the end-to-end fields, for upstream; for
 * the upstream proxy the dial will go through (the same upstream_for()
 * as dial.c's, made while the head is still in the client's buffer) the
 * absolute form, from the canonical host, with its Proxy-Authorization.
 */
static int
rewrite_head(struct pconn *pc)
{
	struct http_state *h = pc->http;
	const struct http_req *r = &h->req;
	const struct upstream_url *via = upstream_for(pc->px->rules->up,
	    &pc->host, pc->port, true);
	char line[HTTP_HEAD_MAX], host[HOST_TEXT_MAX + 16];
	const char *sp;
	size_t i;
	int n;

	if ((n = http_parse_origin_line(r, line, sizeof(line))) < 0)
		return n;
	if (h->head == NULL && (h->head = evbuffer_new()) == NULL)
		return -ENOMEM;
	evbuffer_drain(h->head, evbuffer_get_length(h->head));
	if (via != NULL && (sp = memchr(line, ' ', (size_t)n)) != NULL) {
		host_format(&pc->host, pc->port == 80 ? 0 : pc->port, host,
		    sizeof(host));
		evbuffer_add(h->head, line, (size_t)(sp - line));
		evbuffer_add_printf(h->head, " http://%s", host);
		evbuffer_add(h->head, sp + 1, (size_t)n - (size_t)(sp - line) -
		    1);
		if (via->auth[0] != '\0')
			evbuffer_add_printf(h->head, "Proxy-Authorization: "
			    "%s\r\n", via->auth);
	} else {
		evbuffer_add(h->head, line, (size_t)n);
	}
	for (i = 0; i < r->nfields; i++) {
		const struct http_field *f = &r->field[i];

		if (http_parse_hop_by_hop(r, i))
			continue;
		evbuffer_add(h->head, r->head + f->name.off, f->name.len);
		evbuffer_add(h->head, ": ", 2);
		evbuffer_add(h->head, r->head + f->value.off, f->value.len);
		evbuffer_add(h->head, "\r\n", 2);
	}
	if (r->host_field < 0) {
		host_format(&pc->host, pc->port == 80 ? 0 : pc->port, host,
		    sizeof(host));
		evbuffer_add_printf(h->head, "Host: %s\r\n", host);
	}
	if (h->req_close)
		evbuffer_add_printf(h->head, "Connection: close\r\n");
	return evbuffer_add(h->head, "\r\n", 2);
}

static void
host_mismatch(struct pconn *pc, const char *why)
{
	struct proxy_denial d = { 0 };

	d.check = "Host check";
	d.why = why;
	d.remedy = "the Host field must name the host and port of the "
	    "request URI";
	proxy_report(pc, &d);
	reply_denied(pc, &d);
}

static void exchange_begin(struct pconn *pc);
static void dial_done(struct pconn *pc, int err, const struct proxy_denial *d);

/* A whole head of n bytes is in the client's input. */
static void
head_parsed(struct pconn *pc, size_t n)
{
	struct http_state *h = pc->http;
	struct http_req *r = &h->req;
	struct proxy_denial d = { 0 };
	const char *why;

	pc->host = r->host;
	pc->port = r->port;
	if (r->form == HTTP_FORM_ORIGIN) {
		reply_error(pc, 400, "%s", "sbx proxy: not a proxy request "
		    "(use an absolute URI or CONNECT)");
		return;
	}
	if (r->form == HTTP_FORM_AUTHORITY) {
		pc->proto = "connect";
	} else {
		pc->proto = "http";
		if (http_parse_host_agrees(r, &why) < 0) {
			host_mismatch(pc, why);
			return;
		}
		if (inspect_plain(pc, r, n, &d) < 0) {
			reply_denied(pc, &d);
			return;
		}
		h->head_method = http_parse_token_is(r->head + r->method.off,
		    r->method.len, "HEAD");
		h->req_close = r->close;
		h->body = r->body;
		h->left = r->content_length;
		if (rewrite_head(pc) < 0) {
			reply_error(pc, 400, "%s", "sbx proxy: request too large");
			return;
		}
	}
	evbuffer_drain(pio_in(pc->c), n);
	pconn_deadline(pc, 0);
	if (pc->u != NULL && r->form == HTTP_FORM_ABSOLUTE &&
	    pc->port == pc->up_port && host_equal(&pc->host, &pc->up_host)) {
		exchange_begin(pc);	/* the kept upstream serves this too */
		return;
	}
	pio_free(pc->u);
	pc->u = NULL;
	pio_read(pc->c, false);
	pc->state = H_DIAL;
	dial_start(pc, dial_done);
}

static void
read_head(struct pconn *pc)
{
	struct evbuffer *in = pio_in(pc->c);
	struct http_state *h = pc->http;
	size_t len = evbuffer_get_length(in);
	const char *buf;
	int n;

	if (len == 0)
		return;
	if (len > HTTP_HEAD_MAX + 1)
		len = HTTP_HEAD_MAX + 1;
	buf = (const char *)evbuffer_pullup(in, (ev_ssize_t)len);
	n = http_parse_request(&h->req, buf, len);
	if (n == 0)
		return;
	if (n < 0) {
		reply_error(pc, (unsigned)h->req.status, "sbx proxy: %s",
		    h->req.why);
		return;
	}
	head_parsed(pc, (size_t)n);
}

/* Back to waiting for the next request on this connection. */
static void
next_request(struct pconn *pc)
{
	pc->state = H_HEAD;
	http_parse_init(&pc->http->req, HTTP_MODE_PROXY);
	pconn_deadline(pc, proxy_config()->head_timeout_ms);
	pio_read(pc->c, true);
	read_head(pc);
}

void
http_start(struct pconn *pc)
{
	if ((pc->http = calloc(1, sizeof(*pc->http))) == NULL) {
		pconn_close(pc);
		return;
	}
	pio_set_ops(pc->c, &c_ops);
	pio_low_mark(pc->c, PROXY_HIGH / 2);
	next_request(pc);
}

static void
exchange_end(struct pconn *pc)
{
	struct http_state *h = pc->http;

	if (h->resp.close || evbuffer_get_length(pio_in(pc->u)) > 0) {
		pio_free(pc->u);
		pc->u = NULL;
	}
	/* A response that ended early leaves the request body unfinished. */
	if (!h->req_done || h->req_close || h->resp.close) {
		pconn_finish(pc);
		return;
	}
	pc->up_host = pc->host;
	pc->up_port = pc->port;
	next_request(pc);
}

/* Moves request body bytes from the client to the upstream. */
static void
forward_body(struct pconn *pc)
{
	struct http_state *h = pc->http;
	struct evbuffer *in = pio_in(pc->c);
	size_t len = evbuffer_get_length(in), used = 0;
	const char *why;
	int r;

	if (h->req_done) {
		/* The next request, read ahead: not past a bound. */
		if (len > READ_AHEAD_MAX)
			pio_read(pc->c, false);
		return;
	}
	if (h->body == HTTP_BODY_LENGTH) {
		used = h->left < len ? (size_t)h->left : len;
		h->left -= used;
		h->req_done = h->left == 0;
	} else if (h->body == HTTP_BODY_CHUNKED && len > 0) {
		r = http_chunked_feed(&h->ck, (const char *)evbuffer_pullup(in,
		    (ev_ssize_t)len), len, &used, &why);
		if (r < 0) {
			if (h->resp_started)
				pconn_close(pc);
			else
				reply_error(pc, 400, "sbx proxy: %s", why);
			return;
		}
		h->req_done = r == 1;
	} else if (h->body == HTTP_BODY_NONE) {
		h->req_done = true;
	}
	if (used > 0) {
		evbuffer_remove_buffer(in, pio_out(pc->u), used);
		pio_flush(pc->u);
	}
	if (!h->req_done && pio_pending(pc->u) > PROXY_HIGH)
		pio_read(pc->c, false);
	if (h->req_done && h->rst == R_DONE)
		exchange_end(pc);
}

static void
exchange_begin(struct pconn *pc)
{
	struct http_state *h = pc->http;

	pc->state = H_FORWARD;
	h->req_done = false;
	h->rst = R_HEAD;
	h->resp_started = false;
	http_response_init(&h->resp);
	http_chunked_init(&h->ck);
	pio_set_ops(pc->u, &u_ops);
	pio_low_mark(pc->u, PROXY_HIGH / 2);
	pio_write_buffer(pc->u, h->head);
	pio_read(pc->u, true);
	pio_read(pc->c, true);
	forward_body(pc);
}

static void
dial_done(struct pconn *pc, int err, const struct proxy_denial *d)
{
	static const char established[] =
	    "HTTP/1.1 200 Connection established\r\n\r\n";

	if (err == -EACCES) {
		reply_denied(pc, d);
		return;
	}
	if (err < 0) {
		reply_error(pc, err == -ETIMEDOUT ? 504 : 502, "sbx proxy: %s",
		    pc->errmsg);
		return;
	}
	if (pc->http->req.form == HTTP_FORM_AUTHORITY) {
		pio_write(pc->c, established, sizeof(established) - 1);
		http_free(pc);
		tunnel_start(pc);
		return;
	}
	exchange_begin(pc);
}

/* The response head is complete: n bytes of u's input. */
static void
response_head(struct pconn *pc, size_t n)
{
	struct http_state *h = pc->http;

	evbuffer_remove_buffer(pio_in(pc->u), pio_out(pc->c), n);
	h->resp_started = true;
	if (http_response_interim(&h->resp)) {
		http_response_init(&h->resp);
		return;
	}
	switch (h->resp.body) {
	case HTTP_RESP_NONE:
		h->rst = R_DONE;
		break;
	case HTTP_RESP_LENGTH:
		h->rleft = h->resp.content_length;
		h->rst = h->rleft == 0 ? R_DONE : R_BODY;
		break;
	case HTTP_RESP_CHUNKED:
		http_chunked_init(&h->rck);
		h->rst = R_BODY;
		break;
	case HTTP_RESP_EOF:
		h->rst = R_BODY;
		break;
	}
}

static int
response_body(struct pconn *pc)
{
	struct http_state *h = pc->http;
	struct evbuffer *in = pio_in(pc->u);
	size_t len = evbuffer_get_length(in), used = len;
	const char *why;
	int r;

	if (h->resp.body == HTTP_RESP_LENGTH) {
		used = h->rleft < len ? (size_t)h->rleft : len;
		h->rleft -= used;
		if (h->rleft == 0)
			h->rst = R_DONE;
	} else if (h->resp.body == HTTP_RESP_CHUNKED) {
		r = http_chunked_feed(&h->rck, (const char *)evbuffer_pullup(in,
		    (ev_ssize_t)len), len, &used, &why);
		if (r < 0)
			return -EBADMSG;
		if (r == 1)
			h->rst = R_DONE;
	}
	evbuffer_remove_buffer(in, pio_out(pc->c), used);
	return 0;
}

/* A long body by length, nothing of it buffered: socket to socket. */
static void
try_splice_body(struct pconn *pc)
{
	struct http_state *h = pc->http;

	if (h->splicing || h->rst != R_BODY ||
	    h->resp.body != HTTP_RESP_LENGTH || h->rleft < SPLICE_MIN ||
	    evbuffer_get_length(pio_in(pc->u)) > 0 || pio_pending(pc->c) > 0 ||
	    proxy_fds_pipe(pc, 1) < 0)
		return;
	h->splicing = true;
	pio_raw(pc->u, true);
}

/* Moves body bytes through the pipe: 1 when all are out, 0 to wait (for
 * the upstream, or for the client to take more), -1 closed. */
static int
splice_body(struct pconn *pc)
{
	struct http_state *h = pc->http;
	ssize_t n;
	int r, i;

	for (i = 0;; i++) {
		r = pio_splice_out(pc->c, &pc->pipe[1]);
		if (r == -EAGAIN) {
			pio_read(pc->u, false);
			return 0;
		}
		if (r < 0)
			break;
		if (h->rleft == 0) {
			h->splicing = false;
			pio_raw(pc->u, false);
			h->rst = R_DONE;
			return 1;
		}
		/* More is coming: the read event says when. */
		pio_read(pc->u, true);
		if (i == SPLICE_ROUNDS)
			return 0;
		n = pio_splice_in(pc->u, &pc->pipe[1], h->rleft);
		if (n == -EAGAIN)
			return 0;
		if (n <= 0)
			break;	/* the upstream ended mid-body, or failed */
		h->rleft -= (uint64_t)n;
		/* Short: the socket is drained; out with it, then wait. */
		if (!pc->pipe[1].filled && h->rleft > 0)
			i = SPLICE_ROUNDS - 1;
	}
	pconn_close(pc);
	return -1;
}

static void
u_read(struct pconn *pc, struct pio *p)
{
	struct http_state *h = pc->http;
	struct evbuffer *in = pio_in(p);
	size_t len;
	int n;

	if (pc->state != H_FORWARD) {
		/* Bytes from an idle upstream: it cannot be reused. */
		pio_free(pc->u);
		pc->u = NULL;
		return;
	}
	if (h->splicing) {
		if (splice_body(pc) == 1 && h->req_done)
			exchange_end(pc);
		return;
	}
	while (h->rst != R_DONE && (len = evbuffer_get_length(in)) > 0) {
		if (h->rst == R_BODY) {
			if (response_body(pc) < 0) {
				pconn_close(pc);
				return;
			}
			continue;
		}
		if (len > HTTP_HEAD_MAX)
			len = HTTP_HEAD_MAX;
		n = http_response_parse(&h->resp, (const char *)
		    evbuffer_pullup(in, (ev_ssize_t)len), len, h->head_method);
		if (n == 0)
			break;
		if (n < 0) {
			if (h->resp_started)
				pconn_close(pc);
			else
				reply_error(pc, 502, "sbx proxy: bad response "
				    "from upstream: %s", h->resp.why);
			return;
		}
		response_head(pc, (size_t)n);
	}
	pio_flush(pc->c);
	if (h->rst != R_DONE && pio_pending(pc->c) > PROXY_HIGH)
		pio_read(p, false);
	if (h->rst == R_DONE && h->req_done)
		exchange_end(pc);
	else
		try_splice_body(pc);
}

static void
u_drained(struct pconn *pc, struct pio *p)
{
	/* Below the low mark again: take more request body. */
	if (pc->state == H_FORWARD && !pc->http->req_done)
		pio_read(pc->c, true);
}

static void
u_event(struct pconn *pc, struct pio *p, int what)
{
	struct http_state *h = pc->http;

	if (pc->state != H_FORWARD) {
		/* An idle kept upstream went away: dial afresh next time. */
		pio_free(pc->u);
		pc->u = NULL;
		return;
	}
	if ((what & PIO_EOF) && h->rst == R_BODY &&
	    h->resp.body == HTTP_RESP_EOF) {
		h->rst = R_DONE;
		h->resp.close = true;
		h->req_done = true;
		exchange_end(pc);
		return;
	}
	if (!h->resp_started) {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "%s:%u closed the "
		    "connection without a response", pc->host.text, pc->port);
		reply_error(pc, 502, "sbx proxy: %s", pc->errmsg);
		return;
	}
	pconn_close(pc);
}

static void
c_read(struct pconn *pc, struct pio *p)
{
	if (pc->state == H_HEAD)
		read_head(pc);
	else if (pc->state == H_FORWARD)
		forward_body(pc);
}

static void
c_drained(struct pconn *pc, struct pio *p)
{
	struct http_state *h = pc->http;

	if (pc->state != H_FORWARD || pc->u == NULL || h->rst == R_DONE)
		return;
	if (h->splicing) {
		if (splice_body(pc) == 1 && h->req_done)
			exchange_end(pc);
		return;
	}
	/* Below the low mark again: take more response. */
	pio_read(pc->u, true);
	try_splice_body(pc);
}

static void
c_event(struct pconn *pc, struct pio *p, int what)
{
	/* The client went away (or broke): nobody to answer. */
	pconn_close(pc);
}

static const struct pio_ops c_ops = { c_read, c_drained, c_event };
static const struct pio_ops u_ops = { u_read, u_drained, u_event };
