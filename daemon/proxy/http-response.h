/* HTTP/1.x response heads as the forwarding proxy sees them: where a response ends. */
#ifndef SBX_HTTP_RESPONSE_H
#define SBX_HTTP_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/http-parse.h"

/*
 * The proxy forwards a response head as it is and needs only its framing:
 * how the body is delimited, and whether the connection can carry another
 * exchange. Heads are bounded like request heads (HTTP_HEAD_MAX).
 */
enum http_resp_body {
	HTTP_RESP_NONE = 0,	/* 1xx, 204, 304, or the answer to HEAD */
	HTTP_RESP_LENGTH,	/* content_length bytes */
	HTTP_RESP_CHUNKED,	/* http-chunked.h finds the end */
	HTTP_RESP_EOF,		/* until the server closes */
};

struct http_resp {
	size_t		 scanned;	/* bytes known not to end the head */

	/* Valid once http_response_parse returned > 0. */
	unsigned	 status;	/* 100..999 */
	uint8_t		 minor;
	enum http_resp_body body;
	uint64_t	 content_length;
	bool		 close;		/* the server ends the connection after */
	const char	*why;		/* set on failure: static reason */
};

void	http_response_init(struct http_resp *r);

/*
 * buf holds the bytes received so far (the same prefix on every call).
 * head_request: the request was HEAD (no body whatever the fields say).
 * Returns the head's length once complete, 0 if more is needed, -EBADMSG
 * (malformed; r->why) or -EMSGSIZE (longer than HTTP_HEAD_MAX).
 */
int	http_response_parse(struct http_resp *r, const char *buf, size_t len,
	    bool head_request);

/* 1xx other than 101: another head follows on the same exchange. */
bool	http_response_interim(const struct http_resp *r);

#endif
