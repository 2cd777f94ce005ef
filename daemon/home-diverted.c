/* The run's writes that the home overlay kept in the workspace's layer:
 * found by a bounded walk of upper/, caches left out. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "daemon/home-diverted.h"

/* Entries looked at, at most: a layer full of a tool's files outside the
 * cache list is summarised by what was found first. */
#define WALK_BUDGET 20000
#define WALK_DEPTH 12

/* Caches, package stores and histories, relative to the home. */
static const char *const caches[] = {
	/* caches and package stores */
	".cache", ".npm", ".cargo/registry", ".cargo/git", ".rustup",
	"go/pkg", ".m2/repository", ".gradle", ".ivy2", ".sbt", ".yarn",
	".pnpm-store", ".local/share/pnpm", ".bun/install", ".deno",
	".nuget/packages", ".conan", ".node-gyp", ".local/lib", ".local/bin",
	".local/state",
	/* histories */
	".bash_history", ".zsh_history", ".python_history",
	".node_repl_history", ".lesshst", ".wget-hsts", ".psql_history",
	".sqlite_history", ".viminfo",
};
#define NCACHES (sizeof(caches) / sizeof(caches[0]))

bool
home_diverted_cache(const char *rel)
{
	size_t i, n;

	for (i = 0; i < NCACHES; i++) {
		n = strlen(caches[i]);
		if (!strncmp(rel, caches[i], n) &&
		    (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

/* Whether a cache lies below rel (".cargo" holds ".cargo/registry"): a
 * directory made in the run is then looked into, not listed whole. */
static bool
holds_cache(const char *rel)
{
	size_t i, n = strlen(rel);

	for (i = 0; i < NCACHES; i++)
		if (!strncmp(caches[i], rel, n) && caches[i][n] == '/')
			return true;
	return false;
}

struct walk {
	struct home_diverted *out;
	int home;              /* the real home, O_PATH; -1: unknown */
	int64_t since;         /* ms since the epoch */
	long budget;
};

/* Changed since the run started: the inode's ctime (a copy-up makes a
 * new inode in the layer). */
static bool
changed(const struct walk *w, const struct stat *st)
{
	return (int64_t)st->st_ctim.tv_sec * 1000 +
		       st->st_ctim.tv_nsec / 1000000 >= w->since;
}

static void
note(struct walk *w, const char *rel, const char *suffix)
{
	struct home_diverted *d = w->out;

	if (d->n < HOME_DIVERTED_MAX &&
	    asprintf(&d->path[d->n], "~/%s%s", rel, suffix) >= 0)
		d->n++;
	else
		d->more++;
}

static bool
in_home(const struct walk *w, const char *rel)
{
	struct stat st;

	return w->home >= 0 &&
	       fstatat(w->home, rel, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void
walk_dir(struct walk *w, int dir, char *rel, size_t len, int depth)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, sub;
	size_t n;

	if ((fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) && --w->budget > 0) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = (size_t)snprintf(rel + len, PATH_MAX - len, "%s%s",
				     len ? "/" : "", de->d_name);
		if (len + n >= PATH_MAX || home_diverted_cache(rel) ||
		    fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0)) {
			if (changed(w, &st))
				note(w, rel, " (removed)");
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (changed(w, &st))
				note(w, rel, "");
			continue;
		}
		if (changed(w, &st) && !holds_cache(rel) && !in_home(w, rel)) {
			note(w, rel, "/"); /* made in the run: as a whole */
			continue;
		}
		if (depth >= WALK_DEPTH)
			continue;
		sub = openat(dirfd(d), de->d_name,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			walk_dir(w, sub, rel, len + n, depth + 1);
			close(sub);
		}
		rel[len] = '\0';
	}
	closedir(d);
}

int
home_diverted_scan(const char *layers, const char *home,
		   int64_t since_unix_ms, struct home_diverted *out)
{
	struct walk w = { out, -1, since_unix_ms, WALK_BUDGET };
	char rel[PATH_MAX] = "", upper[PATH_MAX];
	int fd;

	memset(out, 0, sizeof(*out));
	if (snprintf(upper, sizeof(upper), "%s/upper", layers) >=
	    (int)sizeof(upper))
		return -ENAMETOOLONG;
	if ((fd = open(upper, O_PATH | O_DIRECTORY | O_NOFOLLOW |
		       O_CLOEXEC)) < 0)
		return -errno;
	w.home = open(home, O_PATH | O_DIRECTORY | O_CLOEXEC);
	walk_dir(&w, fd, rel, 0, 0);
	close(fd);
	if (w.home >= 0)
		close(w.home);
	return 0;
}

void
home_diverted_free(struct home_diverted *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->path[i]);
	d->n = 0;
}
