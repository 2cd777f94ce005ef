/* Walking the writable trees once per template: ignore files are read as
 * they are met (git's rules: a directory's file applies below it, nothing
 * inside an excluded directory is read), policy globs are matched on the
 * absolute path, and hard links to masked files are caught by inode. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/ignore.h"
#include "daemon/linux-walk.h"
#include "daemon/policy-glob.h"

struct inode {
	dev_t dev;
	ino_t ino;
	char *path;
};

struct walk {
	const struct fsplan *fs;
	struct walk_result *res;
	struct ignore_set *ign;
	const char *root;          /* the tree being walked */
	size_t entries;
	struct inode *links;       /* files with more than one link */
	size_t nlinks, caplinks;
	struct inode *masked;      /* masked files, by inode */
	size_t nmasked, capmasked;
};

static int
remember(struct inode **v, size_t *n, size_t *cap, const struct stat *st,
	 const char *path)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct inode *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[*n].dev = st->st_dev;
	(*v)[*n].ino = st->st_ino;
	if (!((*v)[*n].path = strdup(path)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

static bool
any_glob(const struct fsplan_list *l, const char *path)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (policy_glob_match_path(l->v[i], path))
			return true;
	return false;
}

/* Reads the ignore files of directory dfd (rel: its workspace-relative
 * path) into the set. A file that does not parse masks nothing of its own
 * but fails the build: a broken deny list must not fail open. */
static int
add_ignore_files(struct walk *w, int dfd, const char *rel)
{
	const struct fsplan_list *names = &w->fs->l[FSPLAN_IGNORE];
	struct ignore_file *f;
	struct ignore_error e;
	char *buf;
	size_t i;
	int fd, r;
	struct stat st;

	for (i = 0; i < names->n; i++) {
		fd = openat(dfd, names->v[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_size > IGNORE_FILE_MAX) {
			close(fd);
			return -EFBIG;
		}
		buf = malloc((size_t)st.st_size + 1);
		r = buf && read(fd, buf, (size_t)st.st_size) == st.st_size ?
			    0 : -EIO;
		close(fd);
		if (r == 0)
			r = ignore_parse(rel, names->v[i], buf, (size_t)st.st_size,
					 &f, &e);
		free(buf);
		if (r == 0)
			r = ignore_set_add(w->ign, f);
		if (r < 0 && r != -EEXIST)
			return r;
	}
	return 0;
}

static int walk_dir(struct walk *w, int dfd, char *abs, size_t alen,
		    char *rel, size_t rlen, int depth);

static int
walk_entry(struct walk *w, int dfd, const char *name, char *abs, size_t alen,
	   char *rel, size_t rlen, int depth)
{
	size_t nl = strlen(name), a2 = alen + 1 + nl, r2;
	struct stat st;
	bool dir;
	int r;

	if (a2 >= 4096 || rlen + 1 + nl >= 4096)
		return -ENAMETOOLONG;
	abs[alen] = '/';
	memcpy(abs + alen + 1, name, nl + 1);
	r2 = rlen ? rlen + 1 + nl : nl;
	if (rlen)
		rel[rlen] = '/';
	memcpy(rel + (rlen ? rlen + 1 : 0), name, nl + 1);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* vanished meanwhile */
	dir = S_ISDIR(st.st_mode);
	if (any_glob(&w->fs->l[FSPLAN_DENY_GLOBS], abs) ||
	    ignore_set_match_child(w->ign, rel, dir, NULL) == 1) {
		if ((r = fsplan_append(&w->res->deny, abs)) < 0)
			return r;
		if (S_ISREG(st.st_mode))
			return remember(&w->masked, &w->nmasked, &w->capmasked,
					&st, abs);
		return 0;
	}
	if (any_glob(&w->fs->l[FSPLAN_RO_GLOBS], abs))
		return fsplan_append(&w->res->ro, abs);
	if (S_ISREG(st.st_mode) && st.st_nlink > 1)
		return remember(&w->links, &w->nlinks, &w->caplinks, &st, abs);
	if (!dir)
		return 0;
	return walk_dir(w, dfd, abs, a2, rel, r2, depth + 1);
}

static int
walk_dir(struct walk *w, int pfd, char *abs, size_t alen, char *rel,
	 size_t rlen, int depth)
{
	const char *name = rlen ? strrchr(abs, '/') + 1 : abs;
	struct dirent *de;
	DIR *d;
	int fd, r = 0;

	if (depth > WALK_MAX_DEPTH)
		return -ELOOP;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES ? 0 : -errno; /* unreadable: no secrets */
	rel[rlen] = '\0';
	if ((r = add_ignore_files(w, fd, rel)) < 0) {
		close(fd);
		return r;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (r == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++w->entries > WALK_MAX_ENTRIES)
			r = -E2BIG;
		else
			r = walk_entry(w, dirfd(d), de->d_name, abs, alen, rel,
				       rlen, depth);
		abs[alen] = '\0';
		rel[rlen] = '\0';
	}
	closedir(d);
	return r;
}

static int
mask_links(struct walk *w)
{
	size_t i, j;
	int r;

	for (i = 0; i < w->nlinks; i++)
		for (j = 0; j < w->nmasked; j++)
			if (w->links[i].dev == w->masked[j].dev &&
			    w->links[i].ino == w->masked[j].ino) {
				r = fsplan_append(&w->res->deny, w->links[i].path);
				if (r < 0)
					return r;
				break;
			}
	return 0;
}

static void
forget(struct inode *v, size_t n)
{
	while (n--)
		free(v[n].path);
	free(v);
}

int
linux_walk(const struct fsplan *fs, struct walk_result *out)
{
	struct walk w = { .fs = fs, .res = out };
	char abs[4096], rel[4096];
	size_t i;
	int r = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; r == 0 && i < fs->l[FSPLAN_WRITE].n; i++) {
		const char *root = fs->l[FSPLAN_WRITE].v[i];

		if (strlen(root) >= sizeof(abs))
			return -ENAMETOOLONG;
		if ((r = ignore_set_new(&w.ign)) < 0)
			break;
		w.root = root;
		strcpy(abs, root);
		rel[0] = '\0';
		r = walk_dir(&w, AT_FDCWD, abs, strlen(abs), rel, 0, 0);
		ignore_set_free(w.ign);
		w.ign = NULL;
		if (r == -ENOENT || r == -ENOTDIR)
			r = 0; /* allowWrite names something absent: nothing to walk */
	}
	if (r == 0)
		r = mask_links(&w);
	forget(w.links, w.nlinks);
	forget(w.masked, w.nmasked);
	if (r < 0)
		linux_walk_free(out);
	return r;
}

void
linux_walk_free(struct walk_result *r)
{
	fsplan_list_free(&r->deny);
	fsplan_list_free(&r->ro);
}
