/* Reading the host a tunnel is really for out of its first bytes, without decrypting anything. */

/*
 * The proxy compares this host with the CONNECT target, a cheap stop to
 * domain fronting. Since the check can be evaded by whatever a parser
 * gives up on, nothing here guesses: a ClientHello split over several
 * records is reassembled (record fragmentation is a known way past
 * filters), a ClientHello spread over more than SNI_RECORDS_MAX records
 * or with two server_name extensions or two names is MALFORMED, and the
 * name goes through host_canon like every other host. Every length is
 * checked against the bytes that exist and the structure that holds it.
 */
#include <string.h>

#include "daemon/proxy/sni.h"

#define REC_HANDSHAKE	0x16
#define REC_MAX		16384
#define HS_CLIENT_HELLO	1
#define EXT_SERVER_NAME	0x0000
#define EXT_ECH		0xfe0d

/* The handshake stream: record payloads, in order, without copying. */
struct stream {
	const uint8_t	*buf;
	size_t		 off[SNI_RECORDS_MAX];
	size_t		 len[SNI_RECORDS_MAX];
	size_t		 n;
	size_t		 total;
};

/* Copy n bytes at stream position pos; false if they are not there. */
static bool
stream_get(const struct stream *s, size_t pos, void *out, size_t n)
{
	uint8_t *o = out;
	size_t i, k;

	if (pos > s->total || n > s->total - pos)
		return false;
	for (i = 0; i < s->n && n > 0; i++) {
		if (pos >= s->len[i]) {
			pos -= s->len[i];
			continue;
		}
		k = s->len[i] - pos < n ? s->len[i] - pos : n;
		memcpy(o, s->buf + s->off[i] + pos, k);
		o += k;
		n -= k;
		pos = 0;
	}
	return true;
}

static size_t
be(const uint8_t *p, size_t n)
{
	size_t v = 0, i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * Gather handshake records until the stream holds the whole ClientHello
 * (its length is in its first four bytes); *hello_len is then set.
 */
static int
gather(struct stream *s, const uint8_t *buf, size_t len, size_t *hello_len,
    size_t *need, const char **why)
{
	size_t o = 0, rl, want;
	uint8_t hs[4];

	memset(s, 0, sizeof(*s));
	s->buf = buf;
	if (len > 0 && buf[0] != REC_HANDSHAKE)
		return SNI_NOT_TLS;
	for (;;) {
		if ((o < len && buf[o] != REC_HANDSHAKE) ||
		    (o + 1 < len && buf[o + 1] != 3) ||
		    (o + 2 < len && buf[o + 2] > 4)) {
			*why = "not a TLS handshake record";
			return SNI_MALFORMED;
		}
		if (len < o + 5) {
			*need = o + 5;
			return SNI_NEED_MORE;
		}
		rl = be(buf + o + 3, 2);
		if (rl == 0 || rl > REC_MAX || s->n == SNI_RECORDS_MAX) {
			*why = s->n == SNI_RECORDS_MAX ?
			    "ClientHello spread over too many records" :
			    "bad TLS record length";
			return SNI_MALFORMED;
		}
		if (len < o + 5 + rl) {
			*need = o + 5 + rl;
			return SNI_NEED_MORE;
		}
		s->off[s->n] = o + 5;
		s->len[s->n++] = rl;
		s->total += rl;
		o += 5 + rl;
		if (!stream_get(s, 0, hs, 4))
			continue;
		want = 4 + be(hs + 1, 3);
		if (hs[0] != HS_CLIENT_HELLO || want > SNI_HELLO_MAX) {
			*why = hs[0] != HS_CLIENT_HELLO ?
			    "first handshake message is not a ClientHello" :
			    "ClientHello too large";
			return SNI_MALFORMED;
		}
		if (s->total >= want) {
			*hello_len = want;
			return SNI_FOUND;
		}
	}
}

/* A cursor over part of the stream that never leaves [pos, end). */
struct cursor {
	const struct stream *s;
	size_t		 pos;
	size_t		 end;
};

static bool
take(struct cursor *c, void *out, size_t n)
{
	if (n > c->end - c->pos || !stream_get(c->s, c->pos, out, n))
		return false;
	c->pos += n;
	return true;
}

static bool
skip(struct cursor *c, size_t n)
{
	if (n > c->end - c->pos)
		return false;
	c->pos += n;
	return true;
}

/* A big-endian length of n (1..3) bytes. */
static bool
length(struct cursor *c, size_t n, size_t *v)
{
	uint8_t b[3];

	if (!take(c, b, n))
		return false;
	*v = be(b, n);
	return true;
}

/* The server_name extension's body: exactly one host_name (as OpenSSL). */
static int
server_name(const struct stream *s, size_t pos, size_t len, struct host *h,
    const char **why)
{
	struct cursor c = { s, pos, pos + len };
	char name[256];
	size_t list, n;
	uint8_t type;

	if (!length(&c, 2, &list) || list != len - 2 || !take(&c, &type, 1) ||
	    type != 0 || !length(&c, 2, &n) || n != len - 5) {
		*why = "server_name must hold exactly one host_name";
		return SNI_MALFORMED;
	}
	if (n >= sizeof(name) || !take(&c, name, n)) {
		*why = "server name too long";
		return SNI_MALFORMED;
	}
	if (host_canon(name, n, h, why) < 0)
		return SNI_MALFORMED;
	return SNI_FOUND;
}

static int
client_hello(const struct stream *s, size_t end, struct sni_hello *out,
    const char **why)
{
	struct cursor c = { s, 4, end };
	struct sni_hello h;
	size_t n, type;
	uint8_t v[2];
	int found = SNI_NO_SNI;

	memset(&h, 0, sizeof(h));
	*why = "truncated or malformed ClientHello";
	if (!take(&c, v, 2) || v[0] != 3 || !skip(&c, 32) ||
	    !length(&c, 1, &n) || n > 32 || !skip(&c, n) ||
	    !length(&c, 2, &n) || n < 2 || n % 2 != 0 || !skip(&c, n) ||
	    !length(&c, 1, &n) || n < 1 || !skip(&c, n))
		return SNI_MALFORMED;
	if (c.pos < c.end &&
	    (!length(&c, 2, &n) || n != c.end - c.pos)) {
		*why = "extensions do not fill the ClientHello";
		return SNI_MALFORMED;
	}
	while (c.pos < c.end) {
		if (!length(&c, 2, &type) || !length(&c, 2, &n) ||
		    n > c.end - c.pos) {
			*why = "truncated extension";
			return SNI_MALFORMED;
		}
		if (type == EXT_SERVER_NAME) {
			if (found == SNI_FOUND) {
				*why = "two server_name extensions";
				return SNI_MALFORMED;
			}
			if ((found = server_name(s, c.pos, n, &h.host, why)) < 0)
				return found;
		} else if (type == EXT_ECH)
			h.ech = true;
		c.pos += n;
	}
	*out = h;
	return found;
}

int
sni_parse(const uint8_t *buf, size_t len, struct sni_hello *out,
    size_t *need, const char **why)
{
	struct stream s;
	size_t hello_len;
	int r;

	if ((r = gather(&s, buf, len, &hello_len, need, why)) != SNI_FOUND)
		return r;
	return client_hello(&s, hello_len, out, why);
}
