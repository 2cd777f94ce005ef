/* libFuzzer target for session-id.c's parser: any bytes; what parses
 * prints back as the same text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/session.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char again[32];
	uint64_t v;

	if (session_id_parse((const char *)data, size, &v) < 0)
		return 0;
	/* Leading zeros aside, the number is the text. */
	while (size > 2 && data[0] == '0') {
		data++;
		size--;
	}
	if ((size_t)snprintf(again, sizeof(again), "%llu\n",
			     (unsigned long long)v) != size ||
	    memcmp(again, data, size))
		abort();
	return 0;
}
