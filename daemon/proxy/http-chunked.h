/* Incremental validator of chunked transfer coding, so a proxy can forward a chunked body as it is. */
#ifndef SBX_HTTP_CHUNKED_H
#define SBX_HTTP_CHUNKED_H

#include <stddef.h>
#include <stdint.h>

#define HTTP_CHUNK_LINE_MAX	4096	/* chunk-size line with extensions, CRLF */
#define HTTP_TRAILER_MAX	16384	/* trailer lines and the last CRLF */
#define HTTP_TRAILERS_MAX	100

struct http_chunked {
	int		 state;
	uint64_t	 remaining;	/* chunk data still to come */
	size_t		 line_scanned;	/* of the incomplete line at buf[0] */
	size_t		 trailer_bytes;
	size_t		 ntrailers;
	uint64_t	 data;		/* body bytes so far, framing excluded */
};

void	http_chunked_init(struct http_chunked *c);

/*
 * buf holds the body bytes not yet reported used. Sets *used to how many
 * of them are complete framing or chunk data, to forward and drop now; an
 * incomplete size or trailer line is left unused and must be passed again
 * with more bytes after it. Returns 1 once the body has ended (*used
 * stops at its end; what follows is the next request), 0 if more is
 * needed, -EBADMSG or -EMSGSIZE with a static reason in *why.
 */
int	http_chunked_feed(struct http_chunked *c, const char *buf, size_t len,
	    size_t *used, const char **why);

#endif
