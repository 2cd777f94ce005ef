/* libFuzzer target for host.c: no crash, and canonical forms are fixed points. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/host.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* inet_aton stops at whitespace and NUL; compare only where it cannot. */
static void
check_inet_aton(const char *s, size_t len)
{
	char buf[64];
	struct in_addr want;
	uint8_t got[4];
	size_t i;
	int r;

	if (len >= sizeof(buf))
		return;
	for (i = 0; i < len; i++)
		if (s[i] == '\0' || isspace((unsigned char)s[i]))
			return;
	memcpy(buf, s, len);
	buf[len] = '\0';
	r = host_parse_ipv4(s, len, got);
	if ((r == 0) != (inet_aton(buf, &want) != 0))
		abort();
	if (r == 0 && memcmp(got, &want.s_addr, 4) != 0)
		abort();
}

static void
check_canonical(const struct host *h, uint16_t port)
{
	struct host again;
	const char *why;
	char buf[HOST_TEXT_MAX + 16];
	uint16_t p;
	int n;

	if (h->len == 0 || h->len > HOST_TEXT_MAX || strlen(h->text) != h->len)
		abort();
	if (host_canon(h->text, h->len, &again, &why) != 0 ||
	    !host_equal(h, &again) || memcmp(h->addr, again.addr, 16) != 0)
		abort();
	n = host_format(h, port, buf, sizeof(buf));
	if (n < 0 || host_parse_hostport(buf, (size_t)n, &again, &p, &why) != 0 ||
	    !host_equal(h, &again) || p != port)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *why;
	struct host h;
	uint16_t port;

	check_inet_aton(s, size);
	if (host_canon(s, size, &h, &why) == 0)
		check_canonical(&h, 0);
	else if (why == NULL)
		abort();
	if (host_parse_hostport(s, size, &h, &port, &why) == 0)
		check_canonical(&h, port);
	return 0;
}
