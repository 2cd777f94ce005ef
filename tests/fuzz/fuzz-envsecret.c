/* libFuzzer target for policy/envsecret.c: any NAME=value bytes, no crash;
 * a secret always says why, and never by quoting the value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/envsecret.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *eq;
	const char *why = NULL;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	eq = strchr(s, '=');
	if (eq)
		*eq = '\0';
	if (envsecret_is(s, eq ? eq + 1 : NULL, &why) &&
	    (why == NULL || (eq && eq[1] && strstr(why, eq + 1) &&
			     strlen(eq + 1) > 8)))
		__builtin_trap();
	free(s);
	return 0;
}
