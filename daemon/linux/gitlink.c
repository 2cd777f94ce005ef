/* git worktree add inside a sandbox: the files that tie a linked worktree
 * to its repository (WT/.git, .git/worktrees/ID/gitdir and commondir) are
 * written by the supervisor with content it derives from where they are,
 * never with the command's. git writes its own copy into an anonymous
 * file; the gitdir it wrote only tells which worktree's .git comes next.
 * So a .git file can only name a .git/worktrees/ID directory (whose
 * config, hooks and commondir are protected) and commondir only say
 * "../..": the repository itself.
 *
 * A submodule's .git file (git clone --separate-git-dir writes it, then
 * git submodule rewrites it relative) is git's own content, which cannot
 * be known when the file is opened: git writes it into an anonymous file,
 * and at the command's next supervised call (git writes it in one write()
 * and goes on) the supervisor reads it and writes the file itself when it
 * names a submodule's repository in a .git the session made, reached
 * without a symlink (gitfile_submodule). Only in a directory the session
 * made: one that existed before holds a work tree the user's tools know. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
#include "daemon/policy/gitfile.h"
#include "daemon/policy/protect.h"

static int
discard(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A new file dir/name holding text; nothing is replaced. */
static int
put(int dir, const char *name, const char *text, mode_t mode)
{
	size_t n = strlen(text);
	int fd, e = 0;

	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		e = -EIO;
	if (close(fd) < 0 && e == 0)
		e = -EIO;
	if (e < 0)
		unlinkat(dir, name, 0);
	return e;
}

static void
forget(struct sup *s, unsigned i)
{
	close(s->wt[i].dir);
	close(s->wt[i].memfd);
	s->wt[i] = s->wt[--s->nwt];
}

int
gitlink_gitdir(struct sup *s, const struct rpath *p)
{
	const unsigned cap = sizeof(s->wt) / sizeof(s->wt[0]);
	int fd = discard("sbx-gitdir"), dir, mine;
	unsigned i;

	if (fd < 0)
		return fd;
	dir = fcntl(p->parent, F_DUPFD_CLOEXEC, 3);
	mine = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dir < 0 || mine < 0) {
		if (dir >= 0)
			close(dir);
		close(fd);
		return -EMFILE;
	}
	/* The oldest pending worktree is forgotten first: its .git file
	 * is then refused. */
	if (s->nwt == cap)
		forget(s, s->next_wt++ % cap);
	i = s->nwt++;
	s->wt[i].dir = dir;
	s->wt[i].memfd = mine;
	return fd;
}

int
gitlink_commondir(struct sup *s, const struct rpath *p, mode_t mode)
{
	int e = put(p->parent, p->name, "../..\n", mode);

	return e < 0 ? e : discard("sbx-commondir");
}

/* Whether the gitdir git wrote into pending worktree i names path. */
static bool
names(struct sup *s, unsigned i, const char *path)
{
	char buf[PATH_MAX + 2];
	ssize_t n = pread(s->wt[i].memfd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return !strcmp(buf, path);
}

int
gitlink_dotgit(struct sup *s, const struct rpath *p, mode_t mode)
{
	char dir[PATH_MAX], text[PATH_MAX + 16];
	unsigned i;
	int e;

	for (i = s->nwt; i-- > 0;)
		if (names(s, i, p->abs))
			break;
	if (i == (unsigned)-1)
		return -EPERM;
	/* Where that directory is now: still a worktree's, or refused. */
	if ((e = res_fd_path(s->wt[i].dir, dir, sizeof(dir))) != 0 ||
	    !protect_worktree_admin(dir)) {
		forget(s, i);
		return e < 0 ? e : -EPERM;
	}
	snprintf(text, sizeof(text), "%s\n", p->abs);
	if ((e = put(s->wt[i].dir, "gitdir", text, mode)) < 0)
		return e;
	snprintf(text, sizeof(text), "gitdir: %s\n", dir);
	if ((e = put(p->parent, p->name, text, mode)) < 0) {
		unlinkat(s->wt[i].dir, "gitdir", 0);
		return e;
	}
	forget(s, i);
	return discard("sbx-dotgit");
}

/* The umask in force (the command's: sup_use_umask came first). */
static mode_t
umask_now(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

static void
forget_gl(struct sup *s, unsigned i)
{
	close(s->gl[i].dir);
	close(s->gl[i].memfd);
	s->gl[i] = s->gl[--s->ngl];
}

/* Why the .git file git wrote (buf, n bytes) into pending g may not be
 * written, or NULL when it was. */
static const char *
write_gitlink(struct sup *s, struct sup_gitlink *g, char *buf, size_t n)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	char gitdir[PATH_MAX], git[PATH_MAX];
	struct stat st, here;
	bool fresh;
	mode_t old;
	int fd, e;

	/* A relative path is read from where the directory was when git
	 * opened the file: it must still be there. */
	fd = (int)syscall(SYS_openat2, s->root, g->path, &how, sizeof(how));
	e = fd >= 0 && fstat(fd, &here) == 0 && fstat(g->dir, &st) == 0 &&
	    here.st_dev == st.st_dev && here.st_ino == st.st_ino;
	if (fd >= 0)
		close(fd);
	if (!e)
		return "its directory moved meanwhile";
	if (gitfile_submodule(buf, n, g->path, gitdir, git, sizeof(git)) < 0)
		return "not a submodule's .git file (\"gitdir: "
		       "TOP/.git/modules/NAME\")";
	fd = (int)syscall(SYS_openat2, s->root, git, &how, sizeof(how));
	fresh = fd >= 0 && sup_fresh(s, fd, "");
	if (fd >= 0)
		close(fd);
	if (!fresh)
		return "its repository is not in a .git made in this run, or "
		       "is reached through a symlink";
	/* A rewrite: of the file written here before, nothing else. */
	if (fstatat(g->dir, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (!S_ISREG(st.st_mode) || !sup_fresh(s, g->dir, ".git") ||
	     unlinkat(g->dir, ".git", 0) < 0))
		return "a .git there that was not written in this run";
	buf[n] = '\0';
	old = umask(0);
	e = put(g->dir, ".git", buf, g->mode);
	umask(old);
	if (e < 0)
		return "it could not be written";
	sup_fresh_set(s, g->dir, ".git", true);
	return NULL;
}

/* Pending .git file i: written or refused once git has written it all
 * (one line), or when last; kept otherwise. */
static void
settle(struct sup *s, unsigned i, bool last)
{
	struct sup_gitlink *g = &s->gl[i];
	struct sreq r = { .n = &g->n, .tid = g->tid };
	char buf[PATH_MAX + 16], path[PATH_MAX + 8];
	ssize_t n = pread(g->memfd, buf, sizeof(buf) - 1, 0);
	const char *why;

	if (n < 0)
		n = 0;
	if (!last && (n == 0 || buf[n - 1] != '\n') &&
	    n < (ssize_t)sizeof(buf) - 1)
		return;
	if ((why = write_gitlink(s, g, buf, (size_t)n)) != NULL) {
		snprintf(path, sizeof(path), "%s/.git",
			 strcmp(g->path, "/") ? g->path : "");
		sup_report_protect(s, &r, PROTECT_CREATE, path,
				   "/**/.git (not a directory)", why);
	}
	forget_gl(s, i);
}

void
gitlink_settle(struct sup *s, bool last)
{
	unsigned i;

	for (i = s->ngl; i-- > 0;)
		settle(s, i, last);
}

int
gitlink_submodule(struct sup *s, struct sreq *r, const struct rpath *p,
		  mode_t mode, bool existing)
{
	const unsigned cap = sizeof(s->gl) / sizeof(s->gl[0]);
	struct sup_gitlink *g;
	const char *slash = strrchr(p->abs, '/');
	int fd, dir;

	if (!slash || strcmp(p->name, ".git") || !sup_dir_made(s, p->parent) ||
	    (existing && !sup_fresh(s, p->parent, p->name)))
		return -EPERM;
	if ((fd = discard("sbx-gitlink")) < 0)
		return fd;
	if (s->ngl == cap) /* the oldest, never finished: refused */
		settle(s, 0, true);
	dir = fcntl(p->parent, F_DUPFD_CLOEXEC, 3);
	g = &s->gl[s->ngl];
	if (dir < 0 || (g->memfd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		if (dir >= 0)
			close(dir);
		close(fd);
		return -EMFILE;
	}
	g->dir = dir;
	snprintf(g->path, sizeof(g->path), "%.*s",
		 slash == p->abs ? 1 : (int)(slash - p->abs), p->abs);
	g->mode = mode & ~umask_now();
	g->n = *r->n;
	g->tid = r->tid;
	s->ngl++;
	return fd;
}
