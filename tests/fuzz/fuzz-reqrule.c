/* libFuzzer target for request rules: input is "METHODS PATH\nTARGET"; the rule's spec parser and the path pattern against a brute-force matcher. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/reqrule.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The pattern's meaning by recursion: '*' is any run, else one byte. */
static bool
slow(const char *p, const char *t, size_t len)
{
	if (*p == '\0')
		return len == 0;
	if (*p == '*')
		return slow(p + 1, t, len) || (len > 0 && slow(p, t + 1, len - 1));
	return len > 0 && *p == *t && slow(p + 1, t + 1, len - 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size), *why;
	char *spec, *path;
	size_t tlen, stars = 0, i, olen;
	char *out;
	unsigned m;

	if (nl == NULL || size > 4096)
		return 0;
	if ((spec = strndup((const char *)data, (size_t)(nl - (const char *)data))) == NULL)
		return 0;
	tlen = size - (size_t)(nl + 1 - (const char *)data);
	/* The normal form is never longer than the target (out's size). */
	if ((out = malloc(tlen + 1)) != NULL &&
	    policy_reqrule_path_norm(nl + 1, tlen, out, &olen) == 0 &&
	    olen > tlen)
		abort();
	free(out);
	if (policy_reqrule_spec(spec, &m, &path, &why) == 0) {
		if (m == 0 || path[0] == '\0')
			abort();
		for (i = 0; path[i]; i++)
			stars += path[i] == '*';
		/* The brute force is exponential in stars: bound it. */
		if (stars <= 4 && tlen <= 64 &&
		    policy_reqrule_path_match(path, nl + 1, tlen) !=
		    slow(path, nl + 1, tlen))
			abort();
		free(path);
	} else if (why == NULL)
		abort();
	free(spec);
	return 0;
}
