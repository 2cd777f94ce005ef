/* A proxy's forwarding loop over http_chunked_feed, for the unit test and the fuzz target alike. */
#ifndef SBX_CHUNKED_DRIVE_H
#define SBX_CHUNKED_DRIVE_H

#include "daemon/proxy/http-chunked.h"

#define CHUNKED_DRIVE_OVERRUN	(-1000)	/* reported more used than given */

/*
 * Bytes of s arrive step at a time; what is reported used is "forwarded"
 * and dropped, the rest is passed again with the next bytes. Returns the
 * last result of http_chunked_feed; *fwd is how much was forwarded.
 */
static int
chunked_drive(const char *s, size_t len, size_t step, size_t *fwd,
    const char **why)
{
	struct http_chunked c;
	size_t have = 0, done = 0, used;
	int r = 0;

	http_chunked_init(&c);
	*why = NULL;
	while (have < len) {
		have = have + step < len ? have + step : len;
		r = http_chunked_feed(&c, s + done, have - done, &used, why);
		if (r < 0)
			break;
		if (used > have - done)
			return CHUNKED_DRIVE_OVERRUN;
		done += used;
		if (r == 1)
			break;
	}
	*fwd = done;
	return r;
}

#endif
