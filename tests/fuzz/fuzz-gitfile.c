/* libFuzzer target for git's .git and commondir files: any bytes, no
 * crash; a path is found only after the prefix, absolute (joined to the
 * directory when relative). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "daemon/policy/gitfile.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prefixes[] = { "gitdir: ", "" };
	char out[PATH_MAX];
	size_t i, n;
	int r;

	for (i = 0; i < 2; i++) {
		r = gitfile_path((const char *)data, size, prefixes[i], "/d",
				 out, sizeof(out));
		if (r != 0) {
			if (r != -EINVAL && r != -ENAMETOOLONG)
				__builtin_trap();
			continue;
		}
		n = strlen(out);
		if (n == 0 || out[0] != '/')
			__builtin_trap();
		if (size < strlen(prefixes[i]) ||
		    memcmp(data, prefixes[i], strlen(prefixes[i])))
			__builtin_trap();
	}
	return 0;
}
