/* libFuzzer target for policy/size.c: any bytes; what parses formats back
 * to text that parses to the same size, and never past the maximum. */
#include <stdint.h>
#include <stdlib.h>

#include "daemon/policy/size.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = NULL;
	uint64_t v, back;
	char buf[32];
	int n;

	if (policy_size_parse((const char *)data, size, &v, &why) != 0) {
		if (why == NULL)
			abort();
		return 0;
	}
	if (v > POLICY_SIZE_MAX)
		abort();
	n = policy_size_format(v, buf, sizeof(buf), 0);
	if (n <= 0 || policy_size_parse(buf, (size_t)n, &back, &why) != 0 ||
	    back != v)
		abort();
	if (policy_size_format(v, buf, sizeof(buf), 1) <= 0)
		abort();
	return 0;
}
