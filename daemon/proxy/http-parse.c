/* HTTP/1.x request heads: what a client sends the proxy (or down a tunnel) before any body. */

/*
 * Every leniency here has been a request-smuggling or filter-bypass bug
 * in some proxy, so the parser is strict: CRLF only (a bare CR or LF is
 * an error, not a line end), no obs-fold, no whitespace before a
 * field's colon, one Host, one Content-Length of plain digits,
 * "chunked" as the only transfer coding and never next to
 * Content-Length, no names servers fold into those (Content_Length), no
 * userinfo or fragment in the URI. It scans only
 * the new bytes on each call, so a client dripping one byte at a time
 * costs linear work, and refuses a non-HTTP first byte at once.
 */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/http-parse.h"

#define METHOD_MAX	32

bool
http_parse_tchar(unsigned char c)
{
	/* A table: every byte of every field name comes through here. */
	static const bool tchar[256] = {
		['!'] = true, ['#'] = true, ['$'] = true, ['%'] = true,
		['&'] = true, ['\''] = true, ['*'] = true, ['+'] = true,
		['-'] = true, ['.'] = true, ['^'] = true, ['_'] = true,
		['`'] = true, ['|'] = true, ['~'] = true,
		['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true,
	};

	return tchar[c];
}

static int
fail(struct http_req *r, int err, int status, const char *why)
{
	r->status = status;
	r->why = why;
	return err;
}

static struct http_span
span(size_t off, size_t len)
{
	struct http_span s = { (uint16_t)off, (uint16_t)len };

	return s;
}

static const char *
at(const struct http_req *r, struct http_span s)
{
	return r->head + s.off;
}

static bool
ci_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i;
	char x, y;

	if (alen != blen)
		return false;
	for (i = 0; i < alen; i++) {
		x = (a[i] >= 'A' && a[i] <= 'Z') ? a[i] + 32 : a[i];
		y = (b[i] >= 'A' && b[i] <= 'Z') ? b[i] + 32 : b[i];
		if (x != y)
			return false;
	}
	return true;
}

bool
http_parse_token_is(const char *s, size_t len, const char *name)
{
	return ci_equal(s, len, name, strlen(name));
}

static bool
name_is(const struct http_req *r, size_t i, const char *name)
{
	return http_parse_token_is(at(r, r->field[i].name),
	    r->field[i].name.len, name);
}

bool
http_parse_list(const char *v, size_t len,
    bool (*fn)(void *arg, const char *t, size_t tlen), void *arg)
{
	size_t b = 0, e;

	while (b < len) {
		while (b < len && (v[b] == ' ' || v[b] == '\t' || v[b] == ','))
			b++;
		for (e = b; e < len && v[e] != ','; e++)
			;
		while (e > b && (v[e - 1] == ' ' || v[e - 1] == '\t'))
			e--;
		if (e > b && fn(arg, v + b, e - b))
			return true;
		while (b < len && v[b] != ',')
			b++;
	}
	return false;
}

int
http_parse_length(const char *v, size_t len, uint64_t *n)
{
	size_t i;

	*n = 0;
	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9' || *n > (UINT64_MAX - 9) / 10)
			return -1;
		*n = *n * 10 + (uint64_t)(v[i] - '0');
	}
	return 0;
}

struct wanted {
	const char *tok;
	size_t len;
};

static bool
is_wanted(void *arg, const char *t, size_t len)
{
	const struct wanted *w = arg;

	return ci_equal(t, len, w->tok, w->len);
}

/* Whether a comma-separated list of tokens holds tok. */
static bool
list_has(const char *s, size_t len, const char *tok, size_t toklen)
{
	struct wanted w = { tok, toklen };

	return http_parse_list(s, len, is_wanted, &w);
}

/* Whether any Connection field lists the token. */
static bool
connection_has(const struct http_req *r, const char *tok, size_t toklen)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (name_is(r, i, "connection") &&
		    list_has(at(r, r->field[i].value), r->field[i].value.len,
		    tok, toklen))
			return true;
	return false;
}

void
http_parse_init(struct http_req *r, enum http_mode mode)
{
	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->host_field = -1;
}

/*
 * Look for the empty line that ends the head in the bytes not seen yet.
 * Empty lines before the request line are skipped (RFC 9112 2.2).
 */
static int
scan(struct http_req *r, const char *buf, size_t len)
{
	size_t i = r->scanned, lim = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;
	unsigned char c;

	while (i == r->start && i + 1 < lim && buf[i] == '\r' &&
	    buf[i + 1] == '\n')
	{
		i += 2;
		r->start = i;
	}
	for (; i < lim; i++) {
		c = (unsigned char)buf[i];
		if (!r->method_seen) {
			if (c == '\r' && i == r->start && i + 1 == len)
				break;
			if (c == ' ' && i > r->start)
				r->method_seen = true;
			else if (!http_parse_tchar(c) || i - r->start >= METHOD_MAX)
				return fail(r, -EPROTO, 400,
				    "not an HTTP request");
		} else if (c == '\0') {
			return fail(r, -EBADMSG, 400, "NUL byte in request head");
		} else if (c == '\r') {
			if (i + 1 == len)
				break;
			if (buf[i + 1] != '\n')
				return fail(r, -EBADMSG, 400, "bare CR in request head");
		} else if (c == '\n') {
			if (buf[i - 1] != '\r')
				return fail(r, -EBADMSG, 400, "bare LF in request head");
			if (memcmp(buf + i - 3, "\r\n\r\n", 4) == 0) {
				r->scanned = i + 1;
				return (int)(i + 1);
			}
		}
	}
	r->scanned = i;
	if (i >= HTTP_HEAD_MAX)
		return fail(r, -EMSGSIZE, 431, "request head larger than 16 KiB");
	return 0;
}

/* http://authority[/path][?query]; nothing else is forwarded. */
static int
absolute_form(struct http_req *r, const char *t, size_t len)
{
	const char *why;
	size_t i = 0, a, e;
	uint16_t port;

	while (i < len && t[i] != ':' && t[i] != '/')
		i++;
	if (i + 3 > len || memcmp(t + i, "://", 3) != 0)
		return fail(r, -EBADMSG, 400, "malformed request target");
	if (!http_parse_token_is(t, i, "http"))
		return fail(r, -ENOTSUP, 400,
		    "only http:// URIs are forwarded (https: use CONNECT)");
	a = e = i + 3;
	while (e < len && t[e] != '/' && t[e] != '?')
		e++;
	if (memchr(t + a, '@', e - a) != NULL)
		return fail(r, -EBADMSG, 400, "userinfo in request URI");
	if (host_parse_hostport(t + a, e - a, &r->host, &port, &why) < 0)
		return fail(r, -EBADMSG, 400, why);
	r->port = port != 0 ? port : 80;
	r->path = span(r->target.off + e, len - e);
	r->form = HTTP_FORM_ABSOLUTE;
	return 0;
}

static int
target_form(struct http_req *r)
{
	const char *t = at(r, r->target), *m = at(r, r->method), *why;
	size_t len = r->target.len, mlen = r->method.len;

	if (memchr(t, '#', len) != NULL)
		return fail(r, -EBADMSG, 400, "fragment in request target");
	if (mlen == 7 && memcmp(m, "CONNECT", 7) == 0) {
		if (r->mode != HTTP_MODE_PROXY)
			return fail(r, -EBADMSG, 400, "CONNECT inside a tunnel");
		if (host_parse_hostport(t, len, &r->host, &r->port, &why) < 0)
			return fail(r, -EBADMSG, 400, why);
		if (r->port == 0)
			return fail(r, -EBADMSG, 400, "CONNECT target without a port");
		r->form = HTTP_FORM_AUTHORITY;
		return 0;
	}
	if (t[0] == '/' || (len == 1 && t[0] == '*' && mlen == 7 &&
	    memcmp(m, "OPTIONS", 7) == 0)) {
		if (r->mode == HTTP_MODE_PROXY)
			return fail(r, -EBADMSG, 400,
			    "not a proxy request (expected http://host/...)");
		r->path = r->target;
		r->form = HTTP_FORM_ORIGIN;
		return 0;
	}
	return absolute_form(r, t, len);
}

static int
request_line(struct http_req *r, size_t off, size_t end)
{
	const char *s = r->head, *sp1, *sp2, *v;
	size_t i;

	sp1 = memchr(s + off, ' ', end - off);
	r->method = span(off, (size_t)(sp1 - s) - off);
	sp2 = memchr(sp1 + 1, ' ', (size_t)(s + end - sp1 - 1));
	if (sp2 == NULL || sp2 == sp1 + 1)
		return fail(r, -EBADMSG, 400, "malformed request line");
	r->target = span((size_t)(sp1 + 1 - s), (size_t)(sp2 - sp1 - 1));
	for (i = 0; i < r->target.len; i++)
		if ((unsigned char)sp1[1 + i] < 0x21 ||
		    (unsigned char)sp1[1 + i] > 0x7e)
			return fail(r, -EBADMSG, 400,
			    "invalid byte in request target");
	v = sp2 + 1;
	if (s + end - v != 8 || memcmp(v, "HTTP/", 5) != 0 || v[6] != '.' ||
	    v[5] < '0' || v[5] > '9' || v[7] < '0' || v[7] > '9')
		return fail(r, -EBADMSG, 400, "malformed HTTP version");
	if (v[5] != '1' || v[7] > '1')
		return fail(r, -ENOTSUP, 505, "HTTP version not supported");
	r->minor = (uint8_t)(v[7] - '0');
	return target_form(r);
}

static int
content_length(struct http_req *r, const char *v, size_t len)
{
	uint64_t n = 0;

	if (r->body != HTTP_BODY_NONE)
		return fail(r, -EBADMSG, 400, r->body == HTTP_BODY_LENGTH ?
		    "duplicate Content-Length" :
		    "both Content-Length and Transfer-Encoding");
	if (len > 18 || http_parse_length(v, len, &n) < 0)
		return fail(r, -EBADMSG, 400, "bad Content-Length");
	r->body = HTTP_BODY_LENGTH;
	r->content_length = n;
	return 0;
}

/*
 * A name that is not one the proxy acts on but that CGI, WSGI, PHP and
 * other servers read as one, '_' and '-' being the same to them
 * (Content_Length): forwarded as an ordinary field, it would be framing
 * or a hop-by-hop field the proxy did not see.
 */
static bool
lookalike(const struct http_req *r, size_t i)
{
	static const char *const names[] = {
		"content-length", "transfer-encoding", "keep-alive",
		"proxy-connection", "proxy-authorization", "proxy-authenticate",
	};
	const char *n = at(r, r->field[i].name);
	size_t len = r->field[i].name.len, k, j;
	char c;

	if (memchr(n, '_', len) == NULL)
		return false;
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (strlen(names[k]) != len)
			continue;
		for (j = 0; j < len; j++) {
			c = n[j] == '_' ? '-' : n[j];
			if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != names[k][j])
				break;
		}
		if (j == len)
			return true;
	}
	return false;
}

/* Fields whose meaning the proxy must know: framing and Host. */
static int
known_field(struct http_req *r, size_t i)
{
	const char *v = at(r, r->field[i].value), *why;
	size_t len = r->field[i].value.len;

	if (lookalike(r, i))
		return fail(r, -EBADMSG, 400,
		    "field name with '_' that servers read as a framing or "
		    "hop-by-hop field");
	if (name_is(r, i, "host")) {
		if (r->host_field >= 0)
			return fail(r, -EBADMSG, 400, "duplicate Host");
		if (host_parse_hostport(v, len, &r->host_hdr,
		    &r->host_hdr_port, &why) < 0)
			return fail(r, -EBADMSG, 400, why);
		r->host_field = (int)i;
	} else if (name_is(r, i, "content-length")) {
		return content_length(r, v, len);
	} else if (name_is(r, i, "transfer-encoding")) {
		if (r->body != HTTP_BODY_NONE)
			return fail(r, -EBADMSG, 400, r->body == HTTP_BODY_CHUNKED ?
			    "duplicate Transfer-Encoding" :
			    "both Content-Length and Transfer-Encoding");
		if (r->minor == 0)
			return fail(r, -EBADMSG, 400,
			    "Transfer-Encoding in an HTTP/1.0 request");
		if (!http_parse_token_is(v, len, "chunked"))
			return fail(r, -ENOTSUP, 501,
			    "transfer coding other than chunked");
		r->body = HTTP_BODY_CHUNKED;
	}
	return 0;
}

/* Whole-head rules, once every field is known. */
static int
finish(struct http_req *r)
{
	if (r->host_field < 0 && r->minor == 1 &&
	    r->form != HTTP_FORM_AUTHORITY)
		return fail(r, -EBADMSG, 400, "HTTP/1.1 request without Host");
	if (r->form == HTTP_FORM_AUTHORITY && (r->body == HTTP_BODY_CHUNKED ||
	    (r->body == HTTP_BODY_LENGTH && r->content_length != 0)))
		return fail(r, -EBADMSG, 400, "CONNECT with a body");
	if (r->minor == 0)
		r->close = !connection_has(r, "keep-alive", sizeof("keep-alive") - 1);
	else
		r->close = connection_has(r, "close", sizeof("close") - 1);
	return 0;
}

int
http_parse_field_line(const char *s, size_t len, size_t *name_len,
    size_t *value_off, size_t *value_len, const char **why)
{
	size_t i = 0, n, b, e;
	unsigned char c;

	if (len > 0 && (s[0] == ' ' || s[0] == '\t')) {
		*why = "obsolete line folding";
		return -EBADMSG;
	}
	while (i < len && http_parse_tchar((unsigned char)s[i]))
		i++;
	if (i == 0 || i == len || s[i] != ':') {
		*why = i > 0 && i < len && (s[i] == ' ' || s[i] == '\t') ?
		    "whitespace before ':' in field" : "invalid field name";
		return -EBADMSG;
	}
	n = i;
	b = i + 1;
	while (b < len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	e = len;
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	for (i = b; i < e; i++) {
		c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			*why = "invalid byte in field value";
			return -EBADMSG;
		}
	}
	*name_len = n;
	*value_off = b;
	*value_len = e - b;
	return 0;
}

static int
parse_head(struct http_req *r, size_t end)
{
	const char *eol;
	size_t off = r->start, nlen, voff, vlen;
	int err;

	eol = memchr(r->head + off, '\r', end - off);
	if ((err = request_line(r, off, (size_t)(eol - r->head))) < 0)
		return err;
	for (off = (size_t)(eol - r->head) + 2; off < end - 2;
	    off = (size_t)(eol - r->head) + 2) {
		eol = memchr(r->head + off, '\r', end - off);
		if (r->nfields == HTTP_FIELDS_MAX)
			return fail(r, -EMSGSIZE, 431, "more than 100 fields");
		if (http_parse_field_line(r->head + off,
		    (size_t)(eol - r->head) - off, &nlen, &voff, &vlen,
		    &r->why) < 0)
			return fail(r, -EBADMSG, 400, r->why);
		r->field[r->nfields].name = span(off, nlen);
		r->field[r->nfields].value = span(off + voff, vlen);
		if ((err = known_field(r, r->nfields++)) < 0)
			return err;
	}
	return finish(r);
}

int
http_parse_request(struct http_req *r, const char *buf, size_t len)
{
	int n, err;

	if ((n = scan(r, buf, len)) <= 0)
		return n;
	r->head = buf;
	r->head_len = (size_t)n;
	if ((err = parse_head(r, (size_t)n)) < 0)
		return err;
	return n;
}

int
http_parse_host_agrees(const struct http_req *r, const char **why)
{
	uint16_t port = r->host_hdr_port != 0 ? r->host_hdr_port : 80;

	if (r->form != HTTP_FORM_ABSOLUTE || r->host_field < 0)
		return 0;
	if (!host_equal(&r->host, &r->host_hdr)) {
		*why = "Host field names another host than the request URI";
		return -EPERM;
	}
	if (port != r->port) {
		*why = "Host field names another port than the request URI";
		return -EPERM;
	}
	return 0;
}

int
http_parse_origin_line(const struct http_req *r, char *buf, size_t size)
{
	const char *p = at(r, r->path);
	const char *slash = r->path.len == 0 || p[0] == '?' ? "/" : "";
	size_t n;
	char *o;

	if (r->form == HTTP_FORM_AUTHORITY)
		return -EINVAL;
	/* Once per forwarded request: copies, not printf. */
	n = r->method.len + 1 + strlen(slash) + r->path.len +
	    sizeof(" HTTP/1.x\r\n") - 1;
	if (n >= size || r->minor > 9)
		return -ENOSPC;
	o = buf;
	memcpy(o, at(r, r->method), r->method.len);
	o += r->method.len;
	*o++ = ' ';
	memcpy(o, slash, strlen(slash));
	o += strlen(slash);
	memcpy(o, p, r->path.len);
	o += r->path.len;
	memcpy(o, " HTTP/1.", 8);
	o += 8;
	*o++ = (char)('0' + r->minor);
	memcpy(o, "\r\n", 3);
	return (int)n;
}

bool
http_parse_hop_by_hop(const struct http_req *r, size_t i)
{
	static const char *const fixed[] = {
		"connection", "keep-alive", "proxy-connection",
		"proxy-authorization", "proxy-authenticate", "te", "trailer",
		"upgrade",
	};
	size_t k;

	for (k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
		if (name_is(r, i, fixed[k]))
			return true;
	/*
	 * "Connection: content-length" must not strip the framing the body
	 * is forwarded with, nor Host: those stay whatever Connection says.
	 */
	if (name_is(r, i, "host") || name_is(r, i, "content-length") ||
	    name_is(r, i, "transfer-encoding"))
		return false;
	return connection_has(r, at(r, r->field[i].name), r->field[i].name.len);
}
