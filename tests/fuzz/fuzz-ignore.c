/* libFuzzer target for ignore files: parse, build a set, match paths, check invariants. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/ignore.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Input: root file text, NUL, text of a file in "a", NUL, paths separated
 * by '\n'. The whole input is also parsed once as one file, so NUL bytes
 * and oversized lines reach the error paths.
 */
static void
add(struct ignore_set *set, const char *dir, const char *text, size_t len)
{
	struct ignore_file *f;
	struct ignore_error err;

	if (ignore_parse(dir, ".sbxignore", text, len, &f, &err) != 0)
		return;
	if (ignore_set_add(set, f) != 0)
		ignore_file_free(f);
}

static void
check_path(const struct ignore_set *set, const char *path, bool is_dir)
{
	const struct ignore_pattern *why = NULL, *why2 = NULL;
	char parent[IGNORE_PATH_MAX + 1];
	const char *slash;
	int r, r2;

	r = ignore_set_match(set, path, is_dir, &why);
	if (r < 0)
		return;
	if (r == 1 && (why == NULL || (why->flags & IGNORE_NEGATE)))
		__builtin_trap();
	if (r == 0 && why != NULL && !(why->flags & IGNORE_NEGATE))
		__builtin_trap();
	/* Below a directory that is not excluded, the walk form agrees. */
	if ((slash = strrchr(path, '/')) != NULL) {
		memcpy(parent, path, (size_t)(slash - path));
		parent[slash - path] = '\0';
		if (ignore_set_match(set, parent, true, NULL) != 0)
			return;
	}
	r2 = ignore_set_match_child(set, path, is_dir, &why2);
	if (r2 != r || why2 != why)
		__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error err;
	const char *p = (const char *)data, *end = p + size, *part[3], *nl;
	size_t plen[3], i, n;
	char path[IGNORE_PATH_MAX + 2];

	if (ignore_parse("", "x", p, size, &f, &err) == 0)
		ignore_file_free(f);
	for (i = 0; i < 3; i++) {
		part[i] = p;
		nl = memchr(p, '\0', (size_t)(end - p));
		plen[i] = (size_t)((i < 2 && nl != NULL ? nl : end) - p);
		p += plen[i] + (p + plen[i] < end);
	}
	if (ignore_set_new(&set) != 0)
		return 0;
	add(set, "", part[0], plen[0]);
	add(set, "a", part[1], plen[1]);
	for (p = part[2], i = 0; p < part[2] + plen[2] && i < 64; i++) {
		nl = memchr(p, '\n', (size_t)(part[2] + plen[2] - p));
		n = (size_t)((nl != NULL ? nl : part[2] + plen[2]) - p);
		if (n <= IGNORE_PATH_MAX + 1) {
			memcpy(path, p, n);
			path[n] = '\0';
			check_path(set, path, false);
			check_path(set, path, true);
		}
		p += n + 1;
	}
	ignore_set_free(set);
	return 0;
}
