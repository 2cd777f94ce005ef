/* git worktree add inside a sandbox: the files that tie a linked worktree
 * to its repository (WT/.git, .git/worktrees/ID/gitdir and commondir) are
 * written by the supervisor with content it derives from where they are,
 * never with the command's. git writes its own copy into an anonymous
 * file; the gitdir it wrote only tells which worktree's .git comes next.
 * So a .git file can only name a .git/worktrees/ID directory (whose
 * config, hooks and commondir are protected) and commondir only say
 * "../..": the repository itself. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
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
