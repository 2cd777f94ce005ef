/* Resolves and compares policy paths as strings, never touching files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/path.h"

/* Appends the components of s onto out[0..*n), applying . and .. */
static int
path_push(char *out, size_t *n, const char *s)
{
	const char *end;
	size_t len;

	while (*s != '\0') {
		while (*s == '/')
			s++;
		end = s + strcspn(s, "/");
		len = (size_t)(end - s);
		if (len == 0 || (len == 1 && s[0] == '.')) {
			/* nothing */
		} else if (len == 2 && s[0] == '.' && s[1] == '.') {
			while (*n > 0 && out[*n - 1] != '/')
				(*n)--;
			if (*n > 0)
				(*n)--;
		} else {
			if (*n + 1 + len >= POLICY_PATH_MAX)
				return -ENAMETOOLONG;
			out[(*n)++] = '/';
			memcpy(out + *n, s, len);
			*n += len;
		}
		s = end;
	}
	return 0;
}

int
policy_path_resolve(const char *text, const char *home, const char *base,
    char **out, const char **why)
{
	char buf[POLICY_PATH_MAX];
	const char *rest = text;
	size_t n = 0;
	int r = 0;

	if (text[0] == '\0') {
		*why = "empty path";
		return -EINVAL;
	}
	if (text[0] == '~') {
		if (text[1] != '\0' && text[1] != '/') {
			*why = "~user paths are not supported (use ~/ or an "
			    "absolute path)";
			return -EINVAL;
		}
		r = path_push(buf, &n, home);
		rest = text + 1;
	} else if (text[0] != '/') {
		if (base == NULL) {
			*why = "relative path but no workspace to resolve it "
			    "against";
			return -EINVAL;
		}
		r = path_push(buf, &n, base);
	}
	if (r == 0)
		r = path_push(buf, &n, rest);
	if (r < 0) {
		*why = "path too long";
		return -EINVAL;
	}
	if (n == 0)
		buf[n++] = '/';
	buf[n] = '\0';
	if ((*out = strdup(buf)) == NULL)
		return -ENOMEM;
	return 0;
}

bool
policy_path_covers(const char *outer, const char *inner)
{
	size_t n = strlen(outer);

	if (n == 1 && outer[0] == '/')
		return inner[0] == '/';
	return strncmp(outer, inner, n) == 0 &&
	    (inner[n] == '\0' || inner[n] == '/');
}

bool
policy_path_is_glob(const char *text)
{
	return strpbrk(text, "*?[") != NULL;
}

bool
policy_path_is_anchored(const char *text)
{
	return text[0] == '/' || (text[0] == '~' &&
	    (text[1] == '\0' || text[1] == '/'));
}
