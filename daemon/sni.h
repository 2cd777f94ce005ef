/* The host a tunnel's first bytes name: a TLS ClientHello's SNI, or a plain HTTP request's Host. */
#ifndef SBX_SNI_H
#define SBX_SNI_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host.h"

#define SNI_HELLO_MAX	32768	/* ClientHello message, its header included */
#define SNI_RECORDS_MAX	16	/* records it may be spread over */

enum sni_result {
	SNI_MALFORMED = -EBADMSG,	/* claims to be TLS/HTTP but is not valid */
	SNI_NEED_MORE = 0,
	SNI_FOUND = 1,
	SNI_NO_SNI = 2,			/* valid, but names no host */
	SNI_NOT_TLS = 3,		/* first byte is not a handshake record */
	SNI_NOT_HTTP = 4,		/* does not start with a method and SP */
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

/*
 * Parse them as a plain HTTP/1.x request and return the host it is for:
 * the absolute URI's (which the Host field must then agree with) or the
 * Host field's, with its port (0 if none). Returns FOUND, NEED_MORE,
 * NO_SNI (HTTP/1.0 without Host), NOT_HTTP or MALFORMED (*why).
 */
int	sni_http_host(const uint8_t *buf, size_t len, struct host *host,
	    uint16_t *port, const char **why);

#endif
