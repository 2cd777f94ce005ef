/* libFuzzer target for linux/cgroup-parse.c: the input split at its first
 * NUL into /proc/self/cgroup and mountinfo; every directory found is a
 * NUL-terminated absolute path within its buffer. The counter parsers
 * take the whole input. */
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/cgroup-parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t a = nul ? (size_t)(nul - data) : size;
	struct lcg_layout l;
	uint64_t v;
	char *copy;
	int i;

	/* Exactly size bytes: the parsers must not read past them. */
	if (!(copy = malloc(size ? size : 1)))
		return 0;
	memcpy(copy, data, size);
	if (lcg_layout_parse(copy, a, copy + (nul ? a + 1 : a),
			     nul ? size - a - 1 : 0, &l) == 0) {
		if (l.n < 1 || l.n > LCG_MAX_HIER)
			abort();
		for (i = 0; i < l.n; i++)
			if (strnlen(l.h[i].dir, LCG_PATH_MAX) == LCG_PATH_MAX ||
			    (l.h[i].version != 1 && l.h[i].version != 2))
				abort();
	}
	if (lcg_controllers_parse(copy, size) & ~(unsigned)LCG_ALL)
		abort();
	lcg_keyed_get(copy, size, "oom_kill", &v);
	lcg_u64_parse(copy, size, &v);
	free(copy);
	return 0;
}
