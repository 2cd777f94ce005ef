/* git's config.lock renamed onto .git/config, performed by the supervisor:
 * the new content is read once and checked, as a whole config
 * (gitconfig_check) for a repository this session made, or for what it
 * changes (gitconfig_change_check) in one that existed before, and it is
 * written from that copy, never from a file the command can still write.
 * An existing config the template made a read-only bind is written in
 * place through the workspace's own mount, without the binds, that the
 * supervisor cloned at its start (s->ws): the bind, and so the sandbox,
 * see the new content at once, as the host does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
#include "daemon/policy/gitconfig.h"
#include "daemon/policy/protect.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static const char rule[] = "/**/.git/config";

/* Up to GITCONFIG_MAX + 1 bytes of the file behind O_PATH fd obj. */
static int
slurp(int obj, char *buf, size_t cap, size_t *len)
{
	ssize_t k;
	size_t n = 0;
	int fd = res_reopen(obj, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return fd;
	while (n < cap && (k = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)k;
	close(fd);
	*len = n;
	return 0;
}

static int
refuse(struct sup *s, struct sreq *r, const struct rpath *dst,
       const struct gitconfig_error *ge)
{
	char detail[200];

	snprintf(detail, sizeof(detail), "%s%s%s%s", ge->key,
		 ge->key[0] ? ": " : "", ge->why,
		 ge->line && !ge->key[0] ? " (in the new file)" : "");
	sup_report_protect(s, r, dst->obj >= 0 ? PROTECT_WRITE :
			   PROTECT_RENAME, dst->abs, rule, detail);
	return -EPERM;
}

static bool
same_file(int fd, const struct stat *want)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == want->st_dev &&
	       st.st_ino == want->st_ino;
}

/* dst's file, opened for writing through the workspace mount without the
 * template's binds: each directory from the workspace down, following no
 * link, and the very .git and config the command's path resolved to. */
static int
open_under_binds(struct sup *s, const struct rpath *dst)
{
	size_t n = s->ws_path ? strlen(s->ws_path) : 0;
	char rel[PATH_MAX], *c, *slash;
	struct stat git;
	int dir, next, fd;

	if (s->ws < 0 || !n || strncmp(dst->abs, s->ws_path, n) ||
	    dst->abs[n] != '/' ||
	    snprintf(rel, sizeof(rel), "%s", dst->abs + n + 1) >=
		    (int)sizeof(rel) ||
	    fstat(dst->parent, &git) < 0)
		return -EPERM;
	if ((dir = fcntl(s->ws, F_DUPFD_CLOEXEC, 3)) < 0)
		return -errno;
	for (c = rel; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
		*slash = '\0';
		next = openat(dir, c, O_PATH | O_NOFOLLOW | O_DIRECTORY |
			      O_CLOEXEC);
		close(dir);
		if ((dir = next) < 0)
			return -errno;
	}
	if (!same_file(dir, &git)) {
		close(dir);
		return -EPERM;
	}
	fd = openat(dir, c, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK |
		    O_CLOEXEC);
	close(dir);
	if (fd >= 0 && !same_file(fd, &dst->st)) {
		close(fd);
		return -EPERM;
	}
	return fd < 0 ? -errno : fd;
}

/* The checked content into the bound config's own inode. */
static int
write_in_place(struct sup *s, struct rpath *src, const struct rpath *dst,
	       const char *buf, size_t n)
{
	int fd = open_under_binds(s, dst), e = 0;

	if (fd < 0)
		return fd;
	if (pwrite(fd, buf, n, 0) != (ssize_t)n || ftruncate(fd, (off_t)n) < 0)
		e = -EIO;
	if (close(fd) < 0 && e == 0)
		e = -EIO;
	/* The rename took the lock file away: so must we. */
	if (e == 0 && unlinkat(src->parent, src->name, 0) < 0)
		e = -errno;
	return e;
}

/* The checked content as a new file at src's name, renamed onto dst. */
static int
write_renamed(struct rpath *src, const struct rpath *dst, const char *buf,
	      size_t n, unsigned flags)
{
	int fd, e = 0;

	if (unlinkat(src->parent, src->name, 0) < 0)
		return -errno;
	fd = openat(src->parent, src->name, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, src->st.st_mode & 0666) < 0 ||
	    write(fd, buf, n) != (ssize_t)n)
		e = -EIO;
	if (close(fd) < 0 && e == 0)
		e = -EIO;
	if (e == 0 && renameat2(src->parent, src->name, dst->parent, dst->name,
				flags & RENAME_NOREPLACE) < 0)
		e = -errno;
	return e;
}

/* A new repository's config as a whole; a submodule's (in the
 * superproject's .git/modules) with the core.worktree git submodule
 * sets. */
static int
module_check(const struct rpath *dst, const char *buf, size_t n,
	     struct gitconfig_error *ge)
{
	static const char mod[] = "/.git/modules/";
	char dir[PATH_MAX], git[PATH_MAX];
	const char *m;

	if (res_fd_path(dst->parent, dir, sizeof(dir)) != 0 ||
	    !(m = strstr(dir, mod)))
		return gitconfig_check(buf, n, ge);
	snprintf(git, sizeof(git), "%.*s", (int)(m - dir) + 5, dir);
	return gitconfig_check_module(buf, n, dir, git, ge);
}

int
gitcfg_rename(struct sup *s, struct sreq *r, struct rpath *src,
	      struct rpath *dst, unsigned flags, bool fresh)
{
	static char buf[GITCONFIG_MAX + 1], old[GITCONFIG_MAX + 1];
	struct gitconfig_error ge = { 0 };
	size_t n = 0, on = 0;
	int e;

	if (dst->obj >= 0 && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if ((e = slurp(src->obj, buf, sizeof(buf), &n)) < 0)
		return e;
	if (fresh) {
		if (module_check(dst, buf, n, &ge) < 0)
			return refuse(s, r, dst, &ge);
	} else if ((e = slurp(dst->obj, old, sizeof(old), &on)) < 0)
		return e;
	else if (gitconfig_change_check(old, on, buf, n, &ge) < 0)
		return refuse(s, r, dst, &ge);
	if (!fresh && sup_mount_root(dst->obj)) {
		e = write_in_place(s, src, dst, buf, n);
		if (e == -EPERM) {
			ge.why = "the config is a read-only bind, and the "
				 "workspace's own mount was not at hand to "
				 "write it";
			return refuse(s, r, dst, &ge);
		}
		return e;
	}
	if ((e = write_renamed(src, dst, buf, n, flags)) < 0)
		return e;
	if (fresh) {
		if (dst->obj >= 0)
			sup_fresh_set(s, dst->obj, "", false);
		sup_fresh_set(s, dst->parent, dst->name, true);
	}
	return 0;
}
