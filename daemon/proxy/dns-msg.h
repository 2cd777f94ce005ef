/* DNS messages as a sandbox's stub resolver reads and answers them: one question in, one reply out. */
#ifndef SBX_DNS_MSG_H
#define SBX_DNS_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

#define DNS_HEADER_LEN	12
/* A reply that fits any UDP client (RFC 1035 without EDNS). */
#define DNS_UDP_MAX	512

#define DNS_TYPE_A	1
#define DNS_TYPE_AAAA	28
#define DNS_CLASS_IN	1

enum dns_rcode {
	DNS_NOERROR = 0,
	DNS_FORMERR = 1,
	DNS_SERVFAIL = 2,
	DNS_NXDOMAIN = 3,
	DNS_NOTIMP = 4,
	DNS_REFUSED = 5,
};

struct dns_query {
	uint16_t id;
	uint16_t flags;		/* the query's header flags */
	uint16_t qtype, qclass;
	/* The name as sent, labels joined with '.', no trailing dot ("" is
	 * the root); its bytes are not checked here (host_canon does). */
	char name[HOST_TEXT_MAX + 2];
	size_t name_len;
	size_t qend;		/* where the question ends in the message */
};

/*
 * Reads a standard query with one question. 0; -EINVAL when it is no
 * query to answer at all (shorter than a header, or a response: never
 * reply, or two servers could answer each other for ever); -EBADMSG when
 * q->id and q->flags are set but the question cannot be read (more or
 * fewer than one, a compression pointer, a label with '.' or a byte
 * outside printable ASCII, a name too long, cut short): answer FORMERR;
 * -EOPNOTSUPP for an opcode other than QUERY: answer NOTIMP.
 */
int	dns_query_parse(const uint8_t *buf, size_t len, struct dns_query *q);

/*
 * The reply to q (msg: the query it was read from, whose question is
 * copied) with rcode and, when addr is not NULL, one answer of q->qtype
 * holding alen bytes of addr (4: A, 16: AAAA) with ttl. A -EBADMSG or
 * -EOPNOTSUPP query gets a header alone (pass addr NULL). Returns the
 * length or -ENOSPC.
 */
int	dns_reply(const struct dns_query *q, const uint8_t *msg, int rcode,
	    const uint8_t *addr, size_t alen, uint32_t ttl, uint8_t *out,
	    size_t size);

#endif
