/* Keeps generated Seatbelt profiles by their key, in memory and as files written atomically. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon/crypto.h"
#include "daemon/policy/render.h"
#include "daemon/seatbelt/cache.h"

struct entry {
	char		 hash[65];
	char		*text;
	size_t		 len;
	char		*path;
	int		 file_err;
	size_t		 warnings;
	unsigned long	 used;
};

struct seatbelt_cache {
	char		*dir;
	struct entry	 e[SEATBELT_CACHE_MAX];
	size_t		 n;
	unsigned long	 clock;
};

int
seatbelt_cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/sbx/seatbelt", xdg);
	else if (home != NULL && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/sbx/seatbelt", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static json_t *
ignore_json(const struct ignore_set *set)
{
	const struct ignore_file *f;
	json_t *a = json_array(), *lines, *o;
	size_t i, j;

	for (i = 0; set != NULL && (f = ignore_set_file(set, i)) != NULL;
	    i++) {
		lines = json_array();
		for (j = 0; j < f->npat; j++)
			json_array_append_new(lines,
			    json_string(f->pat[j].text));
		o = json_pack("{s:s, s:s, s:o}", "dir", f->dir, "name",
		    f->name, "lines", lines);
		json_array_append_new(a, o);
	}
	return a;
}

int
seatbelt_cache_key(const struct seatbelt_input *in, char hash[65])
{
	json_t *doc, *pol = NULL, *hidden = json_array();
	char *text;
	size_t i;
	int r;

	if ((r = policy_render_json(in->policy, &pol)) < 0) {
		json_decref(hidden);
		return r;
	}
	for (i = 0; in->hidden != NULL && in->hidden[i] != NULL; i++)
		json_array_append_new(hidden, json_string(in->hidden[i]));
	/* json_pack() takes the references, even when it fails. */
	doc = json_pack("{s:s, s:o, s:s, s:s, s:o, s:{s:i, s:i}, s:o}",
	    "generator", SEATBELT_GENERATOR, "policy", pol,
	    "workspace", in->workspace, "tmpdir", in->tmpdir,
	    "hidden", hidden, "ports", "http", (int)in->http_port,
	    "socks", (int)in->socks_port, "ignore", ignore_json(in->ignores));
	if (doc == NULL)
		return -ENOMEM;
	text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(doc);
	if (text == NULL)
		return -ENOMEM;
	r = crypto_sha256_hex(text, strlen(text), hash);
	free(text);
	return r;
}

/* mkdir -p, mode 0700 for what it creates. */
static int
make_dirs(const char *dir)
{
	char buf[4096], *p;
	bool end;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1;; p++) {
		end = *p == '\0';
		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return -errno;
		if (end)
			return 0;
		*p = '/';
	}
}

int
seatbelt_cache_new(const char *dir, struct seatbelt_cache **out)
{
	struct seatbelt_cache *c;

	if (dir == NULL || dir[0] != '/')
		return -EINVAL;
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->dir = strdup(dir)) == NULL) {
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

static void
entry_clear(struct entry *e)
{
	free(e->text);
	free(e->path);
	memset(e, 0, sizeof(*e));
}

void
seatbelt_cache_free(struct seatbelt_cache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		entry_clear(&c->e[i]);
	free(c->dir);
	free(c);
}

static struct entry *
lookup(struct seatbelt_cache *c, const char *hash)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->e[i].hash, hash) == 0)
			return &c->e[i];
	return NULL;
}

/* A free entry, or the least recently used one emptied. */
static struct entry *
slot(struct seatbelt_cache *c)
{
	size_t i, old = 0;

	if (c->n < SEATBELT_CACHE_MAX)
		return &c->e[c->n++];
	for (i = 1; i < c->n; i++)
		if (c->e[i].used < c->e[old].used)
			old = i;
	entry_clear(&c->e[old]);
	return &c->e[old];
}

/* Does path already hold exactly text[0..len)? */
static bool
same_file(const char *path, const char *text, size_t len)
{
	struct stat st;
	char *buf;
	bool same = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == len && (buf = malloc(len + 1)) != NULL) {
		same = read(fd, buf, len + 1) == (ssize_t)len &&
		    memcmp(buf, text, len) == 0;
		free(buf);
	}
	close(fd);
	return same;
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Temporary file, fsync, rename over path, fsync of the directory. */
static int
write_file(const char *dir, const char *path, const char *text, size_t len)
{
	char tmp[4096];
	int fd, dfd, r;

	if (snprintf(tmp, sizeof(tmp), "%s/.profile.XXXXXX", dir) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	r = write_all(fd, text, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		if (fsync(dfd) < 0)
			r = -errno;
		close(dfd);
	}
	return r;
}

/* Puts the profile on disk as DIR/HASH.sb unless it is there already. */
static void
store(struct seatbelt_cache *c, struct entry *e)
{
	char path[4096];
	int r;

	if (snprintf(path, sizeof(path), "%s/%s.sb", c->dir, e->hash) >=
	    (int)sizeof(path)) {
		e->file_err = -ENAMETOOLONG;
		return;
	}
	r = make_dirs(c->dir);
	if (r == 0 && !same_file(path, e->text, e->len))
		r = write_file(c->dir, path, e->text, e->len);
	if (r == 0 && (e->path = strdup(path)) == NULL)
		r = -ENOMEM;
	e->file_err = r;
}

int
seatbelt_cache_get(struct seatbelt_cache *c, const struct seatbelt_input *in,
    struct seatbelt_cached *out, struct policy_diags *diags)
{
	struct entry *e;
	char hash[65], *text;
	size_t len, before = diags->warnings;
	int r;

	if ((r = seatbelt_cache_key(in, hash)) < 0)
		return r;
	if ((e = lookup(c, hash)) == NULL) {
		if ((r = seatbelt_profile(in, &text, &len, diags)) < 0)
			return r;
		e = slot(c);
		memcpy(e->hash, hash, sizeof(hash));
		e->text = text;
		e->len = len;
		e->warnings = diags->warnings - before;
		store(c, e);
	}
	e->used = ++c->clock;
	out->text = e->text;
	out->len = e->len;
	out->path = e->path;
	out->file_err = e->file_err;
	out->hash = e->hash;
	out->warnings = e->warnings;
	return 0;
}
