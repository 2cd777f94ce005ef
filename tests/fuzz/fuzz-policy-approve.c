/* libFuzzer target for policy/approve.c: any bytes as the policy file;
 * what comes out parses as JSON, holds the rule, and adding it again
 * changes nothing. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/approve.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, *again = NULL, id[80], id2[80], err[256];
	int r;

	r = policy_approve_add((const char *)data, size, "h.test:443", "fuzz",
	    &out, id, sizeof(id), err, sizeof(err));
	if (r < 0) {
		if (out != NULL || err[0] == '\0')
			abort();
		return 0;
	}
	if (r == 1) {
		if (out != NULL)
			abort();
		return 0;
	}
	if (out == NULL || id[0] == '\0' ||
	    policy_approve_add(out, strlen(out), "h.test:443", "fuzz", &again,
	    id2, sizeof(id2), err, sizeof(err)) != 1 || again != NULL ||
	    strcmp(id, id2) != 0)
		abort();
	free(out);
	return 0;
}
