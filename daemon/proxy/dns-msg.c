/* DNS queries read and replies written for the sandbox's stub resolver (RFC 1035 4.1), without a syscall. */

/*
 * The stub answers names it decided itself: it never forwards a query, so
 * it reads only what a resolver library sends (one question, names as
 * plain labels) and refuses the rest. Replies carry the question back and
 * at most one address record, whose name is a pointer to the question's.
 */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/dns-msg.h"

#define QR		0x8000
#define OPCODE_MASK	0x7800
#define RD		0x0100
#define RA		0x0080

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The question's name at buf[*o]: labels to q->name; *o past it. */
static int
read_name(const uint8_t *buf, size_t len, size_t *o, struct dns_query *q)
{
	size_t n = 0, l, i;

	for (;;) {
		if (*o >= len)
			return -EBADMSG;
		l = buf[(*o)++];
		if (l == 0)
			break;
		if (l > HOST_LABEL_MAX || *o + l > len)
			return -EBADMSG;	/* pointers (0xc0) included */
		if (n + (n > 0) + l > HOST_TEXT_MAX)
			return -EBADMSG;
		if (n > 0)
			q->name[n++] = '.';
		for (i = 0; i < l; i++) {
			uint8_t c = buf[*o + i];

			if (c <= 0x20 || c >= 0x7f || c == '.')
				return -EBADMSG;
			q->name[n++] = (char)c;
		}
		*o += l;
	}
	q->name[n] = '\0';
	q->name_len = n;
	return 0;
}

int
dns_query_parse(const uint8_t *buf, size_t len, struct dns_query *q)
{
	size_t o = DNS_HEADER_LEN;
	int r;

	memset(q, 0, sizeof(*q));
	if (len < DNS_HEADER_LEN || (get16(buf + 2) & QR))
		return -EINVAL;
	q->id = get16(buf);
	q->flags = get16(buf + 2);
	if (q->flags & OPCODE_MASK)
		return -EOPNOTSUPP;
	/* Answer and authority sections have no place in a query; the
	 * additional one may hold an EDNS record, which is not read. */
	if (get16(buf + 4) != 1 || get16(buf + 6) != 0 || get16(buf + 8) != 0)
		return -EBADMSG;
	if ((r = read_name(buf, len, &o, q)) < 0)
		return r;
	if (o + 4 > len)
		return -EBADMSG;
	q->qtype = get16(buf + o);
	q->qclass = get16(buf + o + 2);
	q->qend = o + 4;
	return 0;
}

int
dns_reply(const struct dns_query *q, const uint8_t *msg, int rcode,
    const uint8_t *addr, size_t alen, uint32_t ttl, uint8_t *out,
    size_t size)
{
	size_t n = DNS_HEADER_LEN, qlen = q->qend > DNS_HEADER_LEN ?
	    q->qend - DNS_HEADER_LEN : 0;

	if (addr != NULL && (qlen == 0 || (alen != 4 && alen != 16)))
		return -EINVAL;
	if (n + qlen + (addr != NULL ? 12 + alen : 0) > size)
		return -ENOSPC;
	memset(out, 0, DNS_HEADER_LEN);
	put16(out, q->id);
	put16(out + 2, (uint16_t)(QR | (q->flags & RD) | RA | (rcode & 0xf)));
	put16(out + 4, qlen > 0);
	if (qlen > 0) {
		memcpy(out + n, msg + DNS_HEADER_LEN, qlen);
		n += qlen;
	}
	if (addr != NULL) {
		put16(out + 6, 1);
		put16(out + n, 0xc000 | DNS_HEADER_LEN);
		put16(out + n + 2, q->qtype);
		put16(out + n + 4, DNS_CLASS_IN);
		put16(out + n + 6, (uint16_t)(ttl >> 16));
		put16(out + n + 8, (uint16_t)ttl);
		put16(out + n + 10, (uint16_t)alen);
		memcpy(out + n + 12, addr, alen);
		n += 12 + alen;
	}
	return (int)n;
}
