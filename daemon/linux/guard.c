/* Removal, which the supervisor performs in every mode, and chmod, only
 * in Landlock-only mode: in the namespace modes existing protected paths
 * are read-only binds, which refuse it (EROFS); without mounts nothing
 * would, so a sandbox could delete .sbxignore (unmasking what it named at
 * the next run) or make a disabled hook executable. Removal is seen
 * everywhere so that a refused one is reported, and for the protected
 * names left unbound in directories made during a run. As for the
 * other calls (linux/emulate.c): the path is read and resolved once, and
 * the change made on the directory fd and name, or the object, checked. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
#include "daemon/policy/protect.h"

#ifndef AT_REMOVEDIR
#define AT_REMOVEDIR 0x200
#endif

int
guard_git_dir(int parent, const char *path)
{
	const char *p, *git = NULL;
	int fd, up = 0, next;

	for (p = path; (p = strchr(p, '/')) != NULL; p++)
		if (!strncasecmp(p, "/.git/", 6))
			git = p + 5;
	if (!git)
		return -1;
	for (p = git; (p = strchr(p + 1, '/')) != NULL;)
		up++;
	fd = fcntl(parent, F_DUPFD_CLOEXEC, 3);
	while (fd >= 0 && up-- > 0) {
		next = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	return fd;
}

/* git's own paths (.git/config, .git/hooks and what is in it) of a
 * repository this session made may go again: git clone cleans up after
 * a failure, a test suite removes the repository it made. The exception
 * git's rules have for their creation, extended to their removal. */
static bool
removable(struct sup *s, const struct rpath *p, const char *rule)
{
	bool fresh;
	int git;

	if (!rule || !protect_git_rule(rule) || (git = guard_git_dir(p->parent,
							 p->abs)) < 0)
		return false;
	fresh = sup_fresh(s, git, "");
	close(git);
	return fresh;
}

static int
refuse(struct sup *s, struct sreq *r, enum protect_op op, const char *path,
       const char *rule)
{
	sup_report_protect(s, r, op, path, rule, NULL);
	return -EPERM;
}

/* unlink, rmdir: never through a symlink; "." and ".." are the kernel's
 * to refuse (EINVAL, ENOTEMPTY). */
static int
guard_remove(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	     int flags)
{
	enum protect_verdict v;
	const char *rule = NULL;
	struct rpath p;
	int e;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	if ((e = res_path(s, r, dirfd, addr, false, &p)) < 0)
		return e;
	if (!p.name[0])
		e = flags ? -EBUSY : -EISDIR; /* "/" */
	else if (p.obj < 0)
		e = -ENOENT;
	else if (!res_is_dot(p.name) &&
		 (v = protect_decide(s->fs, PROTECT_REMOVE, 0, p.abs,
				     &rule)) != PROTECT_ALLOW &&
		 !removable(s, &p, rule) &&
		 !(v == PROTECT_NEW_DIR && sup_made_here(s, p.parent, p.abs)))
		e = refuse(s, r, PROTECT_REMOVE, p.abs, rule);
	else if (unlinkat(p.parent, p.name, flags) < 0)
		e = -errno;
	if (e == 0) /* nothing made later inherits its freshness */
		sup_fresh_set(s, p.obj, "", false);
	res_close(&p);
	return e;
}

/* chmod of what obj is (followed already where the call follows). */
static int
chmod_obj(struct sup *s, struct sreq *r, int obj, mode_t mode)
{
	char path[PATH_MAX], self[64];
	const char *rule = NULL;
	struct stat st;
	int e;

	/* No setuid or setgid file (the filter's rule, linux/seccomp.c). */
	if (mode & (S_ISUID | S_ISGID))
		return -EPERM;
	if (fstat(obj, &st) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -EOPNOTSUPP; /* AT_SYMLINK_NOFOLLOW on a symlink */
	if ((e = res_fd_path(obj, path, sizeof(path))) < 0)
		return e;
	/* git init's probe of the file mode, on the config this session's
	 * git just wrote: allowed, as in the namespace modes. */
	if (e == 0 && protect_covered(s->fs, path, &rule) &&
	    !(protect_git_rule(rule) && S_ISREG(st.st_mode) &&
	      sup_fresh(s, obj, "")))
		return refuse(s, r, PROTECT_WRITE, path, rule);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", obj);
	return chmod(self, mode) < 0 ? -errno : 0;
}

static int
guard_chmod(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	    mode_t mode, int flags)
{
	struct rpath p;
	int e;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((e = res_object(s, r, dirfd, addr, flags & AT_EMPTY_PATH,
			    !(flags & AT_SYMLINK_NOFOLLOW), &p)) < 0)
		return e;
	e = chmod_obj(s, r, p.obj, mode);
	res_close(&p);
	return e;
}

int
guard_run(struct sup *s, struct sreq *r, int op)
{
	const __u64 *A = r->n->data.args;
	int fd;

	switch (op) {
	case SUP_UNLINK:
		return guard_remove(s, r, AT_FDCWD, A[0], 0);
	case SUP_RMDIR:
		return guard_remove(s, r, AT_FDCWD, A[0], AT_REMOVEDIR);
	case SUP_UNLINKAT:
		return guard_remove(s, r, (int)(uint32_t)A[0], A[1],
				    (int)(uint32_t)A[2]);
	case SUP_CHMOD:
		return guard_chmod(s, r, AT_FDCWD, A[0], (mode_t)A[1], 0);
	case SUP_FCHMODAT:
		return guard_chmod(s, r, (int)(uint32_t)A[0], A[1],
				   (mode_t)A[2], 0);
	case SUP_FCHMODAT2:
		return guard_chmod(s, r, (int)(uint32_t)A[0], A[1],
				   (mode_t)A[2], (int)(uint32_t)A[3]);
	case SUP_FCHMOD:
		if ((int)(uint32_t)A[0] < 0)
			return -EBADF;
		if ((fd = res_base(s, r, (int)(uint32_t)A[0], "")) < 0)
			return fd;
		op = chmod_obj(s, r, fd, (mode_t)A[1]);
		close(fd);
		return op;
	}
	return -ENOSYS;
}
