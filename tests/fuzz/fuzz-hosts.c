/* libFuzzer target for proxy/hosts.c: any bytes as a hosts file; every
 * address found is an address, and the count does not depend on max. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/hosts.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct host name, out[4];
	const char *why;
	size_t n, i;

	if (host_canon("a.test", 6, &name, &why) != 0)
		abort();
	n = hosts_lookup((const char *)data, size, &name, out, 4);
	for (i = 0; i < n && i < 4; i++)
		if (out[i].kind == HOST_NAME)
			abort();
	if (hosts_lookup((const char *)data, size, &name, out, 0) != n)
		abort();
	return 0;
}
