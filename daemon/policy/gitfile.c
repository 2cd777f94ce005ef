/* git's .git files and commondir files, as git's setup.c reads them
 * (read_gitfile_gently, get_common_dir_noenv). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/gitfile.h"

int
gitfile_path(const char *buf, size_t len, const char *prefix,
	     const char *dir, char *out, size_t outlen)
{
	size_t plen = strlen(prefix), n;
	const char *path;
	int r;

	if (len > GITFILE_MAX || len < plen || memcmp(buf, prefix, plen))
		return -EINVAL;
	while (len > plen && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	path = buf + plen;
	n = strnlen(path, len - plen);
	if (n == 0)
		return -EINVAL;
	if (path[0] == '/')
		r = snprintf(out, outlen, "%.*s", (int)n, path);
	else
		r = snprintf(out, outlen, "%s/%.*s", dir, (int)n, path);
	return r < 0 || (size_t)r >= outlen ? -ENAMETOOLONG : 0;
}
