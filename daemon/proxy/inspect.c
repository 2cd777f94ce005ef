/* TLS inspection of one tunnel: both sides terminated, each HTTP/1.1 request checked against the request rules before it goes on. */

/*
 * The sandbox's side is served with a leaf certificate for the tunnel's
 * host (tls-ca.c); the upstream side is a TLS client that verifies the
 * real server. Plaintext from the sandbox is parsed one request head at a
 * time (http-parse.c, origin form): the head must name the tunnel's host,
 * the request rules decide, and only then do the head and its body (by
 * length, or chunks validated by http-chunked.c; with a body
 * credential's sentinel replaced by cred-body.c) go upstream. What follows
 * a body is the next head, so a pipelined request is checked like the
 * first. Responses flow back as they come. A request with Upgrade holds
 * the sandbox's further bytes until the response starts: 101 turns the
 * connection into a relay of raw bytes both ways (WebSocket), anything
 * else back to request heads. ALPN offers http/1.1 only, so HTTP/2
 * clients fall back to HTTP/1.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/policy/credential.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/cred-body.h"
#include "daemon/policy/reqrule.h"
#include "daemon/proxy/cred.h"
#include "daemon/proxy/http-chunked.h"
#include "daemon/proxy/http-parse.h"
#include "daemon/proxy/inspect-rules.h"
#include "daemon/proxy/inspect.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/tls.h"

enum { I_HEAD, I_LEN, I_CHUNKED, I_WAIT_UP, I_RAW, I_DONE };

struct inspect {
	struct tls_end *ct, *ut;	/* sandbox side, upstream side */
	struct evbuffer *cplain;	/* from the sandbox, not yet passed */
	struct evbuffer *uout;		/* passed, for the upstream */
	struct evbuffer *uplain;	/* from the upstream */
	struct evbuffer *cout;		/* for the sandbox */
	struct evbuffer *none;		/* always empty */
	int st;
	bool upgrade;			/* the request in flight asked */
	bool c_end, u_end;
	bool u_failed;			/* answered 502 once the sandbox's
					   handshake is done */
	uint64_t left;
	struct http_chunked ck;
	/* The last bytes that went upstream: a sentinel split across
	 * reads is still seen. */
	char carry[POLICY_CRED_MAX];
	size_t ncarry;
	/* The body in flight has body credentials' sentinels replaced. */
	bool rewrite;
	struct cred_body body;
	struct http_req req;
	/* Armed while the response's last bytes are held (they could
	 * begin a real value): when the upstream stays quiet they go as
	 * the sentinel's first bytes, tail what they really were. */
	struct event *quiet;
	struct cred_tail tail;
};

/* Long enough for a value split across TLS records or segments, short
 * enough not to be noticed at the end of a response. */
#define QUIET_MS 50

static const struct pio_ops c_ops, u_ops;

void
inspect_free(struct pconn *pc)
{
	struct inspect *i = pc->insp;

	if (i == NULL)
		return;
	tls_end_free(i->ct);
	tls_end_free(i->ut);
	if (i->cplain)
		evbuffer_free(i->cplain);
	if (i->uout)
		evbuffer_free(i->uout);
	if (i->uplain)
		evbuffer_free(i->uplain);
	if (i->cout)
		evbuffer_free(i->cout);
	if (i->none)
		evbuffer_free(i->none);
	if (i->quiet)
		event_free(i->quiet);
	explicit_bzero(&i->tail, sizeof(i->tail));
	free(i);
	pc->insp = NULL;
}

static void
report(struct pconn *pc, const struct proxy_origin *o, const char *why,
    const char *detail, const char *remedy)
{
	struct proxy_denial d = { 0 };

	d.o = o;
	d.check = o == NULL ? "TLS inspection" : NULL;
	d.why = why;
	snprintf(d.detail, sizeof(d.detail), "%s", detail);
	d.remedy = remedy;
	proxy_report(pc, &d);
}

/* Everything for the sandbox encrypted and queued; then it ends. */
static void
finish(struct pconn *pc)
{
	struct inspect *i = pc->insp;

	i->st = I_DONE;
	evbuffer_drain(i->cplain, evbuffer_get_length(i->cplain));
	if (tls_end_ready(i->ct)) {
		tls_end_pump(i->ct, i->none, i->cplain, i->cout, pio_out(pc->c));
		tls_end_close(i->ct, pio_out(pc->c));
	}
	pio_read(pc->c, false);
	pconn_finish(pc);
}

/* An answer of sbx's own to the sandbox, then the end. */
static void
refuse(struct pconn *pc, unsigned status, const char *phrase,
    const char *text)
{
	struct inspect *i = pc->insp;

	evbuffer_add_printf(i->cout, "HTTP/1.1 %u %s\r\nContent-Type: "
	    "text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n%s\n", status, phrase, strlen(text) + 1,
	    text);
	finish(pc);
}

/*
 * The request rules on r. They match the path and query as origin form
 * has them: an absolute URI's scheme and authority are not part of it,
 * and an empty path (or one that starts with '?') is "/"; the path as a
 * server reads it (policy_reqrule_path_norm). *dots: a dot segment, which
 * no rule can decide (NULL then).
 */
static const struct inspect_rule *
decide(struct pconn *pc, const struct http_req *r, bool *unlisted,
    bool *dots)
{
	static char t[HTTP_HEAD_MAX + 1], n[HTTP_HEAD_MAX + 1];
	size_t len = 0, nlen;

	*unlisted = false;
	*dots = false;
	if (pc->px->l7 == NULL)
		return NULL;
	if (r->path.len == 0 || r->head[r->path.off] != '/')
		t[len++] = '/';
	memcpy(t + len, r->head + r->path.off, r->path.len);
	len += r->path.len;
	if (policy_reqrule_path_norm(t, len, n, &nlen) < 0) {
		*dots = true;
		return NULL;
	}
	return inspect_rules_decide(pc->px->l7, &pc->host, pc->port,
	    r->head + r->method.off, r->method.len, n, nlen, unlisted);
}

static const char dots_why[] = "a \".\" or \"..\" segment in the request "
    "path", dots_remedy[] = "request paths to a host with request rules "
    "go without dot segments";

/* The denial of request r by rule ir: the request, the rule's layer and
 * file. */
static void
rule_denial(const struct http_req *r, const struct inspect_rule *ir,
    bool unlisted, struct proxy_denial *d)
{
	d->o = &ir->o;
	d->why = unlisted ? "request not allowed by the request rules" :
	    "request denied by a request rule";
	snprintf(d->detail, sizeof(d->detail), "%.*s %.*s (%s layer%s%s)",
	    (int)r->method.len, r->head + r->method.off,
	    (int)(r->path.len > 200 ? 200 : r->path.len),
	    r->head + r->path.off, policy_layer_name(ir->o.layer),
	    ir->o.file ? ", " : "", ir->o.file ? ir->o.file : "");
	d->remedy = "the policy's network.requestRules decide which requests "
	    "may go to this host";
}

static void
refuse_rule(struct pconn *pc, const struct inspect_rule *ir, bool unlisted)
{
	struct proxy_denial d = { 0 };
	char text[1024];

	rule_denial(&pc->insp->req, ir, unlisted, &d);
	proxy_report(pc, &d);
	if (proxy_denial_format(pc, &d, text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "blocked by sbx: %s", d.why);
	refuse(pc, 403, "Forbidden", text);
}

/*
 * A credential's sentinel in buf, going to a host the credential is not
 * for: an exfiltration attempt, refused and reported by the credential's
 * id (never its value). buf continues what went before (carry).
 */
static int
leaked(struct pconn *pc, const char *buf, size_t len)
{
	struct inspect *i = pc->insp;
	const struct cred_set *s = pc->px->creds;
	const struct cred *c;
	char win[2 * POLICY_CRED_MAX], detail[160];
	size_t k, n;

	if (s == NULL || len == 0)
		return 0;
	c = cred_set_leak(s, buf, len, &pc->host, pc->port);
	k = len < s->maxlen ? len : s->maxlen;
	if (c == NULL && i->ncarry > 0) {
		/* The seam: what went before, then the start of buf. */
		memcpy(win, i->carry, i->ncarry);
		memcpy(win + i->ncarry, buf, k);
		c = cred_set_leak(s, win, i->ncarry + k, &pc->host, pc->port);
	}
	/* The carry: the last maxlen bytes of carry and buf. */
	memcpy(win, i->carry, i->ncarry);
	memcpy(win + i->ncarry, buf + len - k, k);
	n = i->ncarry + k;
	i->ncarry = n < s->maxlen ? n : s->maxlen;
	memcpy(i->carry, win + n - i->ncarry, i->ncarry);
	if (c == NULL)
		return 0;
	snprintf(detail, sizeof(detail), "credential %s", c->id);
	report(pc, NULL, "a credential's sentinel sent to a host it is not "
	    "for", detail, "the policy's network.credentials name the hosts "
	    "each credential may go to");
	refuse(pc, 403, "Forbidden", "blocked by sbx: a credential's "
	    "sentinel sent to a host it is not for");
	return -1;
}

/* The head's own idea of its host must be the tunnel's. */
static bool
host_ok(struct pconn *pc, const struct http_req *r)
{
	if (r->form == HTTP_FORM_ABSOLUTE && (!host_equal(&r->host, &pc->host)
	    || r->port != pc->port))
		return false;
	return r->host_field < 0 || (host_equal(&r->host_hdr, &pc->host) &&
	    (r->host_hdr_port == 0 || r->host_hdr_port == pc->port));
}

/* 0: no Upgrade field; 1: WebSocket; -1 another protocol (h2c would
 * carry requests no rule could see after the 101). */
static int
upgrade_kind(const struct http_req *r)
{
	const struct http_field *f;
	size_t k;
	int kind = 0;

	for (k = 0; k < r->nfields; k++) {
		f = &r->field[k];
		if (!http_parse_token_is(r->head + f->name.off, f->name.len,
		    "Upgrade"))
			continue;
		if (!http_parse_token_is(r->head + f->value.off, f->value.len,
		    "websocket"))
			return -1;
		kind = 1;
	}
	return kind;
}

/* The head with the credentials for the host in it (and signed again
 * for a SigV4 one) into uout. 0, or -1: refused or closed. */
static int
with_creds(struct pconn *pc, const struct http_req *r, size_t n)
{
	struct evbuffer *tmp = evbuffer_new();
	const char *why = NULL;
	int e;

	if (tmp == NULL || cred_set_head(pc->px->creds, r->head, n, &pc->host,
	    pc->port, tmp) < 0) {
		if (tmp)
			evbuffer_free(tmp);
		pconn_close(pc);
		return -1;
	}
	e = cred_set_sigv4(pc->px->creds, (const char *)evbuffer_pullup(tmp,
	    -1), evbuffer_get_length(tmp), r->body != HTTP_BODY_NONE,
	    &pc->host, pc->port, pc->insp->uout, &why);
	/* The real value was in tmp: wipe it before it goes. */
	explicit_bzero(evbuffer_pullup(tmp, -1), evbuffer_get_length(tmp));
	evbuffer_free(tmp);
	if (e == -EPERM) {
		report(pc, NULL, "an AWS request sbx does not sign again", why,
		    "use header-signed requests with x-amz-content-sha256");
		refuse(pc, 403, "Forbidden", why);
		return -1;
	}
	if (e < 0) {
		pconn_close(pc);
		return -1;
	}
	return 0;
}

/* A whole head of n bytes: decide, pass it on. 0, or -1: refused. */
static int
head(struct pconn *pc, size_t n)
{
	struct inspect *i = pc->insp;
	struct http_req *r = &i->req;
	const struct inspect_rule *ir;
	bool unlisted, dots;

	if (!host_ok(pc, r)) {
		report(pc, NULL, "request names another host", "",
		    "an inspected tunnel carries requests for its own host "
		    "only");
		refuse(pc, 421, "Misdirected Request", "sbx: this tunnel "
		    "carries requests for its own host only");
		return -1;
	}
	ir = decide(pc, r, &unlisted, &dots);
	if (dots) {
		report(pc, NULL, dots_why, "", dots_remedy);
		refuse(pc, 403, "Forbidden", dots_why);
		return -1;
	}
	if (ir != NULL) {
		refuse_rule(pc, ir, unlisted);
		return -1;
	}
	if (upgrade_kind(r) < 0) {
		report(pc, NULL, "an Upgrade to another protocol than "
		    "WebSocket", "", "inspected connections carry HTTP/1.1 "
		    "and WebSocket only");
		refuse(pc, 403, "Forbidden", "sbx: only WebSocket upgrades "
		    "pass an inspected connection");
		return -1;
	}
	if (leaked(pc, r->head, n) < 0)
		return -1;
	i->upgrade = upgrade_kind(r) == 1;
	if (cred_set_for(pc->px->creds, &pc->host, pc->port)) {
		if (with_creds(pc, r, n) < 0)
			return -1;
		evbuffer_drain(i->cplain, n);
	} else {
		evbuffer_remove_buffer(i->cplain, i->uout, n);
	}
	i->left = r->content_length;
	i->rewrite = r->body != HTTP_BODY_NONE && cred_body_for(pc->px->creds,
	    &pc->host, pc->port);
	i->body.nhold = 0;
	i->st = r->body == HTTP_BODY_LENGTH ? I_LEN :
	    r->body == HTTP_BODY_CHUNKED ? I_CHUNKED : I_HEAD;
	if (r->body == HTTP_BODY_CHUNKED)
		http_chunked_init(&i->ck);
	if (i->st == I_HEAD && i->upgrade)
		i->st = I_WAIT_UP;
	return 0;
}

static int
read_head(struct pconn *pc)
{
	struct inspect *i = pc->insp;
	size_t len = evbuffer_get_length(i->cplain);
	const char *buf;
	int n;

	if (len > HTTP_HEAD_MAX + 1)
		len = HTTP_HEAD_MAX + 1;
	buf = (const char *)evbuffer_pullup(i->cplain, (ev_ssize_t)len);
	n = http_parse_request(&i->req, buf, len);
	if (n == 0)
		return 1;
	if (n < 0) {
		report(pc, NULL, "request refused", i->req.why, "");
		refuse(pc, (unsigned)i->req.status, "Bad Request",
		    i->req.why);
		return -1;
	}
	if (head(pc, (size_t)n) < 0)
		return -1;
	http_parse_init(&i->req, HTTP_MODE_ORIGIN);
	return 0;
}

/* len decided bytes of a body from cplain to uout (the body's last
 * with end). 0, or -1: closed. */
static int
pass(struct pconn *pc, size_t len, bool end)
{
	struct inspect *i = pc->insp;

	if (!i->rewrite) {
		evbuffer_remove_buffer(i->cplain, i->uout, len);
		return 0;
	}
	if (cred_body_pass(pc->px->creds, &pc->host, pc->port, &i->body,
	    (const char *)evbuffer_pullup(i->cplain, (ev_ssize_t)len), len,
	    end, i->uout) < 0) {
		pconn_close(pc);
		return -1;
	}
	evbuffer_drain(i->cplain, len);
	return 0;
}

static int
chunked(struct pconn *pc)
{
	struct inspect *i = pc->insp;
	size_t len = evbuffer_get_length(i->cplain), used = 0;
	const char *why = NULL;
	int r;

	r = http_chunked_feed(&i->ck, (const char *)evbuffer_pullup(i->cplain,
	    (ev_ssize_t)len), len, &used, &why);
	if (r < 0) {
		report(pc, NULL, "request refused", why, "");
		refuse(pc, 400, "Bad Request", why);
		return -1;
	}
	if (leaked(pc, (const char *)evbuffer_pullup(i->cplain,
	    (ev_ssize_t)used), used) < 0 || pass(pc, used, r == 1) < 0)
		return -1;
	if (r == 1)
		i->st = i->upgrade ? I_WAIT_UP : I_HEAD;
	return used == 0 && r == 0 ? 1 : 0;
}

/* Moves what is decided from cplain to uout. 0, or -1: finished. */
static int
process(struct pconn *pc)
{
	struct inspect *i = pc->insp;
	size_t len;
	int r = 0;

	while (r == 0 && (len = evbuffer_get_length(i->cplain)) > 0) {
		switch (i->st) {
		case I_HEAD:
			r = read_head(pc);
			break;
		case I_LEN:
			if (len > i->left)
				len = (size_t)i->left;
			if (leaked(pc, (const char *)evbuffer_pullup(i->cplain,
			    (ev_ssize_t)len), len) < 0 ||
			    pass(pc, len, len == i->left) < 0)
				return -1;
			if ((i->left -= len) == 0)
				i->st = i->upgrade ? I_WAIT_UP : I_HEAD;
			break;
		case I_CHUNKED:
			r = chunked(pc);
			break;
		case I_RAW:
			if (leaked(pc, (const char *)evbuffer_pullup(i->cplain,
			    -1), len) < 0)
				return -1;
			evbuffer_add_buffer(i->uout, i->cplain);
			break;
		default:	/* I_WAIT_UP, I_DONE: hold */
			r = 1;
		}
	}
	return r < 0 ? -1 : 0;
}

/* The upstream's first bytes after an Upgrade request: 101 or not. */
static void
upgrade_answer(struct inspect *i)
{
	static const char sw[] = "HTTP/1.1 101";
	size_t len = evbuffer_get_length(i->uplain);

	if (i->st != I_WAIT_UP || len < sizeof(sw) - 1)
		return;
	i->st = memcmp(evbuffer_pullup(i->uplain, sizeof(sw) - 1), sw,
	    sizeof(sw) - 1) == 0 ? I_RAW : I_HEAD;
	i->upgrade = false;
}

/* The upstream's plaintext to the sandbox, each real value of a
 * credential turned back into its sentinel; bytes that could begin one
 * are held until more comes, the upstream ends or goes quiet. */
static void
to_sandbox(struct pconn *pc)
{
	static const struct timeval quiet = { 0, QUIET_MS * 1000 };
	const struct cred_set *s = pc->px->creds;
	struct inspect *i = pc->insp;
	size_t len = evbuffer_get_length(i->uplain), hold = 0;
	char *buf;

	if (s == NULL || len == 0) {
		evbuffer_add_buffer(i->cout, i->uplain);
		return;
	}
	buf = (char *)evbuffer_pullup(i->uplain, -1);
	if (!cred_set_continue(s, &i->tail, buf, len))
		hold = cred_set_redact(s, buf, len);
	if (hold > 0 && i->u_end) {
		cred_set_release(s, buf + len - hold, hold, &i->tail);
		hold = 0;
	}
	evbuffer_remove_buffer(i->uplain, i->cout, len - hold);
	if (hold == 0)
		evtimer_del(i->quiet);
	else if (!evtimer_pending(i->quiet, NULL))
		evtimer_add(i->quiet, &quiet);
}

static void pump(struct pconn *pc);

/* The upstream went quiet with bytes held: they go, as sentinel bytes. */
static void
quiet_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pconn *pc = arg;
	struct inspect *i = pc->insp;
	size_t len = evbuffer_get_length(i->uplain), hold;
	char *buf;

	if (i->st == I_DONE || len == 0)
		return;
	buf = (char *)evbuffer_pullup(i->uplain, -1);
	hold = cred_set_redact(pc->px->creds, buf, len);
	cred_set_release(pc->px->creds, buf + len - hold, hold, &i->tail);
	evbuffer_add_buffer(i->cout, i->uplain);
	pump(pc);
}

static void
tls_failed(struct pconn *pc, bool upstream, const char *why)
{
	if (upstream) {
		report(pc, NULL, "the upstream's TLS failed", why, "the "
		    "server must present a certificate the system's roots "
		    "or sbxd's --upstream-ca trust");
		pc->insp->u_failed = true;
		pio_read(pc->u, false);
		if (tls_end_ready(pc->insp->ct))
			refuse(pc, 502, "Bad Gateway", "sbx: the upstream's "
			    "TLS failed");
		return;
	} else {
		report(pc, NULL, "the sandbox's TLS handshake failed", why,
		    "tools inside the sandbox must trust sbx's CA");
	}
	pconn_close(pc);
}

/* Everything that can move, moves; both sockets written. */
static void
pump(struct pconn *pc)
{
	struct inspect *i = pc->insp;
	int r;

	if (i->st == I_DONE)
		return;
	r = tls_end_pump(i->ct, pio_in(pc->c), i->cplain, i->none,
	    pio_out(pc->c));
	if (r == TLS_END_ERROR) {
		tls_failed(pc, false, tls_end_why(i->ct));
		return;
	}
	if (r == TLS_END_CLOSED)
		i->c_end = true;
	if (i->u_failed) {
		if (tls_end_ready(i->ct))
			refuse(pc, 502, "Bad Gateway", "sbx: the upstream's "
			    "TLS failed");
		else
			pio_flush(pc->c);
		return;
	}
	if (process(pc) < 0)
		return;
	r = tls_end_pump(i->ut, pio_in(pc->u), i->uplain, i->uout,
	    pio_out(pc->u));
	if (r == TLS_END_ERROR) {
		tls_failed(pc, true, tls_end_why(i->ut));
		return;
	}
	if (r == TLS_END_CLOSED)
		i->u_end = true;
	upgrade_answer(i);
	to_sandbox(pc);
	if (tls_end_pump(i->ct, i->none, i->cplain, i->cout,
	    pio_out(pc->c)) == TLS_END_ERROR) {
		pconn_close(pc);
		return;
	}
	/* What the response let through (after a 101, bytes held since
	 * the Upgrade request) goes now, not at the next event. */
	if (process(pc) < 0)
		return;
	if (evbuffer_get_length(i->uout) > 0 &&
	    tls_end_pump(i->ut, i->none, i->uplain, i->uout,
	    pio_out(pc->u)) == TLS_END_ERROR) {
		tls_failed(pc, true, tls_end_why(i->ut));
		return;
	}
	pio_flush(pc->u);
	pio_flush(pc->c);
	if (i->u_end) {
		finish(pc);
		return;
	}
	if (i->c_end && evbuffer_get_length(i->uout) == 0) {
		tls_end_close(i->ut, pio_out(pc->u));
		pio_shutdown(pc->u);
		pio_read(pc->c, false);
	}
	/* Hold a side whose bytes pile up on the other. */
	pio_read(pc->c, !i->c_end && pio_pending(pc->u) < PROXY_HIGH);
	pio_read(pc->u, pio_pending(pc->c) < PROXY_HIGH);
}

static void
on_read(struct pconn *pc, struct pio *p)
{
	pump(pc);
}

static void
on_event(struct pconn *pc, struct pio *p, int what)
{
	struct inspect *i = pc->insp;

	if (!(what & PIO_EOF) || i->st == I_DONE) {
		pconn_close(pc);
		return;
	}
	if (p == pc->u)
		i->u_end = true;
	else
		i->c_end = true;
	pump(pc);
}

static const struct pio_ops c_ops = { on_read, on_read, on_event };
static const struct pio_ops u_ops = { on_read, on_read, on_event };

static void start(struct pconn *pc);

bool
inspect_take(struct pconn *pc)
{
	enum inspect_mode m;

	if (pc->px->l7 == NULL && pc->px->creds == NULL)
		return false;
	m = inspect_rules_mode(pc->px->l7, &pc->host, pc->port,
	    cred_set_for(pc->px->creds, &pc->host, pc->port));
	if (m == INSPECT_YES)
		start(pc);
	if (m == INSPECT_EXCLUDED) {
		report(pc, NULL, "request rules or credentials name a host "
		    "in network.tls.excludeDomains", "they cannot be applied "
		    "without inspection", "remove the host from "
		    "excludeDomains or its rules");
		pconn_close(pc);
	}
	return m != INSPECT_NO;
}

static void
start(struct pconn *pc)
{
	struct inspect *i = calloc(1, sizeof(*i));

	pc->insp = i;
	if (i == NULL || (i->cplain = evbuffer_new()) == NULL ||
	    (i->uout = evbuffer_new()) == NULL ||
	    (i->uplain = evbuffer_new()) == NULL ||
	    (i->cout = evbuffer_new()) == NULL ||
	    (i->none = evbuffer_new()) == NULL ||
	    (i->quiet = evtimer_new(sbxd.base, quiet_cb, pc)) == NULL ||
	    (i->ct = tls_end_server(&pc->host)) == NULL ||
	    (i->ut = tls_end_client(&pc->host)) == NULL) {
		report(pc, NULL, "TLS inspection could not start", "",
		    "see sbxd's log");
		pconn_close(pc);
		return;
	}
	http_parse_init(&i->req, HTTP_MODE_ORIGIN);
	i->st = I_HEAD;
	pconn_deadline(pc, 0);
	pio_set_ops(pc->c, &c_ops);
	pio_set_ops(pc->u, &u_ops);
	pio_low_mark(pc->c, PROXY_HIGH / 2);
	pio_low_mark(pc->u, PROXY_HIGH / 2);
	pio_read(pc->c, true);
	pio_read(pc->u, true);
	pump(pc);
}

int
inspect_plain(struct pconn *pc, const struct http_req *r, size_t n,
    struct proxy_denial *d)
{
	const struct cred_set *s = pc->px->creds;
	const struct inspect_rule *ir = NULL;
	bool unlisted, dots;
	size_t k;

	ir = decide(pc, r, &unlisted, &dots);
	if (dots) {
		d->check = "request rules";
		d->why = dots_why;
		d->remedy = dots_remedy;
		proxy_report(pc, d);
		return -EACCES;
	}
	if (ir != NULL) {
		rule_denial(r, ir, unlisted, d);
		proxy_report(pc, d);
		return -EACCES;
	}
	for (k = 0; s != NULL && k < s->n; k++)
		if (memmem(r->head, n, s->v[k].sentinel, s->v[k].len) != NULL)
			break;
	if (s == NULL || k == s->n)
		return 0;
	d->check = "credential check";
	d->why = "a credential's sentinel in a plain HTTP request";
	snprintf(d->detail, sizeof(d->detail), "credential %s", s->v[k].id);
	d->remedy = "credentials go only over TLS to the hosts the policy's "
	    "network.credentials name";
	proxy_report(pc, d);
	return -EACCES;
}
