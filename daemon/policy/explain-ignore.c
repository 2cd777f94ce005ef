/* Matching one path against the ignore files above it, for explain; the
 * walk of a template does the same for a whole tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/usercred.h"
#include "daemon/policy/explain-ignore.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/ignore.h"
#include "daemon/policy/path.h"
#include "daemon/policy/store.h"

/* The writable tree holding path, the longest one: the walk's roots. */
static const char *
root_of(const struct fsplan *fs, const char *path)
{
	const struct fsplan_list *w = &fs->l[FSPLAN_WRITE];
	const char *best = NULL;
	size_t i;

	for (i = 0; i < w->n; i++)
		if (policy_path_covers(w->v[i], path) &&
		    (!best || strlen(w->v[i]) > strlen(best)))
			best = w->v[i];
	return best;
}

/* Adds the ignore files of root/rel (rel "" is the root itself). */
static int
add_dir(struct ignore_set *set, const struct fsplan *fs, const char *root,
	const char *rel, struct explain_ignore_hit *hit)
{
	const struct fsplan_list *names = &fs->l[FSPLAN_IGNORE];
	char path[PATH_MAX * 2];
	struct ignore_file *f;
	struct ignore_error e;
	struct stat st;
	size_t i;
	char *buf;
	int r;

	for (i = 0; i < names->n; i++) {
		snprintf(path, sizeof(path), "%s%s%s/%s", root, rel[0] ? "/" : "",
			 rel, names->v[i]);
		r = policy_store_read(path, IGNORE_FILE_MAX, &st, &buf);
		if (r == -ENOENT || r == -ENOTDIR || r == -EINVAL)
			continue;
		if (r < 0)
			return r;
		r = ignore_parse(rel, names->v[i], buf, (size_t)st.st_size, &f,
				 &e);
		free(buf);
		if (r < 0) {
			snprintf(hit->file, sizeof(hit->file), "%.4000s:%u: %s",
				 path, e.line, e.reason ? e.reason : "invalid");
			return r == -ENOMEM ? r : -EINVAL;
		}
		if ((r = ignore_set_add(set, f)) < 0) {
			ignore_file_free(f);
			return r;
		}
	}
	return 0;
}

/* Whether path is a directory, as the user sees it (git uses lstat). */
static bool
is_dir(const char *path)
{
	struct stat st;
	bool dir;

	usercred_enter();
	dir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
	usercred_leave();
	return dir;
}

static int
match(const struct fsplan *fs, const char *root, const char *path,
      struct explain_ignore_hit *hit)
{
	const struct ignore_pattern *why = NULL;
	struct ignore_set *set = NULL;
	char rel[PATH_MAX], *slash;
	int r;

	snprintf(rel, sizeof(rel), "%s", path + strlen(root) + 1);
	if ((r = ignore_set_new(&set)) < 0)
		return r;
	r = add_dir(set, fs, root, "", hit);
	/* Each ancestor directory of path below the root, top down. */
	for (slash = strchr(rel, '/'); r == 0 && slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		r = add_dir(set, fs, root, rel, hit);
		*slash = '/';
	}
	if (r == 0)
		r = ignore_set_match(set, rel, is_dir(path), &why);
	if (r == 1 && why) {
		snprintf(hit->file, sizeof(hit->file), "%.2000s%s%.2000s/%s",
			 root, why->file->dir[0] ? "/" : "", why->file->dir,
			 why->file->name);
		hit->line = why->line;
		snprintf(hit->pattern, sizeof(hit->pattern), "%s", why->text);
	}
	ignore_set_free(set);
	return r;
}

int
explain_ignore(const struct policy *eff, const char *workspace,
	       const char *path, struct explain_ignore_hit *hit)
{
	struct fsplan *fs = NULL;
	const char *root;
	int r;

	memset(hit, 0, sizeof(*hit));
	if ((r = fsplan_build(eff, workspace, NULL, &fs)) < 0)
		return r;
	root = root_of(fs, path);
	/* The root itself is never masked: the walk starts below it. */
	r = root && strcmp(root, path) ? match(fs, root, path, hit) : 0;
	fsplan_free(fs);
	return r;
}
