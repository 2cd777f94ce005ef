/* The host a TLS ClientHello names (SNI), read from a tunnel's first bytes. */
#ifndef SBX_SNI_H
#define SBX_SNI_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

#define SNI_HELLO_MAX	32768	/* ClientHello message, its header included */
#define SNI_RECORDS_MAX	16	/* records it may be spread over */

enum sni_result {
	SNI_MALFORMED = -EBADMSG,	/* claims to be TLS but is not valid */
	SNI_NEED_MORE = 0,
	SNI_FOUND = 1,
	SNI_NO_SNI = 2,			/* valid, but names no host */
	SNI_NOT_TLS = 3,		/* first byte is not a handshake record */
};

struct sni_hello {
	struct host	 host;		/* FOUND: the canonical server name */
	bool		 ech;		/* encrypted_client_hello present: host
					   is only the outer, public name */
};

/*
 * Parse the first bytes of a tunnel as a TLS ClientHello, reassembled
 * across handshake records. Returns an sni_result. On NEED_MORE, *need
 * is the length to wait for before calling again; on FOUND and NO_SNI
 * *out is set; on MALFORMED *why says what is wrong.
 */
int	sni_parse(const uint8_t *buf, size_t len, struct sni_hello *out,
	    size_t *need, const char **why);

#endif
