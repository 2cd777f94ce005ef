/* libFuzzer target for tunnel-check.c: fed whole or as a socket splits it, the same bytes pass and the same verdict comes. */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/tunnel-check.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct tunnel_check t;

/* Feeds buf in pieces of 1 + steps[k] bytes; *passed: bytes let through. */
static int
drive(const struct host *h, uint16_t port, bool by_port, const uint8_t *buf,
    size_t len, const uint8_t *steps, size_t nsteps, size_t *passed)
{
	size_t have = 0, done = 0, ok, k = 0;
	int r = TUNNEL_CHECK_MORE;

	tunnel_check_init(&t, h, port);
	t.by_port = by_port;
	while (have < len) {
		have += 1 + (nsteps ? steps[k++ % nsteps] : len);
		if (have > len)
			have = len;
		r = tunnel_check_feed(&t, buf + done, have - done, &ok);
		if (r == TUNNEL_CHECK_ALL) {
			done = len;
			break;
		}
		if (r < 0) {
			if (t.why == NULL)
				abort();
			break;
		}
		if (r != TUNNEL_CHECK_MORE || ok > have - done)
			abort();
		done += ok;
	}
	*passed = done;
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const hosts[] = { "a.com", "127.0.0.1" };
	struct host h;
	const char *why;
	size_t k, whole, split;
	int a, b;

	if (size > TUNNEL_CHECK_WINDOW)
		return 0;
	for (k = 0; k < 4; k++) {
		if (host_canon(hosts[k % 2], strlen(hosts[k % 2]), &h,
		    &why) < 0)
			abort();
		/* k >= 2: a captured connection's check, by port. */
		a = drive(&h, 80, k >= 2, data, size, NULL, 0, &whole);
		b = drive(&h, 80, k >= 2, data, size, data,
		    size < 8 ? size : 8, &split);
		if ((a < 0) != (b < 0) || (a >= 0 && whole != split))
			abort();
		if (a >= 0 && a != TUNNEL_CHECK_ALL && whole > size)
			abort();
	}
	return 0;
}
