/* git's .git files and commondir files, as git's setup.c reads them
 * (read_gitfile_gently, get_common_dir_noenv). */
#include <errno.h>
#include <stdbool.h>
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

int
gitfile_join(const char *path, size_t len, const char *dir, char *out,
	     size_t outlen)
{
	const char *end = path + len, *c, *e, *rest = path;
	size_t n, dn = strlen(dir);
	bool abs = len > 0 && *path == '/', named = false;
	int r;

	if (len == 0 || dir[0] != '/' || end[-1] == '/')
		return -EINVAL;
	for (c = path; c < end; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return -EINVAL; /* a NUL, a CR, a second line */
	/* Each component a name, or (relative) ".." before any name. */
	for (c = path + abs; c < end; c = e + 1) {
		e = memchr(c, '/', (size_t)(end - c));
		if (!e)
			e = end;
		n = (size_t)(e - c);
		if (n == 0 || (n == 1 && c[0] == '.'))
			return -EINVAL;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (abs || named)
				return -EINVAL;
			/* dir less one component */
			while (dn > 1 && dir[dn - 1] != '/')
				dn--;
			if (dn > 1)
				dn--;
			rest = e + 1;
		} else
			named = true;
	}
	if (!named)
		return -EINVAL;
	if (abs)
		r = snprintf(out, outlen, "%.*s", (int)len, path);
	else
		r = snprintf(out, outlen, "%.*s%s%.*s", (int)dn, dir,
			     dn == 1 ? "" : "/", (int)(end - rest), rest);
	return r < 0 || (size_t)r >= outlen ? -ENAMETOOLONG : 0;
}

int
gitfile_submodule(const char *buf, size_t len, const char *dir,
		  char *gitdir, char *git, size_t outlen)
{
	static const char pre[] = "gitdir: ", mod[] = "/.git/modules/";
	const size_t pn = sizeof(pre) - 1;
	char *m;
	int r;

	if (len <= pn + 1 || len > outlen || buf[len - 1] != '\n' ||
	    memcmp(buf, pre, pn))
		return -EINVAL;
	if ((r = gitfile_join(buf + pn, len - pn - 1, dir, gitdir,
			      outlen)) < 0)
		return r;
	m = strstr(gitdir, mod);
	if (!m || !m[sizeof(mod) - 1])
		return -EINVAL;
	snprintf(git, outlen, "%.*s", (int)(m - gitdir) + 5, gitdir);
	return 0;
}
