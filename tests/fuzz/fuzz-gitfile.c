/* libFuzzer target for git's .git and commondir files: any bytes, no
 * crash; a path is found only after the prefix, absolute (joined to the
 * directory when relative); a submodule's .git file is accepted only as a
 * normalised path below a .git's modules. */
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
	/* A submodule's .git file: a normalised path, below a .git. */
	{
		char gitdir[PATH_MAX], git[PATH_MAX];

		r = gitfile_submodule((const char *)data, size, "/w/d", gitdir,
				      git, sizeof(gitdir));
		if (r == 0 && (gitdir[0] != '/' || strstr(gitdir, "/../") ||
			       strstr(gitdir, "/./") || strstr(gitdir, "//") ||
			       strncmp(gitdir, git, strlen(git)) ||
			       strncmp(gitdir + strlen(git), "/modules/", 9)))
			__builtin_trap();
		if (r != 0 && r != -EINVAL && r != -ENAMETOOLONG)
			__builtin_trap();
	}
	return 0;
}
