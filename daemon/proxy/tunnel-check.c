/* A tunnel's client bytes, checked against the host it was opened for before any of them go upstream. */

/*
 * A check that some bytes can turn off is no check: what this module
 * cannot read as a ClientHello, an SSH banner or an HTTP request closes
 * the tunnel, rather than pass. Decisions that matter:
 *
 * - Plain HTTP is followed for the stream's whole life, every request
 *   head checked, bodies skipped by Content-Length or validated chunks,
 *   because a server takes the second request of a stream as readily as
 *   the first. An Upgrade request ends that: what follows it is another
 *   protocol if the server agrees and more requests if not, which only
 *   the response would tell, so it is refused. So is a body on GET or
 *   HEAD: servers that answer those without reading a body (static file
 *   handlers) take it for the next request, one nobody checked.
 * - Empty lines (CRLF) before a request line are skipped, as RFC 9112
 *   2.2 asks and every server does (one that skips fewer answers 400).
 *   A bare LF, a space or a tab there is refused: some servers skip them
 *   (nginx a LF) and some do not, and no client sends them.
 * - A ClientHello without a server name to a tunnel opened by name can
 *   only be meant for some other name on that address; to an address it
 *   is what clients send (RFC 6066 has no IP literals in SNI). A record
 *   of another type before it is refused: the hello must come first.
 * - An SSH banner passes, but not one that could be read as an HTTP
 *   request line (it holds "HTTP/"): that is checked as HTTP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "daemon/proxy/tunnel-check.h"

enum { TC_FIRST, TC_HEAD, TC_LENGTH, TC_CHUNKED };

static int
refuse(struct tunnel_check *t, const char *why)
{
	t->why = why;
	return TUNNEL_CHECK_REFUSED;
}

static int
refuse_named(struct tunnel_check *t, const char *why, const struct host *h,
    uint16_t port)
{
	t->has_named = true;
	t->named = *h;
	t->named_port = port;
	return refuse(t, why);
}

void
tunnel_check_init(struct tunnel_check *t, const struct host *host,
    uint16_t port)
{
	memset(t, 0, sizeof(*t));
	t->host = *host;
	t->port = port;
	t->state = TC_FIRST;
}

static int
tls(struct tunnel_check *t, const uint8_t *buf, size_t len)
{
	struct sni_hello hello;
	const char *why = NULL;
	size_t need = 0;

	switch (sni_parse(buf, len, &hello, &need, &why)) {
	case SNI_NEED_MORE:
		if (need > TUNNEL_CHECK_WINDOW)
			return refuse(t, "first bytes too long to check");
		return TUNNEL_CHECK_MORE;
	case SNI_FOUND:
		if (host_equal(&hello.host, &t->host))
			return TUNNEL_CHECK_ALL;
		return refuse_named(t, "the TLS server name is another host",
		    &hello.host, 0);
	case SNI_NO_SNI:
		if (t->host.kind != HOST_NAME)
			return TUNNEL_CHECK_ALL;
		return refuse(t, "a TLS ClientHello without a server name "
		    "to a tunnel opened by name");
	default:
		return refuse(t, why != NULL ? why : "malformed TLS handshake");
	}
}

/*
 * "SSH-2.0-" or "SSH-1.99-", printable bytes, CR LF. 1: a banner, 0: need
 * more, -1: not one (then it is read as HTTP, which refuses it unless it
 * is a request).
 */
static int
ssh_banner(const uint8_t *buf, size_t len)
{
	static const char *const pfx[] = { "SSH-2.0-", "SSH-1.99-" };
	size_t i, k, n;

	for (k = 0; k < 2; k++) {
		n = strlen(pfx[k]);
		if (memcmp(buf, pfx[k], len < n ? len : n) != 0)
			continue;
		for (i = n; i < len && i < TUNNEL_SSH_LINE_MAX; i++) {
			if (buf[i] == '\r')
				return i + 1 < len ? (buf[i + 1] == '\n' &&
				    i > n ? 1 : -1) : 0;
			if (buf[i] < 0x20 || buf[i] > 0x7e ||
			    (i >= 4 && memcmp(buf + i - 4, "HTTP/", 5) == 0))
				return -1;
		}
		return i < TUNNEL_SSH_LINE_MAX ? 0 : -1;
	}
	return -1;
}

/* The longest request line and method by_port waits for before calling
 * it another protocol. */
#define REQUEST_LINE_MAX 4096
#define METHOD_MAX 20

/*
 * by_port: 1 when buf starts an HTTP/1.x request line (a method of
 * capital letters, '-' or '_', a space, and " HTTP/" before the line's
 * end), 0 when more bytes are needed to tell, -1 when it is another
 * protocol. Decided on a prefix alone, so however the bytes arrive the
 * answer is the same.
 */
static int
request_line(const uint8_t *buf, size_t len)
{
	size_t i, n = len < REQUEST_LINE_MAX ? len : REQUEST_LINE_MAX;

	for (i = 0; i < n && i < METHOD_MAX && ((buf[i] >= 'A' &&
	    buf[i] <= 'Z') || buf[i] == '-' || buf[i] == '_'); i++)
		;
	if (i == METHOD_MAX)
		return -1;
	if (i == n)
		return 0;	/* n == len here: more may come */
	if (i == 0 || buf[i] != ' ')
		return -1;
	for (; i < n; i++)
		if (buf[i] == '\n')
			return memmem(buf, i, " HTTP/", 6) != NULL ? 1 : -1;
	return n == len ? 0 : -1;
}

static bool
method_is(const struct http_req *r, const char *m)
{
	return r->method.len == strlen(m) &&
	    memcmp(r->head + r->method.off, m, r->method.len) == 0;
}

/* A complete head: its host must be the tunnel's. */
static int
check_head(struct tunnel_check *t)
{
	const struct http_req *r = &t->req;
	const struct host *h;
	const char *why;
	uint16_t port;
	size_t i;

	if (http_parse_host_agrees(r, &why) < 0)
		return refuse(t, why);
	if ((r->body == HTTP_BODY_CHUNKED || (r->body == HTTP_BODY_LENGTH &&
	    r->content_length > 0)) && (method_is(r, "GET") ||
	    method_is(r, "HEAD")))
		return refuse(t, "a GET or HEAD request with a body (a server "
		    "that ignores it reads it as the next request)");
	for (i = 0; i < r->nfields; i++)
		if (http_parse_token_is(r->head + r->field[i].name.off,
		    r->field[i].name.len, "upgrade"))
			return refuse(t, "a protocol upgrade inside a tunnel "
			    "(what follows it could not be checked)");
	if (r->form == HTTP_FORM_ABSOLUTE) {
		h = &r->host;
		port = r->port;
	} else if (r->host_field >= 0) {
		h = &r->host_hdr;
		port = r->host_hdr_port;
	} else if (t->host.kind != HOST_NAME) {
		return 0;	/* HTTP/1.0 to an address: its default host */
	} else {
		return refuse(t, "an HTTP request without Host to a tunnel "
		    "opened by name");
	}
	if (!host_equal(h, &t->host) || (port != 0 && port != t->port))
		return refuse_named(t, "the HTTP request inside is for "
		    "another host", h, port);
	return 0;
}

/* A request head at buf: n > 0 its length, 0 need more, < 0 refused. */
static int
head(struct tunnel_check *t, const uint8_t *buf, size_t len)
{
	int n;

	n = http_parse_request(&t->req, (const char *)buf, len);
	if (n == 0)
		return 0;
	if (n == -EPROTO)
		return refuse(t, t->passed ? "bytes after a request that are "
		    "not an HTTP request" : "the first bytes are not TLS, SSH "
		    "or an HTTP request");
	if (n < 0)
		return refuse(t, t->req.why);
	if (check_head(t) < 0)
		return TUNNEL_CHECK_REFUSED;
	switch (t->req.body) {
	case HTTP_BODY_LENGTH:
		t->left = t->req.content_length;
		t->state = t->left > 0 ? TC_LENGTH : TC_HEAD;
		break;
	case HTTP_BODY_CHUNKED:
		http_chunked_init(&t->ck);
		t->state = TC_CHUNKED;
		break;
	default:
		t->state = TC_HEAD;
	}
	if (t->state == TC_HEAD)
		http_parse_init(&t->req, HTTP_MODE_ORIGIN);
	t->passed = true;
	return n;
}

/* Requests and their bodies, as far as buf goes. */
static int
http(struct tunnel_check *t, const uint8_t *buf, size_t len, size_t *ok)
{
	size_t o = 0, used;
	int r;

	while (o < len) {
		if (t->state == TC_HEAD) {
			if ((r = head(t, buf + o, len - o)) <= 0) {
				if (r < 0)
					return r;
				break;
			}
			o += (size_t)r;
		} else if (t->state == TC_LENGTH) {
			used = t->left < len - o ? (size_t)t->left : len - o;
			t->left -= used;
			o += used;
			if (t->left == 0) {
				t->state = TC_HEAD;
				http_parse_init(&t->req, HTTP_MODE_ORIGIN);
			}
		} else {
			r = http_chunked_feed(&t->ck, (const char *)buf + o,
			    len - o, &used, &t->why);
			if (r < 0)
				return TUNNEL_CHECK_REFUSED;
			o += used;
			if (r == 0)
				break;
			t->state = TC_HEAD;
			http_parse_init(&t->req, HTTP_MODE_ORIGIN);
		}
	}
	*ok = o;
	return TUNNEL_CHECK_MORE;
}

int
tunnel_check_feed(struct tunnel_check *t, const uint8_t *buf, size_t len,
    size_t *ok)
{
	int r;

	*ok = 0;
	if (len == 0)
		return TUNNEL_CHECK_MORE;
	if (t->state == TC_FIRST) {
		if (buf[0] == 0x16)
			return tls(t, buf, len);
		if ((r = ssh_banner(buf, len)) != -1)
			return r == 1 ? TUNNEL_CHECK_ALL : TUNNEL_CHECK_MORE;
		if (t->by_port && (r = request_line(buf, len)) != 1)
			return r == 0 ? TUNNEL_CHECK_MORE : TUNNEL_CHECK_ALL;
		t->state = TC_HEAD;
		http_parse_init(&t->req, HTTP_MODE_ORIGIN);
	}
	return http(t, buf, len, ok);
}
