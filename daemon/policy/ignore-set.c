/* The ignore files of one workspace, and git's rules for which of their lines decides a path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/ignore.h"

/*
 * Files are kept sorted by directory (strcmp order), files of one directory
 * in the order they were added. A query looks up each ancestor directory
 * of the path by binary search, so its cost grows with the path's depth
 * and the patterns that apply to it, not with the number of files.
 */
struct ignore_set {
	struct ignore_file	**files;
	size_t			  n;
	size_t			  cap;
};

int
ignore_set_new(struct ignore_set **out)
{
	struct ignore_set *set;

	if ((set = calloc(1, sizeof(*set))) == NULL)
		return -ENOMEM;
	*out = set;
	return 0;
}

void
ignore_set_free(struct ignore_set *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n; i++)
		ignore_file_free(set->files[i]);
	free(set->files);
	free(set);
}

size_t
ignore_set_count(const struct ignore_set *set)
{
	return set->n;
}

const struct ignore_file *
ignore_set_file(const struct ignore_set *set, size_t i)
{
	return i < set->n ? set->files[i] : NULL;
}

/* strcmp(fdir, d[0..dlen)) where d need not be NUL-terminated. */
static int
dircmp(const char *fdir, const char *d, size_t dlen)
{
	int c = strncmp(fdir, d, dlen);

	if (c != 0)
		return c;
	return fdir[dlen] != '\0';
}

/* Index of the first file whose dir is not less than d[0..dlen). */
static size_t
lower_bound(const struct ignore_set *set, const char *d, size_t dlen)
{
	size_t lo = 0, hi = set->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dircmp(set->files[mid]->dir, d, dlen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
ignore_set_add(struct ignore_set *set, struct ignore_file *f)
{
	struct ignore_file **files;
	size_t i, dlen = strlen(f->dir), ncap;

	i = lower_bound(set, f->dir, dlen);
	for (; i < set->n && dircmp(set->files[i]->dir, f->dir, dlen) == 0;
	    i++)
		if (strcmp(set->files[i]->name, f->name) == 0)
			return -EEXIST;
	if (set->n == set->cap) {
		ncap = set->cap ? set->cap * 2 : 8;
		files = realloc(set->files, ncap * sizeof(*files));
		if (files == NULL)
			return -ENOMEM;
		set->files = files;
		set->cap = ncap;
	}
	memmove(&set->files[i + 1], &set->files[i],
	    (set->n - i) * sizeof(*set->files));
	set->files[i] = f;
	set->n++;
	return 0;
}

int
ignore_set_remove(struct ignore_set *set, const char *dir, const char *name)
{
	size_t i, dlen = strlen(dir);

	i = lower_bound(set, dir, dlen);
	for (; i < set->n && dircmp(set->files[i]->dir, dir, dlen) == 0; i++) {
		if (strcmp(set->files[i]->name, name) != 0)
			continue;
		ignore_file_free(set->files[i]);
		memmove(&set->files[i], &set->files[i + 1],
		    (set->n - i - 1) * sizeof(*set->files));
		set->n--;
		return 0;
	}
	return -ENOENT;
}

/* The last line of the files in directory path[0..dlen) matching path. */
static const struct ignore_pattern *
match_dir(const struct ignore_set *set, const char *path, size_t len,
    size_t dlen, bool is_dir)
{
	const struct ignore_file *f;
	const char *rel = dlen ? path + dlen + 1 : path;
	size_t lo, hi, j, rlen = len - (size_t)(rel - path);

	lo = lower_bound(set, path, dlen);
	for (hi = lo; hi < set->n &&
	    dircmp(set->files[hi]->dir, path, dlen) == 0; hi++)
		;
	while (hi-- > lo) {
		f = set->files[hi];
		for (j = f->npat; j-- > 0;)
			if (ignore_pattern_match(&f->pat[j], rel, rlen, is_dir))
				return &f->pat[j];
	}
	return NULL;
}

/* The deciding line for path[0..len) alone: deepest file first. */
static const struct ignore_pattern *
match_last(const struct ignore_set *set, const char *path, size_t len,
    bool is_dir)
{
	const struct ignore_pattern *p;
	size_t d = len;

	while (d-- > 0) {
		if (path[d] != '/')
			continue;
		if ((p = match_dir(set, path, len, d, is_dir)) != NULL)
			return p;
	}
	return match_dir(set, path, len, 0, is_dir);
}

static int
check_path(const char *path, size_t *len)
{
	size_t n = strnlen(path, IGNORE_PATH_MAX + 1);

	if (n > IGNORE_PATH_MAX)
		return -ENAMETOOLONG;
	if (!ignore_path_valid(path, n, false))
		return -EINVAL;
	*len = n;
	return 0;
}

static int
verdict(const struct ignore_pattern *p, const struct ignore_pattern **why)
{
	if (why != NULL)
		*why = p;
	return p != NULL && !(p->flags & IGNORE_NEGATE);
}

int
ignore_set_match_child(const struct ignore_set *set, const char *path,
    bool is_dir, const struct ignore_pattern **why)
{
	size_t len;
	int r;

	if ((r = check_path(path, &len)) < 0)
		return r;
	return verdict(match_last(set, path, len, is_dir), why);
}

int
ignore_set_match(const struct ignore_set *set, const char *path, bool is_dir,
    const struct ignore_pattern **why)
{
	const struct ignore_pattern *p;
	size_t len, i;
	int r;

	if ((r = check_path(path, &len)) < 0)
		return r;
	/* git's prep_exclude(): the outermost excluded parent decides. */
	for (i = 0; i < len; i++) {
		if (path[i] != '/')
			continue;
		p = match_last(set, path, i, true);
		if (p != NULL && !(p->flags & IGNORE_NEGATE))
			return verdict(p, why);
	}
	return verdict(match_last(set, path, len, is_dir), why);
}
