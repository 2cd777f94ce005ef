/* libFuzzer target for the .git/config check: any bytes, no crash; a
 * refusal names a line of the file; what is accepted has no escapes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/gitconfig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gitconfig_error e;
	const char *p = (const char *)data;

	/* A submodule's config is checked as strictly, with a work tree
	 * inside the superproject besides. */
	if (gitconfig_check(p, size, NULL) == 0 &&
	    gitconfig_check_module(p, size, "/w/.git/modules/m", "/w/.git",
				   NULL) != 0)
		__builtin_trap();
	if (gitconfig_check(p, size, &e) != 0) {
		/* A refusal names a line inside the file. */
		size_t lines = 1, i;

		for (i = 0; i < size; i++)
			lines += p[i] == '\n';
		if (e.line > lines || e.why == NULL)
			__builtin_trap();
		return 0;
	}
	/* Accepted text holds no escape and no byte git treats apart. */
	if (memchr(p, '\0', size) || memchr(p, '\r', size) ||
	    memchr(p, '\\', size))
		__builtin_trap();
	return 0;
}
