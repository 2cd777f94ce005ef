/* Walking the writable trees of a template: ignore files are read as they
 * are met (git's rules: a directory's file applies below it, nothing inside
 * an excluded directory is read), policy globs are matched on the absolute
 * path, and hard links to masked files are caught by inode. The state is
 * kept so a changed directory can be rescanned alone. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/policy/ignore.h"
#include "daemon/linux/pathset.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/walk-ignore.h"
#include "daemon/linux/linux.h"
#include "daemon/policy/glob.h"
#include "daemon/policy/protect.h"

struct inode {
	dev_t dev;
	ino_t ino;
	char *path;
};

struct root {
	const char *path;
	struct ignore_set *ign;
	bool shallow;              /* the home overlay: its own entries only */
};

struct walk_state {
	const struct fsplan *fs;
	struct root roots[64];
	size_t nroots;
	struct pathset done;       /* masked or protected */
	struct pathset seen_dirs;  /* walked directories */
	struct pathset linked;     /* other links of masked files, masked
				      (some were decided read-only first) */
	struct pathset repos;      /* repositories made read-only (git_repos) */
	struct pathset outside;    /* read-only: links of files outside */
	struct linux_links counts; /* links seen under the writable trees */
	size_t checked;            /* links[] looked at for outside links */
	struct inode *links, *masked;
	size_t nlinks, caplinks, nmasked, capmasked;
	size_t entries;
	struct walk_watch watch;   /* fn NULL: none */
	/* current walk */
	struct root *root;
	struct walk_result *res;
	bool recurse_known;
	bool building;             /* the template's first walk */
	bool recounting;           /* counts being made again (lost events) */
	bool deferring;            /* a drain of events is being handled:
				      links are looked at once it is over */
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

bool
linux_walk_is_ignore_file(const struct walk_state *st, const char *name)
{
	const struct fsplan_list *l = &st->fs->l[FSPLAN_IGNORE];
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

static int walk_dir(struct walk_state *w, int dfd, char *abs, size_t alen,
		    char *rel, size_t rlen, int depth);

/* A directory's entries, read in full before any is walked (its ignore
 * files apply to all of them): records of a d_type byte and a name. */
struct entries {
	char *buf;
	size_t len, cap;
};

static int
read_entries(struct walk_state *w, DIR *d, struct entries *e,
	     uint64_t *present)
{
	const struct fsplan_list *names = &w->fs->l[FSPLAN_IGNORE];
	struct dirent *de;
	size_t n, i;

	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++w->entries > WALK_MAX_ENTRIES)
			return -E2BIG;
		n = strlen(de->d_name) + 2;
		if (e->len + n > e->cap) {
			size_t c = e->cap ? e->cap * 2 : 4096;
			char *b;

			while (c < e->len + n)
				c *= 2;
			if (!(b = realloc(e->buf, c)))
				return -ENOMEM;
			e->buf = b;
			e->cap = c;
		}
		e->buf[e->len] = (char)de->d_type;
		memcpy(e->buf + e->len + 1, de->d_name, n - 1);
		e->len += n;
		for (i = 0; i < names->n && i < 64; i++)
			if (!strcmp(de->d_name, names->v[i]))
				*present |= 1ull << i;
	}
	return 0;
}

/* abs goes to list l (or, for a mask of the first walk, to the masker). */
static int
emit(struct walk_state *w, struct fsplan_list *l, const char *abs)
{
	if (w->watch.mask && (l == &w->res->deny || l == &w->res->deny_dirs))
		return w->watch.mask(abs, l == &w->res->deny_dirs,
				     w->watch.mask_arg);
	return fsplan_append(l, abs);
}

/* abs, decided once: to list l. */
static int
decide(struct walk_state *w, struct fsplan_list *l, const char *abs)
{
	int r = pathset_add(&w->done, abs);

	return r == 1 ? emit(w, l, abs) : r;
}

/* A repository path to be read-only, once (not through decide(): the
 * masks' own set, where a repository decided first would keep a mask
 * from its directory). */
static int
repo_ro(struct walk_state *w, const char *path)
{
	int r = pathset_add(&w->repos, path);

	return r == 1 ? fsplan_append(&w->res->ro, path) : r;
}

/* The repositories git reaches from the .git at abs that the name rules
 * do not guard and the command could write (a repository kept under
 * another name): read-only as a whole, or only what git runs or reads
 * settings from when one holds the workspace. At the first walk only:
 * what was there before the template; later ones the supervisor refuses
 * (a .git that is not a directory, a commondir), and a bind per new
 * symlink would let a sandbox without one pile up mounts. */
static int __attribute__((noinline))
git_repos(struct walk_state *w, const char *abs)
{
	static const char *const parts[] = { "config", "config.worktree",
					     "hooks", "commondir" };
	char repo[2][PATH_MAX], part[PATH_MAX + 32];
	int i, n, r = 0;
	size_t j;
	struct stat st;

	if (!w->building)
		return 0;
	n = linux_git_repos(abs, repo);
	for (i = 0; r >= 0 && i < n; i++)
		switch (protect_git_repo(w->fs, repo[i])) {
		case PROTECT_REPO_GUARDED:
			break;
		case PROTECT_REPO_WHOLE:
			r = repo_ro(w, repo[i]);
			break;
		case PROTECT_REPO_PARTS:
			for (j = 0; r >= 0 && j < sizeof(parts) / sizeof(parts[0]); j++) {
				if (snprintf(part, sizeof(part), "%s/%s",
					     repo[i], parts[j]) <
					    (int)sizeof(part) &&
				    lstat(part, &st) == 0)
					r = repo_ro(w, part);
			}
			break;
		}
	return r < 0 ? r : 0;
}

/* One entry; dtype (from readdir, DT_UNKNOWN if not known) spares the
 * stat of a directory or a link: only files need theirs (links, inodes). */
static int
walk_entry(struct walk_state *w, int dfd, const char *name,
	   unsigned char dtype, char *abs, size_t alen, char *rel,
	   size_t rlen, int depth)
{
	size_t nl = strlen(name), a2 = alen + 1 + nl, r2;
	struct stat st = { 0 };
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
	if (dtype == DT_DIR)
		st.st_mode = S_IFDIR;
	else if (dtype == DT_LNK)
		st.st_mode = S_IFLNK;
	else if (linux_userpath_lstat(dfd, name, &st) < 0)
		return 0; /* vanished meanwhile (or another's, unsearchable) */
	dir = S_ISDIR(st.st_mode);
	/* Masked ones too: a link under a writable tree, only the home
	 * overlay's own entries not (a write there is copied up). */
	if (S_ISREG(st.st_mode) && !w->root->shallow &&
	    (r = linux_links_see(&w->counts, &st, pathset_hash(abs))) < 0)
		return r;
	if (any_glob(&w->fs->l[FSPLAN_DENY_GLOBS], abs) ||
	    ignore_set_match(w->root->ign, rel, dir, NULL) == 1) {
		if (S_ISLNK(st.st_mode))
			return 0; /* never followed: its target is what counts */
		if ((r = decide(w, dir ? &w->res->deny_dirs : &w->res->deny,
				abs)) < 0)
			return r;
		if (S_ISREG(st.st_mode))
			return remember(&w->masked, &w->nmasked, &w->capmasked,
					&st, abs);
		return 0;
	}
	/* A .git file names the repository git uses there (policy/protect.c).
	 * What is read-only is still walked: what is inside is masked as
	 * anywhere else (the read-only bind clones the masks below it), and
	 * a read-only file may be another link to a masked one. */
	if ((any_glob(&w->fs->l[FSPLAN_RO_GLOBS], abs) ||
	     (S_ISREG(st.st_mode) && protect_git_type(abs, S_IFREG))) &&
	    (r = decide(w, &w->res->ro, abs)) < 0)
		return r;
	if (!strcasecmp(name, ".git") && (r = git_repos(w, abs)) < 0)
		return r;
	if (S_ISREG(st.st_mode) && st.st_nlink > 1)
		return remember(&w->links, &w->nlinks, &w->caplinks, &st, abs);
	if (!dir || w->root->shallow)
		return 0;
	r = pathset_add(&w->seen_dirs, abs);
	if (r < 0)
		return r;
	if (r == 0 && !w->recurse_known)
		return 0; /* walked before and its own events cover it */
	return walk_dir(w, dfd, abs, a2, rel, r2, depth + 1);
}

static int
walk_dir(struct walk_state *w, int pfd, char *abs, size_t alen, char *rel,
	 size_t rlen, int depth)
{
	struct entries e = { 0 };
	uint64_t present = 0;
	size_t off;
	DIR *d;
	int fd, r;

	if (depth > WALK_MAX_DEPTH)
		return -ELOOP;
	/* No access time written back (an inode update per directory of a
	 * fresh tree); only the owner may ask, others read as before. */
	fd = openat(pfd, depth ? strrchr(abs, '/') + 1 : abs,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = openat(pfd, depth ? strrchr(abs, '/') + 1 : abs,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && depth &&
	    (errno == ENOENT || errno == ELOOP || errno == ENOTDIR))
		return 0; /* vanished (or replaced) meanwhile: its event says */
	/* A directory of the user's that the user cannot read now (mode
	 * 000, or inside one) can be opened by a chmod in the sandbox: what
	 * it holds is walked, each directory and ignore file opened by root
	 * only once seen to be the user's own (what the user-mode walk's
	 * namespace allows it), the rest still with the user's rights: no
	 * link of the user's is followed as root, no device opened, and git
	 * discovery there finds what the user could reach. Another user's
	 * stays unread. */
	if (fd < 0 && errno == EACCES && depth) {
		fd = linux_userpath_owned(pfd, strrchr(abs, '/') + 1,
					  O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return 0; /* another's, or gone */
	}
	if (fd < 0)
		return errno == EACCES ? 0 : -errno; /* unreadable: no secrets */
	r = 0;
	if (w->watch.fn)
		r = w->watch.fn(fd, abs, w->watch.arg);
	d = r < 0 ? NULL : fdopendir(fd);
	if (!d) {
		r = r < 0 ? r : -errno;
		close(fd);
		return r;
	}
	rel[rlen] = '\0';
	r = read_entries(w, d, &e, &present);
	if (r == 0)
		r = linux_walk_ignore_read(w->fs, w->root->path, w->root->ign,
					    fd, rel, present);
	for (off = 0; r == 0 && off < e.len; off += strlen(e.buf + off + 1) + 2) {
		r = walk_entry(w, fd, e.buf + off + 1, (unsigned char)e.buf[off],
			       abs, alen, rel, rlen, depth);
		abs[alen] = '\0';
		rel[rlen] = '\0';
	}
	free(e.buf);
	closedir(d);
	return r;
}

/* Files with several links whose inode is masked are masked under every
 * name, read-only ones too (a mask goes over their read-only bind). */
static int
mask_links(struct walk_state *w)
{
	size_t i, j;
	int r;

	for (i = 0; i < w->nlinks; i++)
		for (j = 0; j < w->nmasked; j++)
			if (w->links[i].dev == w->masked[j].dev &&
			    w->links[i].ino == w->masked[j].ino) {
				r = pathset_add(&w->linked, w->links[i].path);
				if (r == 1 && (r = pathset_add(&w->done,
						w->links[i].path)) >= 0)
					r = emit(w, &w->res->deny,
						 w->links[i].path);
				if (r < 0)
					return r;
				break;
			}
	return 0;
}

/* Files with more links than were seen under the writable trees are
 * read-only (a write would change the file elsewhere too), unless masked
 * or read-only already. The links remembered since the last look only:
 * a file seen again is remembered again. */
static int
ro_links(struct walk_state *w)
{
	const struct inode *l;
	int r;

	if (w->deferring)
		return 0;
	for (; w->checked < w->nlinks; w->checked++) {
		l = &w->links[w->checked];
		if (!linux_links_outside(&w->counts, l->dev, l->ino) ||
		    pathset_has(&w->done, l->path) ||
		    pathset_has(&w->linked, l->path))
			continue;
		r = pathset_add(&w->outside, l->path);
		if (r == 1)
			r = fsplan_append(&w->res->ro_links, l->path);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Walks root-relative directory rel of root (rel "" = the root). */
static int
walk_from(struct walk_state *w, struct root *root, const char *abs_dir,
	  struct walk_result *out)
{
	char abs[4096], rel[4096];
	size_t rl = strlen(root->path);
	int r;

	if (strlen(abs_dir) >= sizeof(abs))
		return -ENAMETOOLONG;
	w->root = root;
	w->res = out;
	strcpy(abs, abs_dir);
	strcpy(rel, abs_dir[rl] == '/' ? abs_dir + rl + 1 : "");
	r = walk_dir(w, AT_FDCWD, abs, strlen(abs), rel, strlen(rel), 0);
	if (r == -ENOENT || r == -ENOTDIR)
		r = 0; /* absent (allowWrite names nothing, or it went away) */
	if (r == 0)
		r = mask_links(w);
	/* The build looks once all trees are counted (linux_walk). */
	if (r == 0 && !w->building && !w->recounting)
		r = ro_links(w);
	return r;
}

int
linux_walk(const struct fsplan *fs, const struct walk_watch *watch,
	   struct walk_state **stp, struct walk_result *out)
{
	struct walk_state *w = calloc(1, sizeof(*w));
	size_t i;
	int r = 0;

	linux_walk_ignore_forget();
	memset(out, 0, sizeof(*out));
	if (!w)
		return -ENOMEM;
	w->fs = fs;
	if (watch)
		w->watch = *watch;
	w->recurse_known = true;
	w->building = true;
	for (i = 0; r == 0 && i < fs->l[FSPLAN_WRITE].n + fs->l[FSPLAN_OVERLAY].n &&
		    w->nroots < 64; i++) {
		struct root *root = &w->roots[w->nroots++];
		size_t nw = fs->l[FSPLAN_WRITE].n;

		root->shallow = i >= nw;
		root->path = root->shallow ? fs->l[FSPLAN_OVERLAY].v[i - nw] :
			     fs->l[FSPLAN_WRITE].v[i];
		if ((r = ignore_set_new(&root->ign)) == 0 &&
		    (r = pathset_add(&w->seen_dirs, root->path)) >= 0)
			r = walk_from(w, root, root->path, out);
	}
	if (r == 0)
		r = ro_links(w);
	if (r < 0) {
		linux_walk_result_free(out);
		linux_walk_state_free(w);
		return r;
	}
	w->watch.mask = NULL; /* later walks' masks are their results' */
	w->building = false;
	*stp = w;
	return 0;
}

/* A new entry at a path decided before: what was there went (removed,
 * or replaced by a rename over it), and with it the mounts on it, which
 * the kernel detaches. Nothing at or below that path is decided any more.
 */
static int
forget_path(struct walk_state *w, const char *abs)
{
	int r = 0;

	if (pathset_has(&w->done, abs) || pathset_has(&w->seen_dirs, abs) ||
	    pathset_has(&w->outside, abs)) {
		r = pathset_drop_tree(&w->outside, abs);
		if (r == 0)
			r = pathset_drop_tree(&w->done, abs);
		if (r == 0)
			r = pathset_drop_tree(&w->seen_dirs, abs);
		if (r == 0)
			r = pathset_drop_tree(&w->linked, abs);
	}
	return r;
}

/* One new entry of directory abs_dir (and, for a directory, what is
 * below it). */
static int
walk_one(struct walk_state *w, struct root *root, const char *abs_dir,
	 const char *name, struct walk_result *out)
{
	char abs[4096], rel[4096];
	size_t rl = strlen(root->path), al = strlen(abs_dir);
	size_t nl = strlen(name);
	int dfd, r;

	if (al + 1 + nl >= sizeof(abs))
		return -ENAMETOOLONG;
	memcpy(abs, abs_dir, al);
	abs[al] = '/';
	memcpy(abs + al + 1, name, nl + 1);
	if ((r = forget_path(w, abs)) < 0)
		return r;
	w->root = root;
	w->res = out;
	strcpy(abs, abs_dir);
	strcpy(rel, abs_dir[rl] == '/' ? abs_dir + rl + 1 : "");
	dfd = open(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	r = walk_entry(w, dfd, name, DT_UNKNOWN, abs, strlen(abs), rel,
		       strlen(rel), 1);
	close(dfd);
	if (r == 0)
		r = mask_links(w);
	if (r == 0 && !w->recounting)
		r = ro_links(w);
	return r;
}

int
linux_walk_each_dir(const struct walk_state *w,
		    int (*fn)(const char *dir, void *arg), void *arg)
{
	size_t i;
	int r;

	for (i = 0; i < w->seen_dirs.cap; i++)
		if (w->seen_dirs.slot[i] &&
		    (r = fn(w->seen_dirs.slot[i], arg)) < 0)
			return r;
	return 0;
}

/* The writable tree abs is in (the deepest, when they nest). */
static struct root *
root_of(struct walk_state *w, const char *abs)
{
	struct root *root = NULL;
	size_t i, best = 0;

	for (i = 0; i < w->nroots; i++) {
		size_t n = strlen(w->roots[i].path);

		if (!strncmp(abs, w->roots[i].path, n) &&
		    (abs[n] == '/' || !abs[n]) && n >= best) {
			root = &w->roots[i];
			best = n;
		}
	}
	return root;
}

/* Directory abs again: with name, that entry only (and what is below
 * it); without, all its entries, and the directories known already below
 * them too when recurse_known. */
static int
rewalk(struct walk_state *w, const char *abs, const char *name,
       bool recurse_known, struct walk_result *out)
{
	struct root *root;

	memset(out, 0, sizeof(*out));
	if (!(root = root_of(w, abs)))
		return 0;
	w->entries = 0;
	w->recurse_known = recurse_known;
	if (!name)
		return walk_from(w, root, abs, out);
	return walk_one(w, root, abs, name, out);
}

/* The paths left of inode (dev, ino), which lost one: read-only when
 * they are still that file and it has more links than are seen here. */
static int
left_links(struct walk_state *w, dev_t dev, ino_t ino)
{
	struct stat st;
	size_t i;
	int r;

	for (i = 0; i < w->nlinks; i++) {
		const char *p = w->links[i].path;

		if (w->links[i].dev != dev || w->links[i].ino != ino ||
		    pathset_has(&w->outside, p) || pathset_has(&w->done, p) ||
		    lstat(p, &st) < 0 || st.st_dev != dev || st.st_ino != ino)
			continue;
		if ((r = linux_links_see(&w->counts, &st, pathset_hash(p))) < 0)
			return r;
		if (!linux_links_outside(&w->counts, dev, ino))
			return 0;
		r = pathset_add(&w->outside, p);
		if (r == 1)
			r = fsplan_append(&w->res->ro_links, p);
		if (r < 0)
			return r;
	}
	return 0;
}

/* One path gone from the counts, and (check) what is left of its file. */
static int
gone(struct walk_state *w, const char *path, bool check)
{
	dev_t dev;
	ino_t ino;

	if (!linux_links_gone(&w->counts, pathset_hash(path), &dev, &ino) ||
	    !check)
		return 0;
	return left_links(w, dev, ino);
}

int
linux_walk_gone(struct walk_state *w, const char *dir, const char *name,
		bool is_dir, bool check, struct walk_result *out)
{
	char abs[4096];
	size_t i, n;
	int r;

	memset(out, 0, sizeof(*out));
	w->res = out;
	n = (size_t)snprintf(abs, sizeof(abs), "%s/%s", dir, name);
	if (n >= sizeof(abs))
		return 0;
	r = gone(w, abs, check);
	/* A directory's files with several links, which are what the
	 * counts are for (a file alone that went is counted again as
	 * alone when its inode is seen next). */
	for (i = 0; r >= 0 && is_dir && i < w->nlinks; i++)
		if (!strncmp(w->links[i].path, abs, n) &&
		    w->links[i].path[n] == '/')
			r = gone(w, w->links[i].path, check);
	return r < 0 ? r : 0;
}

void
linux_walk_recount(struct walk_state *w)
{
	linux_links_free(&w->counts);
	w->checked = w->nlinks;
	w->recounting = true;
}

int
linux_walk_recounted(struct walk_state *w, struct walk_result *out)
{
	memset(out, 0, sizeof(*out));
	w->res = out;
	w->recounting = false;
	return ro_links(w);
}

void
linux_walk_defer_links(struct walk_state *w)
{
	w->deferring = true;
}

int
linux_walk_links_settle(struct walk_state *w, struct walk_result *out)
{
	memset(out, 0, sizeof(*out));
	w->res = out;
	w->deferring = false;
	return ro_links(w);
}

int
linux_walk_rescan(struct walk_state *w, const char *abs, const char *name,
		  struct walk_result *out)
{
	linux_walk_ignore_forget();
	/* A changed ignore file can mask anything below it: walk it all.
	 * Otherwise only the new entry (and what is below it). */
	if (!name || linux_walk_is_ignore_file(w, name))
		return rewalk(w, abs, NULL, true, out);
	return rewalk(w, abs, name, false, out);
}

static void
forget(struct inode *v, size_t n)
{
	while (n--)
		free(v[n].path);
	free(v);
}

void
linux_walk_result_free(struct walk_result *r)
{
	fsplan_list_free(&r->deny);
	fsplan_list_free(&r->deny_dirs);
	fsplan_list_free(&r->ro);
	fsplan_list_free(&r->ro_links);
}

void
linux_walk_state_free(struct walk_state *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nroots; i++)
		ignore_set_free(w->roots[i].ign);
	pathset_free(&w->done);
	pathset_free(&w->seen_dirs);
	pathset_free(&w->linked);
	pathset_free(&w->repos);
	pathset_free(&w->outside);
	linux_links_free(&w->counts);
	forget(w->links, w->nlinks);
	forget(w->masked, w->nmasked);
	free(w);
}
