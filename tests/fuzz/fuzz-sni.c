/* libFuzzer target for sni.c: a verdict, once reached, never changes as more bytes arrive. */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/sni.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_host(const struct host *h)
{
	struct host again;
	const char *why;

	if (host_canon(h->text, h->len, &again, &why) != 0 ||
	    !host_equal(h, &again))
		abort();
}

static void
check_tls(const uint8_t *data, size_t size)
{
	struct sni_hello a, b;
	const char *why = NULL;
	size_t need = 0;
	int r, p;

	r = sni_parse(data, size, &a, &need, &why);
	if (r == SNI_NEED_MORE && need <= size)
		abort();
	if (r == SNI_MALFORMED && why == NULL)
		abort();
	if (r == SNI_FOUND)
		check_host(&a.host);
	if (size == 0)
		return;
	p = sni_parse(data, size - 1, &b, &need, &why);
	if (p != SNI_NEED_MORE && p != r)
		abort();
	if (p == SNI_FOUND && (!host_equal(&a.host, &b.host) || a.ech != b.ech))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_tls(data, size);
	return 0;
}
