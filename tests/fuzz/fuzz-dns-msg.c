/* libFuzzer target for dns-msg.c: any bytes as a query; a read question
 * always fits its message, and a reply to it always reads back as the
 * same question. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/dns-msg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t a6[16] = { 0xfd };
	uint8_t out[DNS_UDP_MAX * 2];
	struct dns_query q, back;
	int r = dns_query_parse(data, size, &q), n;

	if (r == -EINVAL)
		return 0;
	if (r == 0 && (q.qend > size || q.name_len != strlen(q.name) ||
	    q.name_len > HOST_TEXT_MAX))
		abort();
	n = dns_reply(&q, data, DNS_NOERROR, r == 0 && q.qend > 12 ? a6 :
	    NULL, 16, 60, out, sizeof(out));
	if (n == -ENOSPC)
		return 0;
	if (n < 12)
		abort();
	/* The reply's question is the query's, byte for byte. */
	if (r == 0) {
		out[2] &= 0x7f;		/* read it as a query again */
		out[7] = 0;		/* no answers */
		if (dns_query_parse(out, (size_t)n, &back) != 0 ||
		    strcmp(back.name, q.name) != 0 || back.qtype != q.qtype)
			abort();
	}
	return 0;
}
