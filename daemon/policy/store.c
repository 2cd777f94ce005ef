/* Reading the policy layers from disk. Files are cached by identity (device,
 * inode, size, mtime), so a run re-parses only what changed; a file that
 * stops parsing keeps its last good version in force, and the failure is
 * kept for `sbxctl status`. The merge of a workspace's layers is cached
 * too, for as long as every layer is the same document. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/usercred.h"
#include "daemon/log.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/rule.h"
#include "daemon/policy/store.h"

#define STORE_MAX_ORG 32
/* Parses are cached per (file, workspace): the org files, and the user and
 * workspace files of every workspace policy/watch.c keeps (16), with room
 * to spare, so a refresh never evicts a last good version in force. */
#define STORE_MAX_FILES 96

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
	bool seen;         /* loaded (or failed) during this refresh */
};

/* Per workspace: the shipped defaults parsed for it ("." is the
 * workspace), and the effective policy of its last run without a request
 * layer with the documents it was merged from. Documents are replaced,
 * never changed in place, and each replacement or free bumps store_gen,
 * so equal addresses under an equal generation are the same documents. */
#define STORE_MAX_WS 16

struct ws_cached {
	char *ws;
	struct policy *defaults;
	struct policy *eff;
	const struct policy *docs[STORE_MAX_ORG + 4];
	size_t ndocs;
	unsigned long gen;
	unsigned long used;
};

static struct policy_store_opts opts;
static struct cached cache[STORE_MAX_FILES];
static size_t ncache;
static const char *problems[STORE_MAX_FILES];
static struct policy *pushed;   /* the org policy pushed to this daemon */
static struct ws_cached wscache[STORE_MAX_WS];
static unsigned long store_gen, ws_clock;
static void (*changed_cb)(const char *what);

void
policy_store_init(const struct policy_store_opts *o)
{
	opts = *o;
	if (!opts.org_dir)
		opts.org_dir = POLICY_STORE_ORG_DIR;
	if (!opts.lookup_home)
		opts.lookup_home = opts.home;
}

const struct policy_store_opts *
policy_store_opts(void)
{
	return &opts;
}

const char *
policy_store_home(void)
{
	return opts.home;
}

/* Relative paths in a policy resolve against the workspace, so a parse is
 * cached per (file, workspace). */
static struct cached *
find_slot(const char *path, const char *workspace)
{
	char key[8400];
	size_t i;

	snprintf(key, sizeof(key), "%s\n%s", path, workspace ? workspace : "");
	for (i = 0; i < ncache; i++)
		if (!strcmp(cache[i].path, key)) {
			cache[i].seen = true;
			return &cache[i];
		}
	return NULL;
}

/* The entry for (path, workspace), made if new: the oldest makes room. */
static struct cached *
slot(const char *path, const char *workspace)
{
	char key[8400];
	struct cached *c;

	if ((c = find_slot(path, workspace)))
		return c;
	snprintf(key, sizeof(key), "%s\n%s", path, workspace ? workspace : "");
	if (ncache == STORE_MAX_FILES) {
		store_gen++;
		free(cache[0].path);
		policy_free(cache[0].good);
		free(cache[0].problem);
		memmove(cache, cache + 1, sizeof(cache[0]) * (ncache - 1));
		ncache--;
	}
	memset(&cache[ncache], 0, sizeof(cache[0]));
	cache[ncache].path = strdup(key);
	cache[ncache].seen = true;
	return cache[ncache].path ? &cache[ncache++] : NULL;
}

static void
set_problem(struct cached *c, const char *msg)
{
	free(c->problem);
	c->problem = msg ? strdup(msg) : NULL;
}

/* path opened as the served user, *st its fstat: a regular file's fd, or
 * -errno (-EINVAL: not a regular file). Non-blocking: a FIFO (or a
 * device) put where a file is expected must not stop the daemon in open
 * or read; its type is checked before anything is read. */
static int
open_as_user(const char *path, struct stat *st)
{
	int fd, r = 0;

	usercred_enter();
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		r = errno == ENXIO ? -EINVAL : -errno; /* ENXIO: a socket */
	usercred_leave();
	if (r < 0)
		return r;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* The st->st_size bytes of fd (at most max) into a new *buf. */
static int
read_fd(int fd, const struct stat *st, size_t max, char **buf)
{
	if ((size_t)st->st_size > max)
		return -EFBIG;
	if (!(*buf = malloc((size_t)st->st_size + 1)))
		return -ENOMEM;
	if (read(fd, *buf, (size_t)st->st_size) != st->st_size) {
		free(*buf);
		*buf = NULL;
		return -EIO;
	}
	return 0;
}

int
policy_store_read(const char *path, size_t max, struct stat *st, char **buf)
{
	int fd = open_as_user(path, st), r;

	if (fd < 0)
		return fd;
	r = read_fd(fd, st, max, buf);
	close(fd);
	return r;
}

static void
diag_text(const struct policy_diags *d, char *out, size_t len)
{
	const char *e = policy_diag_first_error(d);

	snprintf(out, len, "%s", e ? e : "invalid policy");
}

/* As in srt's settings, a user file need not list the workspace: it is
 * writable unless a layer says otherwise (denyWrite ".", or allowWrite
 * narrowed by the workspace file or a run's --allow-write). Added here, in
 * the user layer, so the layers below can narrow it and the org's allow
 * list still bounds it. */
static int
implicit_workspace(struct policy *p, const char *workspace,
		   struct policy_diags *d)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER,
				  "<implicit: the workspace>", opts.home,
				  workspace };
	const struct policy_rules *l = &p->lists[POLICY_ALLOW_WRITE];
	size_t i;

	if (!workspace)
		return 0;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].value, workspace))
			return 0;
	return policy_rule_add_text(p, POLICY_ALLOW_WRITE, ".", &ctx, d);
}

/* The text of a failure to read a policy file. */
static const char *
read_problem(int r)
{
	return r == -EINVAL ? "not a regular file" : strerror(-r);
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
	int fd, r;

	r = fd = open_as_user(path, &st);
	if (r == -ENOENT || r == -ENOTDIR) {
		/* Gone: whatever was wrong with it no longer matters. */
		if ((c = find_slot(path, workspace)))
			set_problem(c, NULL);
		return -ENOENT;
	}
	if (!(c = slot(path, workspace))) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s: too many policy files", path);
		return -ENOSPC;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, read_problem(r));
		goto failed;
	}
	if (org && st.st_uid != 0 &&
	    !(opts.org_dir_explicit && st.st_uid == geteuid())) {
		close(fd);
		snprintf(err, errlen, "%s: org policy not owned by root", path);
		r = -EPERM;
		goto failed;
	}
	/* Unchanged since parsed: not read again (every run gets here). */
	if (c->good && c->dev == st.st_dev && c->ino == st.st_ino &&
	    c->size == st.st_size && c->mtime.tv_sec == st.st_mtim.tv_sec &&
	    c->mtime.tv_nsec == st.st_mtim.tv_nsec && !c->problem) {
		close(fd);
		*out = c->good;
		return 0;
	}
	r = read_fd(fd, &st, POLICY_MAX_BYTES, &buf);
	close(fd);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, read_problem(r));
		goto failed;
	}
	r = policy_parse(buf, (size_t)st.st_size, &ctx, &p, &diags);
	free(buf);
	if (r == 0 && layer == POLICY_LAYER_USER)
		r = implicit_workspace(p, workspace, &diags);
	if (r < 0) {
		diag_text(&diags, err, errlen);
		policy_diag_free(&diags);
		goto failed;
	}
	policy_diag_free(&diags);
	policy_free(c->good);
	c->good = p;
	store_gen++;
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

/* Org layer: every *.json of the org dir, in name order, then the policy
 * pushed to this daemon. */
static int
load_org(const struct policy **docs, size_t *n, char *err, size_t errlen)
{
	char *names[STORE_MAX_ORG], path[4200];
	size_t k = 0, i;
	struct dirent *de;
	DIR *d = opendir(opts.org_dir);
	int r = 0;

	if (pushed)
		docs[(*n)++] = pushed;
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

static void
ws_clear(struct ws_cached *e)
{
	free(e->ws);
	policy_free(e->defaults);
	policy_free(e->eff);
	memset(e, 0, sizeof(*e));
	store_gen++;
}

/* The entry of ws, made if new: the least recently used makes room. */
static struct ws_cached *
ws_entry(const char *ws)
{
	struct ws_cached *e, *old = &wscache[0];

	for (e = wscache; e < wscache + STORE_MAX_WS; e++) {
		if (e->ws && !strcmp(e->ws, ws))
			goto found;
		if (!e->ws || (old->ws && e->used < old->used))
			old = e;
	}
	e = old;
	if (e->ws)
		ws_clear(e);
	if (!(e->ws = strdup(ws)))
		return NULL;
found:
	e->used = ++ws_clock;
	return e;
}

/* The shipped defaults as the user layer of ws, parsed once. */
static int
load_defaults(const char *ws, const struct policy **doc, char *err,
	      size_t errlen)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER, "<sbx defaults>",
				  opts.home, ws };
	struct policy_diags diags = { 0 };
	struct ws_cached *e = ws_entry(ws);
	int r = 0;

	if (!e)
		return -ENOMEM;
	if (!e->defaults) {
		r = policy_parse(policy_default_json, policy_default_json_len,
				 &ctx, &e->defaults, &diags);
		if (r < 0)
			diag_text(&diags, err, errlen);
		policy_diag_free(&diags);
	}
	if (r == 0)
		*doc = e->defaults;
	return r;
}

static int
load_user(const char *ws, const struct policy **doc, char *err,
	  size_t errlen)
{
	char path[4200];
	int r;

	if (opts.user_file) {
		r = load(opts.user_file, POLICY_LAYER_USER, ws, false, doc,
			 err, errlen);
		if (r == -ENOENT)
			snprintf(err, errlen, "%s: no such file", opts.user_file);
		return r;
	}
	snprintf(path, sizeof(path), "%s/.config/sbx/policy.json",
		 opts.lookup_home);
	r = load(path, POLICY_LAYER_USER, ws, false, doc, err, errlen);
	if (r != -ENOENT)
		return r;
	snprintf(path, sizeof(path), "%s/.srt-settings.json", opts.lookup_home);
	r = load(path, POLICY_LAYER_USER, ws, false, doc, err, errlen);
	if (r != -ENOENT)
		return r;
	return load_defaults(ws, doc, err, errlen);
}

/* Workspace layer: WS/.sbx/policy.json, when there is one. */
static int
load_workspace(const char *ws, const struct policy **docs, size_t *n,
	       char *err, size_t errlen)
{
	char path[4200];
	int r;

	snprintf(path, sizeof(path), "%s/.sbx/policy.json", ws);
	r = load(path, POLICY_LAYER_WORKSPACE, ws, false, &docs[*n], err,
		 errlen);
	if (r == 0)
		(*n)++;
	return r == -ENOENT ? 0 : r;
}

/* The documents of every layer above below_layer, most authoritative
 * first (cached: valid until the next load). */
static int
collect(const char *ws, enum policy_layer below_layer,
	const struct policy **docs, size_t *n, char *err, size_t errlen)
{
	int r = 0;

	*n = 0;
	if (below_layer > POLICY_LAYER_ORG)
		r = load_org(docs, n, err, errlen);
	if (r == 0 && below_layer > POLICY_LAYER_USER &&
	    (r = load_user(ws, &docs[*n], err, errlen)) == 0)
		(*n)++;
	if (r == 0 && below_layer > POLICY_LAYER_WORKSPACE)
		r = load_workspace(ws, docs, n, err, errlen);
	return r;
}

int
policy_store_effective(const char *workspace, const struct policy *request,
		       struct policy **out, char *err, size_t errlen)
{
	const struct policy *docs[STORE_MAX_ORG + 4];
	struct policy_diags diags = { 0 };
	struct ws_cached *e;
	size_t n = 0;
	int r;

	/* The files are read every time: an edit made before this run is
	 * always seen. Only an unchanged set of documents reuses a merge. */
	r = collect(workspace, POLICY_NLAYERS, docs, &n, err, errlen);
	if (r < 0)
		return r;
	e = request ? NULL : ws_entry(workspace);
	if (e && e->eff && e->gen == store_gen && e->ndocs == n &&
	    !memcmp(e->docs, docs, n * sizeof(docs[0]))) {
		*out = policy_ref(e->eff);
		return 0;
	}
	if (request)
		docs[n++] = request;
	/* policy_merge puts the built-in layer (protected paths) first. */
	r = policy_merge(docs, n, opts.home, out, &diags);
	if (r < 0)
		diag_text(&diags, err, errlen);
	policy_diag_free(&diags);
	if (r < 0)
		return r;
	if (e) {
		policy_free(e->eff);
		e->eff = policy_ref(*out);
		e->gen = store_gen;
		e->ndocs = n;
		memcpy(e->docs, docs, n * sizeof(docs[0]));
	}
	return 0;
}

int
policy_store_lint(const struct policy *doc, const char *workspace,
		  struct policy_diags *diags, char *err, size_t errlen)
{
	const struct policy *docs[STORE_MAX_ORG + 4];
	struct policy *eff = NULL;
	size_t n = 0;
	int r;

	r = collect(workspace, doc->layer, docs, &n, err, errlen);
	if (r == 0) {
		docs[n++] = doc;
		r = policy_merge(docs, n, opts.home, &eff, diags);
		if (r < 0)
			snprintf(err, errlen, "merge: %s", strerror(-r));
	}
	policy_free(eff);
	return r;
}

int
policy_store_org_serial(long long *serial, char *err, size_t errlen)
{
	const struct policy *docs[STORE_MAX_ORG + 1];
	long long max = 0;
	size_t n = 0, i;
	int r;

	if ((r = load_org(docs, &n, err, errlen)) < 0)
		return r;
	for (i = 0; i < n; i++)
		if (docs[i]->serial > max)
			max = docs[i]->serial;
	*serial = max;
	return 0;
}

void
policy_store_set_pushed(struct policy *doc)
{
	policy_free(pushed);
	pushed = doc;
	store_gen++;
}

void
policy_store_refresh(const char *const *ws, size_t n)
{
	const struct policy *docs[STORE_MAX_ORG + 4];
	char err[512];
	size_t i, k;

	for (i = 0; i < ncache; i++)
		cache[i].seen = false;
	k = 0;
	load_org(docs, &k, err, sizeof(err));
	/* Each layer on its own, so one failing does not hide another. With
	 * no workspace yet, the user layer is still checked. */
	for (i = 0; i < (n ? n : 1); i++) {
		load_user(n ? ws[i] : opts.home, &docs[0], err, sizeof(err));
		k = 0;
		if (n)
			load_workspace(ws[i], docs, &k, err, sizeof(err));
	}
	/* Files not read now (gone from the org dir, workspaces no longer
	 * watched) have nothing to report. */
	for (i = 0; i < ncache; i++)
		if (!cache[i].seen)
			set_problem(&cache[i], NULL);
}

void
policy_store_on_change(void (*cb)(const char *what))
{
	changed_cb = cb;
}

void
policy_store_changed(const char *what)
{
	log_info("%s changed: new runs use the policy now in force", what);
	if (changed_cb)
		changed_cb(what);
}


size_t
policy_store_problems(const char *const **out)
{
	size_t i, k, n = 0;

	/* One line per problem, though a file is cached per workspace. */
	for (i = 0; i < ncache; i++) {
		if (!cache[i].problem)
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(problems[k], cache[i].problem))
				break;
		if (k == n)
			problems[n++] = cache[i].problem;
	}
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
	for (i = 0; i < STORE_MAX_WS; i++)
		if (wscache[i].ws)
			ws_clear(&wscache[i]);
	policy_free(pushed);
	pushed = NULL;
}
