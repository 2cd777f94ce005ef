/* Reading the policy layers from disk. Files are cached by identity (device,
 * inode, size, mtime), so a run re-parses only what changed; a file that
 * stops parsing keeps its last good version in force, and the failure is
 * kept for `sbxctl status`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/policy-merge.h"
#include "daemon/policy-store.h"

#define STORE_MAX_FILES 64
#define STORE_MAX_ORG 32

extern const char policy_default_json[];
extern const size_t policy_default_json_len;

struct cached {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct policy *good;
	char *problem;     /* last failure, NULL when the file parses */
};

static struct policy_store_opts opts;
static struct cached cache[STORE_MAX_FILES];
static size_t ncache;
static const char *problems[STORE_MAX_FILES];

void
policy_store_init(const struct policy_store_opts *o)
{
	opts = *o;
	if (!opts.org_dir)
		opts.org_dir = POLICY_STORE_ORG_DIR;
}

const char *
policy_store_home(void)
{
	return opts.home;
}

/* Relative paths in a policy resolve against the workspace, so a parse is
 * cached per (file, workspace). The oldest entry makes room. */
static struct cached *
slot(const char *path, const char *workspace)
{
	char key[8400];
	size_t i;

	snprintf(key, sizeof(key), "%s\n%s", path, workspace ? workspace : "");
	for (i = 0; i < ncache; i++)
		if (!strcmp(cache[i].path, key))
			return &cache[i];
	if (ncache == STORE_MAX_FILES) {
		free(cache[0].path);
		policy_free(cache[0].good);
		free(cache[0].problem);
		memmove(cache, cache + 1, sizeof(cache[0]) * (ncache - 1));
		ncache--;
	}
	memset(&cache[ncache], 0, sizeof(cache[0]));
	cache[ncache].path = strdup(key);
	return cache[ncache].path ? &cache[ncache++] : NULL;
}

static void
set_problem(struct cached *c, const char *msg)
{
	free(c->problem);
	c->problem = msg ? strdup(msg) : NULL;
}

/* Reads a whole policy file as the served user (a root daemon must not
 * read for a user what the user could not). */
static int
read_file(const char *path, struct stat *st, char **buf)
{
	int fd, r = 0;
	ssize_t n;

	if (sbxd.privileged) {
		setfsgid(sbxd.gid);
		setfsuid(sbxd.uid);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		r = -errno;
	if (sbxd.privileged) {
		setfsuid(0);
		setfsgid(0);
	}
	if (r < 0)
		return r;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode))
		r = -EINVAL;
	else if (st->st_size > POLICY_MAX_BYTES)
		r = -EFBIG;
	else if (!(*buf = malloc((size_t)st->st_size + 1)))
		r = -ENOMEM;
	else if ((n = read(fd, *buf, (size_t)st->st_size)) != st->st_size) {
		free(*buf);
		r = -EIO;
	}
	close(fd);
	return r;
}

static void
diag_text(const struct policy_diags *d, char *out, size_t len)
{
	size_t i;

	snprintf(out, len, "invalid policy");
	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == POLICY_ERROR) {
			snprintf(out, len, "%s", d->v[i].msg);
			return;
		}
}

/* The parsed file at path for layer: cached when unchanged; on a parse
 * failure the last good version (and the failure is recorded). -ENOENT
 * when there is no such file. */
static int
load(const char *path, enum policy_layer layer, const char *workspace,
     bool org, const struct policy **out, char *err, size_t errlen)
{
	struct policy_ctx ctx = { layer, path, opts.home, workspace };
	struct policy_diags diags = { 0 };
	struct cached *c;
	struct policy *p = NULL;
	struct stat st;
	char *buf = NULL;
	int r;

	r = read_file(path, &st, &buf);
	if (r == -ENOENT || r == -ENOTDIR)
		return -ENOENT;
	if (!(c = slot(path, workspace))) {
		free(buf);
		snprintf(err, errlen, "%s: too many policy files", path);
		return -ENOSPC;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		goto failed;
	}
	if (org && st.st_uid != 0 &&
	    !(opts.org_dir_explicit && st.st_uid == geteuid())) {
		free(buf);
		snprintf(err, errlen, "%s: org policy not owned by root", path);
		r = -EPERM;
		goto failed;
	}
	if (c->good && c->dev == st.st_dev && c->ino == st.st_ino &&
	    c->size == st.st_size && c->mtime.tv_sec == st.st_mtim.tv_sec &&
	    c->mtime.tv_nsec == st.st_mtim.tv_nsec && !c->problem) {
		free(buf);
		*out = c->good;
		return 0;
	}
	r = policy_parse(buf, (size_t)st.st_size, &ctx, &p, &diags);
	free(buf);
	if (r < 0) {
		diag_text(&diags, err, errlen);
		policy_diag_free(&diags);
		goto failed;
	}
	policy_diag_free(&diags);
	policy_free(c->good);
	c->good = p;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	c->size = st.st_size;
	c->mtime = st.st_mtim;
	set_problem(c, NULL);
	*out = p;
	return 0;
failed:
	set_problem(c, err);
	if (!c->good)
		return r < 0 ? r : -EINVAL;
	log_warn("%s (keeping the last good version)", err);
	*out = c->good;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Org layer: every *.json of the org dir, in name order. */
static int
load_org(const struct policy **docs, size_t *n, char *err, size_t errlen)
{
	char *names[STORE_MAX_ORG], path[4200];
	size_t k = 0, i;
	struct dirent *de;
	DIR *d = opendir(opts.org_dir);
	int r = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && k < STORE_MAX_ORG) {
		size_t len = strlen(de->d_name);

		if (len > 5 && !strcmp(de->d_name + len - 5, ".json") &&
		    de->d_name[0] != '.')
			names[k++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, k, sizeof(names[0]), cmp_str);
	for (i = 0; i < k; i++) {
		if (r == 0 && names[i]) {
			snprintf(path, sizeof(path), "%s/%s", opts.org_dir,
				 names[i]);
			r = load(path, POLICY_LAYER_ORG, NULL, true,
				 &docs[*n], err, errlen);
			if (r == 0)
				(*n)++;
			else if (r == -ENOENT)
				r = 0;
		}
		free(names[i]);
	}
	return r;
}

static int
load_user(const char *ws, const struct policy **doc, struct policy **own,
	  char *err, size_t errlen)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER, "<sbx defaults>",
				  opts.home, ws };
	struct policy_diags diags = { 0 };
	char path[4200];
	int r;

	if (opts.user_file) {
		r = load(opts.user_file, POLICY_LAYER_USER, ws, false, doc,
			 err, errlen);
		if (r == -ENOENT)
			snprintf(err, errlen, "%s: no such file", opts.user_file);
		return r;
	}
	snprintf(path, sizeof(path), "%s/.config/sbx/policy.json", opts.home);
	r = load(path, POLICY_LAYER_USER, ws, false, doc, err, errlen);
	if (r != -ENOENT)
		return r;
	snprintf(path, sizeof(path), "%s/.srt-settings.json", opts.home);
	r = load(path, POLICY_LAYER_USER, ws, false, doc, err, errlen);
	if (r != -ENOENT)
		return r;
	/* The shipped defaults ("." is the workspace): parsed per run. */
	r = policy_parse(policy_default_json, policy_default_json_len, &ctx,
			 own, &diags);
	if (r < 0)
		diag_text(&diags, err, errlen);
	policy_diag_free(&diags);
	if (r == 0)
		*doc = *own;
	return r;
}

int
policy_store_effective(const char *workspace, const struct policy *request,
		       struct policy **out, char *err, size_t errlen)
{
	const struct policy *docs[STORE_MAX_ORG + 4];
	struct policy_diags diags = { 0 };
	struct policy *defaults = NULL;
	char path[4200];
	size_t n = 0;
	int r;

	/* policy_merge puts the built-in layer (protected paths) first. */
	if ((r = load_org(docs, &n, err, errlen)) < 0 ||
	    (r = load_user(workspace, &docs[n++], &defaults, err, errlen)) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/.sbx/policy.json", workspace);
	r = load(path, POLICY_LAYER_WORKSPACE, workspace, false, &docs[n],
		 err, errlen);
	if (r == 0)
		n++;
	else if (r != -ENOENT)
		goto out;
	if (request)
		docs[n++] = request;
	r = policy_merge(docs, n, opts.home, out, &diags);
	if (r < 0)
		diag_text(&diags, err, errlen);
	policy_diag_free(&diags);
out:
	policy_free(defaults);
	return r < 0 ? r : 0;
}

int
policy_store_check(char *err, size_t errlen)
{
	const struct policy *doc;

	/* --policy is an admin's or a test's explicit choice: a file that
	 * does not parse stops sbxd at once instead of failing each run. */
	int r;

	if (!opts.user_file)
		return 0;
	r = load(opts.user_file, POLICY_LAYER_USER, "/", false, &doc, err,
		 errlen);
	if (r == -ENOENT)
		snprintf(err, errlen, "%s: no such file", opts.user_file);
	return r;
}

size_t
policy_store_problems(const char *const **out)
{
	size_t i, n = 0;

	for (i = 0; i < ncache; i++)
		if (cache[i].problem)
			problems[n++] = cache[i].problem;
	*out = problems;
	return n;
}

void
policy_store_cleanup(void)
{
	size_t i;

	for (i = 0; i < ncache; i++) {
		free(cache[i].path);
		policy_free(cache[i].good);
		free(cache[i].problem);
	}
	ncache = 0;
}
