/* libFuzzer target for linux/netstat.c: any bytes as /proc/net/snmp and
 * snmp6 (split at the first NUL), no crash, nothing read past them. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/netstat.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nul = memchr(s, '\0', size);
	size_t n = nul ? (size_t)(nul - s) : size;
	uint64_t v;
	int r;

	r = linux_netstat_direct(s, n, nul ? nul + 1 : NULL,
				 nul ? size - n - 1 : 0, &v);
	if (r != 0 && r != -EINVAL)
		__builtin_trap();
	return 0;
}
