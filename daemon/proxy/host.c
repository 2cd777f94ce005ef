/* Host-name validation and canonicalisation: the one place that decides what a host string means. */

/*
 * A filtering proxy is only as good as its agreement with the resolver and
 * the client about what a host string names. Everything here is strict on
 * purpose, and the canonical form is what both the rule match and the
 * upstream connection use, so there is nothing left to disagree about:
 *
 * - Bytes: NUL, control bytes, spaces and anything >= 0x80 are rejected.
 *   IDNA must arrive already encoded: "xn--" labels are accepted as they
 *   are, raw UTF-8 is not (decoding it here would be a second, different
 *   IDNA implementation next to the client's).
 * - Names: letters, digits, '-' and '_' (glibc's res_hnok set; '_' occurs
 *   in real host names), labels 1..63 bytes, 253 bytes in all, no leading
 *   '-'. Upper case is folded; ONE trailing dot is dropped ("a.b." is
 *   "a.b"; "a.b.." has an empty label and is rejected).
 * - IPv4: every form inet_aton(3) takes ("2130706433", "0x7f.1", "127.1",
 *   "0177.0.0.1") becomes a dotted quad. A name whose last label is a
 *   number ("1.2.3.256", "a.08", "a.0x1") is rejected rather than sent to
 *   DNS: it is an address typo or a trick, never a real name.
 * - IPv6: with or without brackets, no zone ("%eth0"), printed by
 *   inet_ntop(3) (RFC 5952). A v4-mapped address (::ffff:a.b.c.d) becomes
 *   IPv4, because connecting to it reaches the IPv4 host.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/proxy/host.h"

static const char bad_nul[] = "NUL byte in host";
static const char bad_ctl[] = "control byte in host";
static const char bad_space[] = "space in host";
static const char bad_8bit[] =
    "non-ASCII byte in host (IDNA names must arrive encoded as xn--)";

/* Rejects the bytes no host form may contain; the reason names the byte. */
static int
check_bytes(const char *s, size_t len, const char **why)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == 0)
			*why = bad_nul;
		else if (c < 0x20 || c == 0x7f)
			*why = bad_ctl;
		else if (c == ' ')
			*why = bad_space;
		else if (c >= 0x80)
			*why = bad_8bit;
		else
			continue;
		return -EINVAL;
	}
	return 0;
}

static int
digit_value(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)base ? v : -1;
}

/*
 * One inet_aton part at s[*i]: C-style number (strtoul base 0). It must
 * start with a digit; "0x" needs a hex digit after it, as glibc's strtoul
 * would otherwise stop at the 'x' and inet_aton reject the trailing byte.
 */
static int
ipv4_part(const char *s, size_t len, size_t *i, uint32_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t p = *i, start;
	int d;

	if (p >= len || s[p] < '0' || s[p] > '9')
		return -EINVAL;
	if (s[p] == '0' && p + 1 < len && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
		base = 16;
		p += 2;
	} else if (s[p] == '0')
		base = 8;
	start = p;
	while (p < len && (d = digit_value(s[p], base)) >= 0) {
		v = v * base + (unsigned)d;
		if (v > 0xffffffffu)
			return -EINVAL;
		p++;
	}
	if (base == 16 && p == start)
		return -EINVAL;
	*i = p;
	*out = (uint32_t)v;
	return 0;
}

int
host_parse_ipv4(const char *s, size_t len, uint8_t out[4])
{
	static const uint32_t max[4] = { 0xffffffff, 0xffffff, 0xffff, 0xff };
	uint32_t part[4], addr = 0;
	size_t i = 0, n = 0, k;

	for (;;) {
		if (n == 4 || ipv4_part(s, len, &i, &part[n]) < 0)
			return -EINVAL;
		n++;
		if (i == len)
			break;
		if (s[i] != '.')
			return -EINVAL;
		i++;
	}
	for (k = 0; k + 1 < n; k++) {
		if (part[k] > 0xff)
			return -EINVAL;
		addr |= part[k] << (24 - 8 * k);
	}
	if (part[n - 1] > max[n - 1])
		return -EINVAL;
	addr |= part[n - 1];
	out[0] = addr >> 24;
	out[1] = addr >> 16;
	out[2] = addr >> 8;
	out[3] = addr;
	return 0;
}

void
host_set_ipv4(struct host *h, const uint8_t a[4])
{
	char *o = h->text;
	int i;

	memset(h, 0, sizeof(*h));
	h->kind = HOST_IPV4;
	memcpy(h->addr, a, 4);
	/* Every request names its host: digits by hand, not snprintf. */
	for (i = 0; i < 4; i++) {
		if (i > 0)
			*o++ = '.';
		if (a[i] >= 100)
			*o++ = (char)('0' + a[i] / 100);
		if (a[i] >= 10)
			*o++ = (char)('0' + a[i] / 10 % 10);
		*o++ = (char)('0' + a[i] % 10);
	}
	*o = '\0';
	h->len = (size_t)(o - h->text);
}

void
host_set_ipv6(struct host *h, const uint8_t a[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (memcmp(a, mapped, sizeof(mapped)) == 0) {
		host_set_ipv4(h, a + 12);
		return;
	}
	memset(h, 0, sizeof(*h));
	h->kind = HOST_IPV6;
	memcpy(h->addr, a, 16);
	inet_ntop(AF_INET6, a, h->text, sizeof(h->text));
	h->len = strlen(h->text);
}

/* An IPv6 literal without brackets; inet_pton wants a C string. */
static int
canon_ipv6(const char *s, size_t len, struct host *out, const char **why)
{
	char buf[INET6_ADDRSTRLEN];
	uint8_t a[16];

	if (len >= sizeof(buf) || memchr(s, '%', len) != NULL) {
		*why = len >= sizeof(buf) ? "IPv6 literal too long" :
		    "IPv6 zone identifiers are not accepted";
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET6, buf, a) != 1) {
		*why = "invalid IPv6 literal";
		return -EINVAL;
	}
	host_set_ipv6(out, a);
	return 0;
}

/* A last label that is all digits, or 0x and hex, would be an address. */
static bool
numeric_label(const char *s, size_t len)
{
	size_t i = 0;
	unsigned base = 10;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	for (; i < len; i++)
		if (digit_value(s[i], base) < 0)
			return false;
	return true;
}

static bool
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int
canon_name(const char *s, size_t len, struct host *out, const char **why)
{
	size_t i, label = 0;

	if (len > HOST_TEXT_MAX) {
		*why = "host name longer than 253 bytes";
		return -EINVAL;
	}
	if (s[0] == '-') {
		*why = "host name starts with '-'";
		return -EINVAL;
	}
	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == '.') {
			if (i == label) {
				*why = "empty label in host name";
				return -EINVAL;
			}
			if (i - label > HOST_LABEL_MAX) {
				*why = "label longer than 63 bytes";
				return -EINVAL;
			}
			if (i < len)
				label = i + 1;
		} else if (!name_char(s[i])) {
			*why = "invalid character in host name";
			return -EINVAL;
		}
	}
	if (numeric_label(s + label, len - label)) {
		*why = "numeric last label: not a valid IPv4 address";
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->kind = HOST_NAME;
	out->len = len;
	for (i = 0; i < len; i++)
		out->text[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
	return 0;
}

/* One ':' is a port separator, two or more make an IPv6 literal. */
static size_t
count_colons(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += s[i] == ':';
	return n;
}

int
host_canon(const char *s, size_t len, struct host *out, const char **why)
{
	uint8_t a[4];

	if (check_bytes(s, len, why) < 0)
		return -EINVAL;
	if (len > 0 && s[0] == '[') {
		if (len < 2 || s[len - 1] != ']') {
			*why = "unbalanced '[' in host";
			return -EINVAL;
		}
		return canon_ipv6(s + 1, len - 2, out, why);
	}
	if (memchr(s, ':', len) != NULL) {
		if (count_colons(s, len) == 1) {
			*why = "':' in host (a port does not belong here)";
			return -EINVAL;
		}
		return canon_ipv6(s, len, out, why);
	}
	if (len > 0 && s[len - 1] == '.')
		len--;
	if (len == 0) {
		*why = "empty host name";
		return -EINVAL;
	}
	if (host_parse_ipv4(s, len, a) == 0) {
		host_set_ipv4(out, a);
		return 0;
	}
	return canon_name(s, len, out, why);
}

static int
parse_port(const char *s, size_t len, uint16_t *port, const char **why)
{
	uint32_t v = 0;
	size_t i;

	if (len == 0 || len > 5) {
		*why = len == 0 ? "empty port" : "port out of range";
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			*why = "port is not a decimal number";
			return -EINVAL;
		}
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v == 0 || v > 65535) {
		*why = "port out of range";
		return -EINVAL;
	}
	*port = (uint16_t)v;
	return 0;
}

int
host_parse_hostport(const char *s, size_t len, struct host *out,
    uint16_t *port, const char **why)
{
	const char *end;
	size_t hlen = len;
	uint16_t p = 0;
	struct host h;

	if (len > 0 && s[0] == '[') {
		if ((end = memchr(s, ']', len)) == NULL) {
			*why = "unbalanced '[' in host";
			return -EINVAL;
		}
		hlen = (size_t)(end - s) + 1;
		if (hlen < len && s[hlen] != ':') {
			*why = "unexpected bytes after ']'";
			return -EINVAL;
		}
	} else if (count_colons(s, len) == 1)
		hlen = (size_t)((const char *)memchr(s, ':', len) - s);
	if (hlen < len &&
	    parse_port(s + hlen + 1, len - hlen - 1, &p, why) < 0)
		return -EINVAL;
	if (host_canon(s, hlen, &h, why) < 0)
		return -EINVAL;
	*out = h;
	*port = p;
	return 0;
}

bool
host_equal(const struct host *a, const struct host *b)
{
	return a->kind == b->kind && a->len == b->len &&
	    memcmp(a->text, b->text, a->len) == 0;
}

int
host_format(const struct host *h, uint16_t port, char *buf, size_t size)
{
	int n;

	if (port == 0)
		n = snprintf(buf, size, "%s", h->text);
	else if (h->kind == HOST_IPV6)
		n = snprintf(buf, size, "[%s]:%u", h->text, port);
	else
		n = snprintf(buf, size, "%s:%u", h->text, port);
	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}

const char *
host_kind_name(enum host_kind kind)
{
	switch (kind) {
	case HOST_NAME:
		return "name";
	case HOST_IPV4:
		return "ipv4";
	case HOST_IPV6:
		return "ipv6";
	}
	return "?";
}
