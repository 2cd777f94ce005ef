/* Response heads from upstream servers: status, framing, persistence. */

/*
 * An upstream server is less hostile than a sandboxed client, but a
 * framing mistake here would splice one response into the next exchange,
 * so the rules are the strict ones of RFC 9112 §6.3: CRLF lines only,
 * Transfer-Encoding wins over Content-Length (and then the connection is
 * not reused), differing Content-Lengths are an error, and anything that
 * is not chunked-last is read until the server closes.
 */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/http-response.h"

void
http_response_init(struct http_resp *r)
{
	memset(r, 0, sizeof(*r));
}

static int
fail(struct http_resp *r, int err, const char *why)
{
	r->why = why;
	return err;
}

/* The end of the head ("\r\n\r\n") in buf[0..len), scanning only new bytes. */
static int
scan(struct http_resp *r, const char *buf, size_t len)
{
	size_t i = r->scanned, lim = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;

	for (; i < lim; i++) {
		if (buf[i] != '\n')
			continue;
		if (i == 0 || buf[i - 1] != '\r')
			return fail(r, -EBADMSG, "bare LF in response head");
		if (i >= 3 && buf[i - 2] == '\n' && buf[i - 3] == '\r')
			return (int)(i + 1);
	}
	if (len >= HTTP_HEAD_MAX)
		return fail(r, -EMSGSIZE, "response head too large");
	r->scanned = len;
	return 0;
}

static int
status_line(struct http_resp *r, const char *s, size_t len)
{
	static const char ver[] = "HTTP/1.";
	size_t n = sizeof(ver) - 1;

	if (len < n + 5 || memcmp(s, ver, n) != 0 ||
	    (s[n] != '0' && s[n] != '1') || s[n + 1] != ' ')
		return fail(r, -EBADMSG, "not an HTTP/1.x status line");
	r->minor = (uint8_t)(s[n] - '0');
	s += n + 2;
	len -= n + 2;
	if (len < 3 || s[0] < '1' || s[0] > '9' || s[1] < '0' || s[1] > '9' ||
	    s[2] < '0' || s[2] > '9' || (len > 3 && s[3] != ' '))
		return fail(r, -EBADMSG, "bad status code");
	r->status = (unsigned)((s[0] - '0') * 100 + (s[1] - '0') * 10 +
	    (s[2] - '0'));
	return 0;
}

struct conn_tokens {
	bool close, keep_alive;
};

static bool
conn_token(void *arg, const char *t, size_t len)
{
	struct conn_tokens *c = arg;

	if (http_parse_token_is(t, len, "close"))
		c->close = true;
	else if (http_parse_token_is(t, len, "keep-alive"))
		c->keep_alive = true;
	return false;
}

/* Each element in turn: what stays is whether the last is chunked. */
static bool
last_token(void *arg, const char *t, size_t len)
{
	bool *chunked = arg;

	*chunked = http_parse_token_is(t, len, "chunked");
	return false;
}

static int
content_length(struct http_resp *r, const char *v, size_t len, bool *seen)
{
	uint64_t n;

	if (http_parse_length(v, len, &n) < 0)
		return fail(r, -EBADMSG, "bad Content-Length");
	if (*seen && n != r->content_length)
		return fail(r, -EBADMSG, "differing Content-Length fields");
	*seen = true;
	r->content_length = n;
	return 0;
}

static int
fields(struct http_resp *r, const char *buf, size_t off, size_t end,
    struct conn_tokens *ct, bool *te, bool *chunked, bool *cl)
{
	size_t nlen, voff, vlen, n = 0;
	const char *eol, *line;
	int err;

	for (; off < end - 2; off = (size_t)(eol - buf) + 2) {
		eol = memchr(buf + off, '\r', end - off);
		line = buf + off;
		if (++n > HTTP_FIELDS_MAX)
			return fail(r, -EBADMSG, "too many response fields");
		if (http_parse_field_line(line, (size_t)(eol - line), &nlen,
		    &voff, &vlen, &r->why) < 0)
			return -EBADMSG;
		if (http_parse_token_is(line, nlen, "content-length")) {
			if ((err = content_length(r, line + voff, vlen, cl)) < 0)
				return err;
		} else if (http_parse_token_is(line, nlen, "transfer-encoding")) {
			*te = true;
			http_parse_list(line + voff, vlen, last_token, chunked);
		} else if (http_parse_token_is(line, nlen, "connection")) {
			http_parse_list(line + voff, vlen, conn_token, ct);
		}
	}
	return 0;
}

static void
framing(struct http_resp *r, bool head_request, bool te, bool chunked,
    bool cl)
{
	if (r->status == 101) {
		/* The proxy never asks for an upgrade; relay until close. */
		r->body = HTTP_RESP_EOF;
		r->close = true;
	} else if ((r->status >= 100 && r->status < 200) || r->status == 204 ||
	    r->status == 304 || head_request) {
		r->body = HTTP_RESP_NONE;
	} else if (te) {
		r->body = chunked ? HTTP_RESP_CHUNKED : HTTP_RESP_EOF;
		if (!chunked || cl)
			r->close = true;
	} else if (cl) {
		r->body = HTTP_RESP_LENGTH;
	} else {
		r->body = HTTP_RESP_EOF;
		r->close = true;
	}
}

int
http_response_parse(struct http_resp *r, const char *buf, size_t len,
    bool head_request)
{
	struct conn_tokens ct = { false, false };
	bool te = false, chunked = false, cl = false;
	const char *eol;
	int n, err;

	if ((n = scan(r, buf, len)) <= 0)
		return n;
	r->content_length = 0;
	eol = memchr(buf, '\r', (size_t)n);
	if ((err = status_line(r, buf, (size_t)(eol - buf))) < 0)
		return err;
	if ((err = fields(r, buf, (size_t)(eol - buf) + 2, (size_t)n, &ct,
	    &te, &chunked, &cl)) < 0)
		return err;
	r->close = r->minor == 0 ? !ct.keep_alive : ct.close;
	framing(r, head_request, te, chunked, cl);
	return n;
}

bool
http_response_interim(const struct http_resp *r)
{
	return r->status >= 100 && r->status < 200 && r->status != 101;
}
