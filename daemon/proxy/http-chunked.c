/* Chunked transfer coding: validating a body's framing as it streams through the proxy. */

/*
 * The proxy forwards a chunked body byte for byte; this only has to be
 * sure where the body ends, and that the upstream cannot read the same
 * bytes differently. So: hex sizes without sign or overflow, CRLF only,
 * extensions exactly as RFC 9112 7.1.1 spells them, CRLF after each
 * chunk's data, trailer lines like header lines, and no framing or
 * routing fields (Content-Length, Transfer-Encoding, Host) in trailers,
 * which some servers merge into the head.
 */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/http-chunked.h"
#include "daemon/proxy/http-parse.h"

enum {
	ST_SIZE = 0,
	ST_DATA,
	ST_DATA_CR,
	ST_DATA_LF,
	ST_TRAILER,
	ST_DONE,
};

void
http_chunked_init(struct http_chunked *c)
{
	memset(c, 0, sizeof(*c));
}

/*
 * A complete line at s, resuming at c->line_scanned; max counts the line
 * with its CRLF.
 */
static int
find_line(struct http_chunked *c, const char *s, size_t len, size_t max,
    size_t *eol, const char **why)
{
	size_t i;

	for (i = c->line_scanned; i < len; i++) {
		if (i + 2 > max) {
			*why = "chunk-size or trailer line too long";
			return -EMSGSIZE;
		}
		if (s[i] == '\r') {
			if (i + 1 == len)
				break;
			if (s[i + 1] != '\n') {
				*why = "bare CR in chunked framing";
				return -EBADMSG;
			}
			c->line_scanned = 0;
			*eol = i;
			return 1;
		}
		if (s[i] == '\n' || s[i] == '\0') {
			*why = s[i] ? "bare LF in chunked framing" :
			    "NUL byte in chunked framing";
			return -EBADMSG;
		}
	}
	c->line_scanned = i;
	return 0;
}

static size_t
skip_bws(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t
skip_token(const char *s, size_t i, size_t len)
{
	while (i < len && http_parse_tchar((unsigned char)s[i]))
		i++;
	return i;
}

/* token / quoted-string at s[i]; returns the index after it, 0 if bad. */
static size_t
ext_value(const char *s, size_t i, size_t len)
{
	unsigned char c;
	size_t e;

	if (i < len && s[i] != '"') {
		e = skip_token(s, i, len);
		return e > i ? e : 0;
	}
	for (i++; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '"')
			return i + 1;
		if (c == '\\' && ++i < len)
			c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 0;
}

/* chunk-size [ chunk-ext ], the line without its CRLF. */
static int
size_line(struct http_chunked *c, const char *s, size_t len, const char **why)
{
	uint64_t n = 0;
	size_t i = 0, e;
	int d;

	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')
			d = (s[i] | 0x20) - 'a' + 10;
		else
			break;
		if (n > (UINT64_MAX >> 8)) {
			*why = "chunk size too large";
			return -EBADMSG;
		}
		n = n * 16 + (unsigned)d;
	}
	if (i == 0) {
		*why = "chunk size is not hexadecimal";
		return -EBADMSG;
	}
	while (i < len) {
		i = skip_bws(s, i, len);
		if (i == len || s[i] != ';')
			goto bad;
		i = skip_bws(s, i + 1, len);
		if ((e = skip_token(s, i, len)) == i)
			goto bad;
		i = skip_bws(s, e, len);
		if (i < len && s[i] == '=') {
			i = skip_bws(s, i + 1, len);
			if ((i = ext_value(s, i, len)) == 0)
				goto bad;
		}
	}
	c->remaining = n;
	c->state = n == 0 ? ST_TRAILER : ST_DATA;
	return 0;
bad:
	*why = "malformed chunk extension";
	return -EBADMSG;
}

static int
trailer_line(struct http_chunked *c, const char *s, size_t len,
    const char **why)
{
	size_t nlen, voff, vlen;

	if (len == 0) {
		c->state = ST_DONE;
		return 0;
	}
	if (++c->ntrailers > HTTP_TRAILERS_MAX) {
		*why = "more than 100 trailer fields";
		return -EMSGSIZE;
	}
	if (http_parse_field_line(s, len, &nlen, &voff, &vlen, why) < 0)
		return -EBADMSG;
	if (http_parse_token_is(s, nlen, "content-length") ||
	    http_parse_token_is(s, nlen, "transfer-encoding") ||
	    http_parse_token_is(s, nlen, "host")) {
		*why = "framing or routing field in trailer";
		return -EBADMSG;
	}
	return 0;
}

/* A size or trailer line; 0 and no progress if it is not complete yet. */
static int
line(struct http_chunked *c, const char *s, size_t len, size_t *used,
    const char **why)
{
	size_t eol, max = HTTP_CHUNK_LINE_MAX;
	int r;

	if (c->state == ST_TRAILER)
		max = HTTP_TRAILER_MAX - c->trailer_bytes;
	if ((r = find_line(c, s, len, max, &eol, why)) <= 0)
		return r;
	if (c->state == ST_TRAILER) {
		c->trailer_bytes += eol + 2;
		r = trailer_line(c, s, eol, why);
	} else
		r = size_line(c, s, eol, why);
	if (r < 0)
		return r;
	*used = eol + 2;
	return 1;
}

int
http_chunked_feed(struct http_chunked *c, const char *buf, size_t len,
    size_t *used, const char **why)
{
	size_t off = 0, n;
	int r;

	while (off < len && c->state != ST_DONE) {
		switch (c->state) {
		case ST_DATA:
			n = len - off < c->remaining ? len - off :
			    (size_t)c->remaining;
			off += n;
			c->data += n;
			if ((c->remaining -= n) == 0)
				c->state = ST_DATA_CR;
			break;
		case ST_DATA_CR:
		case ST_DATA_LF:
			if (buf[off] != (c->state == ST_DATA_CR ? '\r' : '\n')) {
				*why = "chunk data not followed by CRLF";
				return -EBADMSG;
			}
			off++;
			c->state = c->state == ST_DATA_CR ? ST_DATA_LF : ST_SIZE;
			break;
		default:
			if ((r = line(c, buf + off, len - off, &n, why)) < 0)
				return r;
			if (r == 0)
				goto out;
			off += n;
			break;
		}
	}
out:
	*used = off;
	return c->state == ST_DONE;
}
