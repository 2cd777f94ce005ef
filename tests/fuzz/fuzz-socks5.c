/* libFuzzer target for socks5.c: verdicts only sharpen as bytes arrive; replies parse back. */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/socks5.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_reply(const struct socks5_req *req)
{
	struct socks5_req back;
	uint8_t out[SOCKS5_REPLY_MAX];
	const char *why;
	int n;

	n = socks5_reply(SOCKS5_REP_SUCCEEDED, &req->host, req->port, out,
	    sizeof(out));
	if (n < 8 || n > SOCKS5_REPLY_MAX)
		abort();
	out[1] = SOCKS5_CMD_CONNECT;
	if (socks5_request(out, (size_t)n, &back, &why) != n ||
	    !host_equal(&back.host, &req->host) || back.port != req->port)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct socks5_req req, prev;
	const char *why;
	uint8_t method;
	int r, p, g;

	g = socks5_greeting(data, size, &method);
	if (g > 0 && (method != SOCKS5_AUTH_NONE && method != SOCKS5_AUTH_REFUSED))
		abort();
	r = socks5_request(data, size, &req, &why);
	if (r < 0 && socks5_rep_for(r) == SOCKS5_REP_SUCCEEDED)
		abort();
	if (r > 0) {
		if ((size_t)r > size || req.port == 0)
			abort();
		check_reply(&req);
	}
	/* One byte fewer: the same verdict, or still waiting. */
	if (size > 0) {
		p = socks5_request(data, size - 1, &prev, &why);
		if (p != 0 && p != r)
			abort();
		if (r == 0 && p != 0)
			abort();
	}
	return 0;
}
