/* Parses upstream proxy URLs and noProxy lists, and frames the CONNECT exchange with the upstream. */

/*
 * Everything here comes from a policy file or the daemon's environment,
 * except the CONNECT reply, which comes from the network. A URL may hold
 * a password, so no reason quotes it, and the password leaves this file
 * only inside the Proxy-Authorization value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/upstream-parse.h"

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static bool
prefix_ci(const char *s, size_t len, const char *p)
{
	size_t i, n = strlen(p);

	if (len < n)
		return false;
	for (i = 0; i < n; i++)
		if (lower((unsigned char)s[i]) != p[i])
			return false;
	return true;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decodes s[0..len) onto out; -EINVAL on a bad escape, a control
 * byte, or more than room. */
static int
unescape(const char *s, size_t len, char *out, size_t room, size_t *n)
{
	size_t i, o = *n;
	int hi, lo, c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '%') {
			if (i + 2 >= len)
				return -EINVAL;
			if ((hi = hexval((unsigned char)s[i + 1])) < 0 ||
			    (lo = hexval((unsigned char)s[i + 2])) < 0)
				return -EINVAL;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f || o >= room)
			return -EINVAL;
		out[o++] = (char)c;
	}
	*n = o;
	return 0;
}

static void
base64(const unsigned char *in, size_t len, char *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;
	uint32_t v;

	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		*out++ = tab[v >> 18];
		*out++ = tab[(v >> 12) & 63];
		*out++ = tab[(v >> 6) & 63];
		*out++ = tab[v & 63];
	}
	if (i < len) {
		v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1]
		    << 8 : 0);
		*out++ = tab[v >> 18];
		*out++ = tab[(v >> 12) & 63];
		*out++ = i + 1 < len ? tab[(v >> 6) & 63] : '=';
		*out++ = '=';
	}
	*out = '\0';
}

/* user[:password] as "Basic base64(user:password)" in u->auth. */
static int
userinfo(const char *s, size_t len, struct upstream_url *u)
{
	char plain[UPSTREAM_USERINFO_MAX + 1];
	const char *colon = memchr(s, ':', len);
	size_t n = 0, ulen = colon ? (size_t)(colon - s) : len;

	if (unescape(s, ulen, plain, UPSTREAM_USERINFO_MAX, &n) < 0)
		return -EINVAL;
	if (n == 0 || memchr(plain, ':', n) != NULL)
		return -EINVAL;	/* an empty user, or ':' inside it */
	plain[n++] = ':';
	if (colon != NULL && unescape(colon + 1, len - ulen - 1, plain,
	    UPSTREAM_USERINFO_MAX, &n) < 0)
		return -EINVAL;
	memcpy(u->auth, "Basic ", 6);
	base64((const unsigned char *)plain, n, u->auth + 6);
	memset(plain, 0, sizeof(plain));
	return 0;
}

int
upstream_url_parse(const char *s, size_t len, struct upstream_url *out,
    const char **why)
{
	struct upstream_url u;
	const char *at, *end;
	size_t i;

	memset(&u, 0, sizeof(u));
	if (len > UPSTREAM_URL_MAX || memchr(s, '\0', len) != NULL) {
		*why = "the upstream proxy URL is too long or has a NUL";
		return -EINVAL;
	}
	if (prefix_ci(s, len, "https://")) {
		*why = "TLS to the upstream proxy is not supported: write "
		    "http://HOST:PORT";
		return -EINVAL;
	}
	if (!prefix_ci(s, len, "http://")) {
		*why = "the upstream proxy must be an http:// URL "
		    "(http://[user:password@]host[:port])";
		return -EINVAL;
	}
	s += 7;
	len -= 7;
	if (len > 0 && s[len - 1] == '/')
		len--;
	for (i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == '?' || s[i] == '#' ||
		    (unsigned char)s[i] <= 0x20 || s[i] == 0x7f) {
			*why = "the upstream proxy URL has a path, query or "
			    "space: only http://[user:password@]host[:port]";
			return -EINVAL;
		}
	end = s + len;
	for (at = end; at > s && at[-1] != '@'; at--)
		;
	if (at > s) {
		if (userinfo(s, (size_t)(at - 1 - s), &u) < 0) {
			*why = "bad user:password in the upstream proxy URL "
			    "(percent-encode ':', '@' and '/' in them)";
			return -EINVAL;
		}
	}
	if (host_parse_hostport(at, (size_t)(end - at), &u.host, &u.port,
	    why) < 0) {
		memset(&u, 0, sizeof(u));
		*why = "bad host or port in the upstream proxy URL";
		return -EINVAL;
	}
	if (u.port == 0)
		u.port = 80;
	*out = u;
	memset(&u, 0, sizeof(u));
	return 0;
}

int
upstream_url_format(const struct upstream_url *u, char *buf, size_t size)
{
	int n;

	if (size < 8)
		return -ENOSPC;
	memcpy(buf, "http://", 7);
	if ((n = host_format(&u->host, u->port, buf + 7, size - 7)) < 0)
		return n;
	return n + 7;
}

/* One noProxy entry s[0..len) (no separators inside). */
static int
noproxy_entry(const char *s, size_t len, struct noproxy_entry *e,
    const char **why)
{
	const char *slash = memchr(s, '/', len);
	unsigned bits = 0, max;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (slash != NULL) {
		e->kind = NOPROXY_CIDR;
		if (host_canon(s, (size_t)(slash - s), &e->host, why) < 0 ||
		    e->host.kind == HOST_NAME) {
			*why = "noProxy: a CIDR range needs an address before "
			    "'/'";
			return -EINVAL;
		}
		max = e->host.kind == HOST_IPV4 ? 32 : 128;
		if (slash + 1 == s + len || len - (size_t)(slash - s) > 4)
			goto bad_bits;
		for (i = (size_t)(slash - s) + 1; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				goto bad_bits;
			bits = bits * 10 + (unsigned)(s[i] - '0');
		}
		if (bits > max)
			goto bad_bits;
		e->bits = (uint8_t)bits;
		return 0;
	}
	if (len >= 2 && s[0] == '*' && s[1] == '.') {
		s += 2;
		len -= 2;
	} else if (len >= 1 && s[0] == '.') {
		s++;
		len--;
	}
	if (memchr(s, '*', len) != NULL) {
		*why = "noProxy: '*' only as the whole list or as a leading *.";
		return -EINVAL;
	}
	if (host_parse_hostport(s, len, &e->host, &e->port, why) < 0)
		return -EINVAL;
	e->kind = e->host.kind == HOST_NAME ? NOPROXY_NAME : NOPROXY_ADDR;
	return 0;
bad_bits:
	*why = "noProxy: a CIDR prefix length is 0-32 (IPv4) or 0-128 (IPv6)";
	return -EINVAL;
}

static bool
sep(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
noproxy_parse(const char *s, size_t len, struct noproxy **out,
    const char **why)
{
	struct noproxy *np;
	size_t i = 0, j;

	if (memchr(s, '\0', len) != NULL) {
		*why = "noProxy: a NUL inside";
		return -EINVAL;
	}
	np = calloc(1, sizeof(*np) + NOPROXY_MAX * sizeof(np->e[0]));
	if (np == NULL)
		return -ENOMEM;
	while (i < len) {
		for (; i < len && sep(s[i]); i++)
			;
		for (j = i; j < len && !sep(s[j]); j++)
			;
		if (j == i)
			break;
		if (j - i == 1 && s[i] == '*') {
			np->all = true;
		} else if (np->n == NOPROXY_MAX) {
			*why = "noProxy: more than 256 entries";
			free(np);
			return -EINVAL;
		} else if (noproxy_entry(s + i, j - i, &np->e[np->n], why) <
		    0) {
			free(np);
			return -EINVAL;
		} else {
			np->n++;
		}
		i = j;
	}
	*out = np;
	return 0;
}

void
noproxy_free(struct noproxy *np)
{
	free(np);
}

static bool
in_range(const struct noproxy_entry *e, const struct host *h)
{
	unsigned whole = e->bits / 8u, rest = e->bits % 8u;
	uint8_t mask;

	if (h->kind != e->host.kind)
		return false;
	if (memcmp(h->addr, e->host.addr, whole) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (h->addr[whole] & mask) == (e->host.addr[whole] & mask);
}

static bool
name_under(const struct host *h, const struct host *name)
{
	if (h->kind != HOST_NAME)
		return false;
	if (h->len == name->len)
		return strcmp(h->text, name->text) == 0;
	return h->len > name->len + 1 &&
	    h->text[h->len - name->len - 1] == '.' &&
	    strcmp(h->text + h->len - name->len, name->text) == 0;
}

bool
noproxy_match(const struct noproxy *np, const struct host *h, uint16_t port)
{
	const struct noproxy_entry *e;
	size_t i;

	if (np == NULL)
		return false;
	if (np->all)
		return true;
	for (i = 0; i < np->n; i++) {
		e = &np->e[i];
		if (e->port != 0 && e->port != port)
			continue;
		if ((e->kind == NOPROXY_CIDR && in_range(e, h)) ||
		    (e->kind == NOPROXY_ADDR && host_equal(&e->host, h)) ||
		    (e->kind == NOPROXY_NAME && name_under(h, &e->host)))
			return true;
	}
	return false;
}

int
upstream_connect_request(const struct host *h, uint16_t port,
    const char *auth, char *buf, size_t size)
{
	char target[HOST_TEXT_MAX + 16];
	size_t n;
	int t;

	if ((t = host_format(h, port, target, sizeof(target))) < 0)
		return t;
	n = (size_t)t * 2 + strlen(auth) + 64;
	if (n >= size)
		return -ENOSPC;
	n = 0;
#define ADD(s, l) (memcpy(buf + n, (s), (l)), n += (l))
	ADD("CONNECT ", 8);
	ADD(target, (size_t)t);
	ADD(" HTTP/1.1\r\nHost: ", 17);
	ADD(target, (size_t)t);
	ADD("\r\n", 2);
	if (auth[0] != '\0') {
		ADD("Proxy-Authorization: ", 21);
		ADD(auth, strlen(auth));
		ADD("\r\n", 2);
	}
	ADD("\r\n", 2);
#undef ADD
	buf[n] = '\0';
	return (int)n;
}

int
upstream_connect_reply(const char *buf, size_t len, unsigned *status,
    const char **why)
{
	size_t i, end = 0;

	/* The status line can be judged before the head is whole. */
	if (len >= 1 && memcmp(buf, "HTTP/1.", len < 7 ? len : 7) != 0)
		goto bad;
	if (len >= 13 && ((buf[7] != '0' && buf[7] != '1') || buf[8] != ' ' ||
	    buf[9] < '1' || buf[9] > '5' || buf[10] < '0' || buf[10] > '9' ||
	    buf[11] < '0' || buf[11] > '9' ||
	    (buf[12] != ' ' && buf[12] != '\r')))
		goto bad;
	for (i = 0; i + 3 < len && i + 4 <= UPSTREAM_REPLY_MAX; i++)
		if (memcmp(buf + i, "\r\n\r\n", 4) == 0) {
			end = i + 4;
			break;
		}
	if (end == 0) {
		if (len >= UPSTREAM_REPLY_MAX) {
			*why = "the upstream proxy's reply head is too long";
			return -EBADMSG;
		}
		return 0;
	}
	if (end < 16)
		goto bad;
	*status = (unsigned)(buf[9] - '0') * 100 +
	    (unsigned)(buf[10] - '0') * 10 + (unsigned)(buf[11] - '0');
	return (int)end;
bad:
	*why = "the upstream proxy did not answer CONNECT with HTTP/1.x";
	return -EBADMSG;
}
