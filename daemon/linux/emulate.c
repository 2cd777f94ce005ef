/* The file syscalls the supervisor performs for the command: each path is
 * resolved once (linux/resolve.c), checked against the protected paths
 * (policy/protect.c), and the change is made on what was checked, through the
 * resolved directory fd and name or the resolved object itself. The
 * supervisor has the command's credentials, mounts and Landlock rules, so
 * the kernel still decides everything else, with the same errors. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"
#include "daemon/linux/linux.h"
#include "daemon/policy/protect.h"
#include "daemon/sandbox.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

/* A directory rename is looked into at most this far, else EXDEV: mv
 * then copies, one checked creation at a time. */
#define TREE_MAX_ENTRIES 100000

static int
deny(struct sup *s, struct sreq *r, enum protect_op op, const char *path,
     const char *rule, const char *detail)
{
	sup_report_protect(s, r, op, path, rule, detail);
	return -EPERM;
}

/* e, the kernel's answer to a creation at p: an EACCES outside every tree
 * the command may create in is Landlock's, and reported as such. */
static int
made(struct sup *s, struct sreq *r, const struct rpath *p,
     const char *access, int e)
{
	if (e == -EACCES && !protect_creatable(s->fs, p->abs))
		sup_report_landlock(s, r, access, p->abs);
	return e;
}

/* The Landlock right mknod of mode needs. */
static const char *
make_right(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFCHR:
		return "fs.make_char";
	case S_IFBLK:
		return "fs.make_block";
	case S_IFIFO:
		return "fs.make_fifo";
	case S_IFSOCK:
		return "fs.make_sock";
	default:
		return "fs.make_reg";
	}
}

static bool
writes(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
}

/* On a read-only mount nothing changes whatever the name: the kernel's
 * EROFS (or EXDEV) stands, as for existing protected paths, which are
 * read-only binds. Asked only of what the rules refuse: a syscall of
 * its own, which most files made need not pay. */
static bool
ro_mount(int fd)
{
	struct statvfs sv;

	return fd >= 0 && fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

/* A mount point is never renamed or removed (EBUSY): .git is one where
 * the template pinned it. */
bool
sup_mount_root(int fd)
{
	struct statx sx;

	return fd >= 0 && statx(fd, "", AT_EMPTY_PATH, 0, &sx) == 0 &&
	       (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/* A write to a regular file with other hard links under no protecting
 * rule. In the namespace modes the template made those with links outside
 * the writable paths read-only binds of themselves (linux/walk.c): the
 * kernel's EROFS stands, and the report says why, which that error alone
 * does not. Landlock-only mode has neither binds nor the walk's count of
 * the links inside: every such file under the writable trees is refused
 * (EPERM), since a write could change a package store's copy. */
static int
hard_linked(struct sup *s, struct sreq *r, const struct rpath *p)
{
	static const char why[] = "a hard link of a file outside the "
				  "writable paths, which a write would "
				  "change too";
	static const char why_ll[] = "a file with several hard links: "
				     "Landlock-only mode cannot tell whether "
				     "one is outside the writable paths";
	bool ll = sandbox_caps()->landlock_only;
	char path[PATH_MAX];
	const char *rule = NULL;

	if (!S_ISREG(p->st.st_mode) || p->st.st_nlink < 2 ||
	    (!ll && !(sup_mount_root(p->obj) && ro_mount(p->obj))) ||
	    res_fd_path(p->obj, path, sizeof(path)) != 0 ||
	    protect_decide(s->fs, PROTECT_WRITE, S_IFREG, path, &rule) !=
		    PROTECT_ALLOW ||
	    (ll && !protect_creatable(s->fs, path)))
		return 0;
	if (ll)
		return deny(s, r, PROTECT_WRITE, path, NULL, why_ll);
	sup_report_protect(s, r, PROTECT_WRITE, path, NULL, why);
	return 0;
}

/* A verdict that allows the change: ALLOW, or NEW_DIR where the holding
 * directory was made in this run (checked on path, which must be the
 * resolved abs whose directory parent is). */
static bool
allowed_here(struct sup *s, enum protect_verdict v, int parent,
	     const char *path, const char *abs)
{
	return v == PROTECT_ALLOW ||
	       (v == PROTECT_NEW_DIR && !strcmp(path, abs) &&
		sup_made_here(s, parent, abs));
}

static int
open_existing(struct sup *s, struct sreq *r, struct rpath *p, int flags,
	      bool cloexec)
{
	enum protect_verdict v;
	char path[PATH_MAX];
	const char *rule = NULL;
	int e;

	/* The kernel's answer to O_CREAT of "name/", whatever name is,
	 * before O_EXCL's. */
	if ((flags & O_CREAT) && p->name[0] &&
	    p->name[strlen(p->name) - 1] == '/')
		return -EISDIR;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (S_ISLNK(p->st.st_mode))
		return -ELOOP; /* O_NOFOLLOW on a symlink */
	/* A protected file the template bound read-only: the kernel's
	 * EROFS, reported, since the write leaves the old content. */
	if (writes(flags) && ro_mount(p->obj) && S_ISREG(p->st.st_mode) &&
	    res_fd_path(p->obj, path, sizeof(path)) == 0 &&
	    protect_covered(s->fs, path, &rule)) {
		sup_report_protect(s, r, PROTECT_WRITE, path, rule, NULL);
		return -EROFS;
	}
	if (writes(flags) && !ro_mount(p->obj)) {
		if ((e = res_fd_path(p->obj, path, sizeof(path))) < 0)
			return e;
		v = e == 0 ? protect_decide(s->fs, PROTECT_WRITE,
					    p->st.st_mode & S_IFMT, path,
					    &rule) : PROTECT_ALLOW;
		/* git submodule rewriting the .git file it wrote. */
		if (v == PROTECT_GIT_FILE && !strcmp(path, p->abs) &&
		    S_ISREG(p->st.st_mode) && (flags & O_TRUNC) &&
		    (e = sup_use_umask(s, r)) == 0 &&
		    (e = gitlink_submodule(s, r, p, p->st.st_mode & 0777,
					   true)) != -EPERM)
			return e;
		if (e == -EPERM || !allowed_here(s, v, p->parent, path, p->abs))
			return deny(s, r, PROTECT_WRITE, path, rule, NULL);
	}
	if (writes(flags) && (e = hard_linked(s, r, p)) < 0)
		return e;
	flags &= ~(O_CREAT | O_EXCL | O_CLOEXEC);
	if (S_ISFIFO(p->st.st_mode))
		return emu_open_fifo(s, r, p->obj, flags, cloexec);
	if (S_ISCHR(p->st.st_mode) && p->st.st_rdev == makedev(5, 0))
		return emu_open_ctty(s, r, flags);
	return res_reopen(p->obj, flags);
}

/* What git worktree add writes to tie a worktree to its repository
 * (linux/gitlink.c). */
static int
open_gitlink(struct sup *s, struct sreq *r, struct rpath *p,
	     enum protect_verdict v, mode_t mode, const char *rule)
{
	int e;

	if (v == PROTECT_WT_GITDIR)
		return gitlink_gitdir(s, p);
	if ((e = sup_use_umask(s, r)) < 0)
		return e;
	if (v == PROTECT_WT_COMMONDIR)
		return gitlink_commondir(s, p, mode & 0777);
	e = gitlink_dotgit(s, p, mode & 0777);
	if (e == -EPERM)
		e = gitlink_submodule(s, r, p, mode & 0777, false);
	return e == -EPERM ? deny(s, r, PROTECT_CREATE, p->abs, rule,
				  "neither a linked worktree's .git file nor "
				  "a submodule's in a directory made in this "
				  "run") : e;
}

static int
open_new(struct sup *s, struct sreq *r, struct rpath *p, int flags,
	 mode_t mode)
{
	enum protect_verdict v;
	const char *rule = NULL;
	int fd, e;

	if (!(flags & O_CREAT))
		return -ENOENT;
	v = protect_decide(s->fs, PROTECT_CREATE, S_IFREG, p->abs, &rule);
	if (v != PROTECT_ALLOW && (ro_mount(p->parent) ||
				   allowed_here(s, v, p->parent, p->abs,
						p->abs)))
		v = PROTECT_ALLOW;
	switch (v) {
	case PROTECT_ALLOW:
		break;
	case PROTECT_DISCARD:
		/* A sample hook git init copies: accepted, kept nowhere. */
		fd = memfd_create("sbx-discarded", MFD_CLOEXEC);
		return fd < 0 ? -errno : fd;
	case PROTECT_WT_GITDIR:
	case PROTECT_WT_COMMONDIR:
	case PROTECT_GIT_FILE:
		return open_gitlink(s, r, p, v, mode, rule);
	default:
		return deny(s, r, PROTECT_CREATE, p->abs, rule, NULL);
	}
	if ((e = sup_use_umask(s, r)) < 0)
		return e;
	fd = openat(p->parent, p->name, (flags & ~O_CLOEXEC) | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, mode);
	if (fd < 0 && errno == EEXIST && !(flags & O_EXCL))
		return -EAGAIN; /* made meanwhile: look again */
	return fd < 0 ? made(s, r, p, "fs.make_reg", -errno) : fd;
}

/* A new file made before the name is looked for, where the rules allow
 * one there: a lookup fewer for each file made. -EAGAIN: the name exists
 * (and the call does not demand a new one), or the rules have a say, or
 * it is no plain name: emu_open then looks it up first. */
static int
open_created(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	     int flags, mode_t mode, bool excl)
{
	struct rpath p;
	int e, fd;

	if ((e = res_path_parent(s, r, dirfd, addr, &p)) < 0)
		return e;
	if (p.obj >= 0 || protect_decide(s->fs, PROTECT_CREATE, S_IFREG,
					 p.abs, NULL) != PROTECT_ALLOW)
		e = -EAGAIN;
	else if ((e = sup_use_umask(s, r)) == 0) {
		fd = openat(p.parent, p.name, (flags & ~O_CLOEXEC) | O_CREAT |
			    O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, mode);
		e = fd >= 0 ? fd :
		    errno != EEXIST ? made(s, r, &p, "fs.make_reg", -errno) :
		    excl ? -EEXIST : -EAGAIN;
	}
	res_close(&p);
	return e;
}

static int
emu_open(struct sup *s, struct sreq *r, int dirfd, uint64_t addr, int flags,
	 mode_t mode, struct sup_answer *a)
{
	bool excl = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	struct rpath p;
	int e = -EAGAIN, tries, fd;

	/* No setuid or setgid file (the filter's rule, linux/seccomp.c). */
	if ((flags & (O_CREAT | __O_TMPFILE)) && (mode & (S_ISUID | S_ISGID)))
		return -EPERM;
	a->is_fd = true;
	a->cloexec = flags & O_CLOEXEC;
	if (flags & O_PATH) {
		if ((e = res_path(s, r, dirfd, addr, !(flags & O_NOFOLLOW),
				  &p)) < 0)
			return e;
		fd = p.obj >= 0 ? fcntl(p.obj, F_DUPFD_CLOEXEC, 3) : -1;
		e = p.obj < 0 ? -ENOENT : fd < 0 ? -errno : fd;
		res_close(&p);
		return e;
	}
	if ((flags & O_CREAT) && (flags & __O_TMPFILE) != __O_TMPFILE &&
	    (e = open_created(s, r, dirfd, addr, flags, mode, excl)) !=
		    -EAGAIN)
		return e;
	for (tries = 0; tries < 4 && e == -EAGAIN; tries++) {
		if ((e = res_path(s, r, dirfd, addr,
				  !(flags & O_NOFOLLOW) && !excl, &p)) < 0)
			return e;
		if ((flags & __O_TMPFILE) == __O_TMPFILE) {
			/* An unnamed file: nothing named is made until a
			 * linkat, which comes here too. */
			e = p.obj < 0 ? -ENOENT : sup_use_umask(s, r);
			if (e == 0) {
				fd = openat(p.obj, ".", (flags & ~O_CLOEXEC) |
					    O_CLOEXEC, mode);
				e = fd < 0 ? -errno : fd;
			}
		} else if (p.obj >= 0)
			e = open_existing(s, r, &p, flags, a->cloexec);
		else
			e = open_new(s, r, &p, flags, mode);
		res_close(&p);
	}
	return e == -EAGAIN ? -EEXIST : e;
}

/* ".git" (any case, a trailing slash allowed): a repository this session
 * makes, whose config git may then write (git_config). */
static bool
is_dot_git(const char *name)
{
	return !strncasecmp(name, ".git", 4) &&
	       (name[4] == '\0' || !strcmp(name + 4, "/"));
}

/* mkdir, mknod, symlink: a new name, never through a symlink. */
static int
emu_make(struct sup *s, struct sreq *r, enum protect_op op, int dirfd,
	 uint64_t addr, mode_t mode, dev_t dev, uint64_t target_addr)
{
	char target[PATH_MAX];
	enum protect_verdict v;
	const char *rule = NULL;
	struct rpath p;
	int e;

	if (op == PROTECT_MKNOD && (mode & (S_ISUID | S_ISGID)))
		return -EPERM; /* no setuid or setgid file */
	if (op == PROTECT_SYMLINK) {
		if ((e = res_read_string(r, target_addr, target,
					 sizeof(target))) < 0)
			return e;
		if (!target[0])
			return -ENOENT;
	}
	if ((e = res_path_new(s, r, dirfd, addr, &p)) < 0)
		return e;
	if (p.obj >= 0 || !p.name[0] || res_is_dot(p.name)) {
		res_close(&p);
		return -EEXIST;
	}
	/* The lookup ran unlocked: a name that exists (most of a package
	 * manager's mkdirs) changes nothing and needs no order with other
	 * sandboxes' renames. What is checked and made is, from here: the
	 * parent's path as it is under the lock. */
	sup_lock(s, false);
	if ((e = res_abs(&p)) < 0) {
		res_close(&p);
		return e;
	}
	v = protect_decide(s->fs, op, op == PROTECT_MKDIR ? S_IFDIR :
			   op == PROTECT_SYMLINK ? S_IFLNK : S_IFREG,
			   p.abs, &rule);
	if (v != PROTECT_ALLOW && ro_mount(p.parent))
		v = PROTECT_ALLOW;
	if (op == PROTECT_SYMLINK && v == PROTECT_DENY &&
	    protect_module_symlink(p.abs, target, rule))
		v = PROTECT_ALLOW;
	if (!allowed_here(s, v, p.parent, p.abs, p.abs) &&
	    v != PROTECT_HOOKS_DIR)
		e = deny(s, r, op, p.abs, rule, NULL);
	else if (op != PROTECT_SYMLINK && (e = sup_use_umask(s, r)) < 0)
		;
	else if (op == PROTECT_MKDIR)
		e = made(s, r, &p, "fs.make_dir",
			 mkdirat(p.parent, p.name, mode) < 0 ? -errno : 0);
	else if (op == PROTECT_MKNOD)
		e = made(s, r, &p, make_right(mode),
			 mknodat(p.parent, p.name, mode, dev) < 0 ? -errno : 0);
	else
		e = made(s, r, &p, "fs.make_sym",
			 symlinkat(target, p.parent, p.name) < 0 ? -errno : 0);
	if (e == 0 && op == PROTECT_MKDIR && is_dot_git(p.name))
		sup_fresh_set(s, p.parent, p.name, true);
	if (e == 0 && op == PROTECT_MKDIR)
		sup_made_add(s, p.parent, p.name);
	res_close(&p);
	return e;
}

/* The object a link or truncate names must not be a protected file (nor
 * a .git file): another name for it would be a way to write it. */
static int
check_object(struct sup *s, struct sreq *r, enum protect_op op, int obj)
{
	char path[PATH_MAX];
	const char *rule = NULL;
	struct stat st;
	int e = res_fd_path(obj, path, sizeof(path));

	if (e < 0)
		return e;
	if (fstat(obj, &st) < 0)
		return -errno;
	if (e == 0 && (protect_covered(s->fs, path, &rule) ||
		       (rule = protect_git_type(path, st.st_mode & S_IFMT))))
		return deny(s, r, op, path, rule, NULL);
	return 0;
}

static int
emu_link(struct sup *s, struct sreq *r, int odfd, uint64_t oaddr, int ndfd,
	 uint64_t naddr, int flags)
{
	char self[64];
	struct rpath src, dst;
	const char *rule = NULL;
	int e;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((e = res_object(s, r, odfd, oaddr, flags & AT_EMPTY_PATH,
			    flags & AT_SYMLINK_FOLLOW, &src)) < 0)
		return e;
	if (!ro_mount(src.obj) &&
	    (e = check_object(s, r, PROTECT_LINK, src.obj)) < 0) {
		res_close(&src);
		return e;
	}
	if ((e = res_path(s, r, ndfd, naddr, false, &dst)) < 0) {
		res_close(&src);
		return e;
	}
	if (dst.obj >= 0 || !dst.name[0] || res_is_dot(dst.name))
		e = -EEXIST;
	else if (!ro_mount(dst.parent) && !ro_mount(src.obj) &&
		 protect_decide(s->fs, PROTECT_LINK, src.st.st_mode & S_IFMT,
				dst.abs, &rule) != PROTECT_ALLOW)
		e = deny(s, r, PROTECT_LINK, dst.abs, rule, NULL);
	else {
		/* The very inode checked, whatever its name is by now. */
		snprintf(self, sizeof(self), "/proc/self/fd/%d", src.obj);
		e = linkat(AT_FDCWD, self, dst.parent, dst.name,
			   AT_SYMLINK_FOLLOW) < 0 ? -errno : 0;
	}
	res_close(&src);
	res_close(&dst);
	return e;
}

static bool
is_symlink(int dir, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_LNK;
	return fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISLNK(st.st_mode);
}

/* Every entry down to the depth protect_rename_depth() gives must keep
 * its coverage when the tree moves from `from` to `to`. */
static int
check_tree(struct sup *s, struct sreq *r, int dir, const char *from,
	   const char *to, int depth, long *budget)
{
	char a[PATH_MAX], b[PATH_MAX];
	const char *rule = NULL;
	struct dirent *de;
	DIR *d;
	int fd, e = 0;

	if ((fd = res_reopen(dir, O_RDONLY | O_DIRECTORY)) < 0)
		return deny(s, r, PROTECT_RENAME, from, NULL,
			    "the directory cannot be read to check it");
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -errno;
	}
	while (e == 0 && (de = readdir(d))) {
		if (res_is_dot(de->d_name))
			continue;
		if (--*budget < 0) {
			e = -EXDEV;
			break;
		}
		if (snprintf(a, sizeof(a), "%s/%s", from, de->d_name) >=
			    (int)sizeof(a) ||
		    snprintf(b, sizeof(b), "%s/%s", to, de->d_name) >=
			    (int)sizeof(b)) {
			e = -ENAMETOOLONG;
			break;
		}
		if (protect_covered(s->fs, a, &rule) !=
		    protect_covered(s->fs, b, &rule)) {
			e = deny(s, r, PROTECT_RENAME,
				 protect_covered(s->fs, b, NULL) ? b : a, rule,
				 "a protected path inside the renamed "
				 "directory");
			break;
		}
		/* A symlink coming into a .git directory. */
		if (is_symlink(dirfd(d), de) && !protect_git_type(a, S_IFLNK) &&
		    (rule = protect_git_type(b, S_IFLNK))) {
			e = deny(s, r, PROTECT_RENAME, b, rule,
				 "a symlink inside the renamed directory");
			break;
		}
		if (depth != 1 && de->d_type != DT_REG &&
		    de->d_type != DT_LNK) {
			int sub = openat(dirfd(d), de->d_name,
					 O_PATH | O_NOFOLLOW | O_CLOEXEC);
			struct stat st;

			if (sub < 0)
				e = -errno;
			else if (fstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
				e = check_tree(s, r, sub, a, b,
					       depth > 1 ? depth - 1 : depth,
					       budget);
			if (sub >= 0)
				close(sub);
		}
	}
	closedir(d);
	return e;
}

static int
rename_checked(struct sup *s, struct sreq *r, struct rpath *src,
	       struct rpath *dst, unsigned flags)
{
	const char *rule = NULL;
	enum protect_verdict v = protect_decide(s->fs, PROTECT_RENAME,
						src->st.st_mode & S_IFMT,
						dst->abs, &rule);
	long budget = TREE_MAX_ENTRIES;
	int depth, e, git;
	bool fresh;

	/* git writing a repository's config: the whole of it in one this
	 * session made, only keys that run nothing in one that existed
	 * before (linux/gitcfg.c; a bound config too). */
	if (v == PROTECT_GIT_CONFIG && !(flags & RENAME_EXCHANGE) &&
	    S_ISREG(src->st.st_mode) && !strchr(src->name, '/') &&
	    !sup_mount_root(src->obj) && !ro_mount(src->parent) &&
	    !ro_mount(dst->parent) && !protect_covered(s->fs, src->abs, NULL) &&
	    (dst->obj < 0 || S_ISREG(dst->st.st_mode))) {
		/* The repository's .git (a submodule's config: the
		 * superproject's, which holds it) made in this session. */
		git = guard_git_dir(dst->parent, dst->abs);
		fresh = git >= 0 && sup_fresh(s, git, "") &&
			(dst->obj < 0 || sup_fresh(s, dst->parent, dst->name));
		if (git >= 0)
			close(git);
		if (fresh || dst->obj >= 0)
			return gitcfg_rename(s, r, src, dst, flags, fresh);
	}
	if (sup_mount_root(src->obj) || sup_mount_root(dst->obj) ||
	    ro_mount(src->parent) || ro_mount(dst->parent))
		goto kernel; /* it refuses: EBUSY, EROFS, EXDEV */
	/* Onto an existing file: a write of it, which leaves it as it was. */
	if (!allowed_here(s, v, dst->parent, dst->abs, dst->abs))
		return deny(s, r, dst->obj >= 0 ? PROTECT_WRITE :
			    PROTECT_RENAME, dst->abs, rule, NULL);
	if (!allowed_here(s, protect_decide(s->fs, PROTECT_REMOVE, 0,
					    src->abs, &rule),
			  src->parent, src->abs, src->abs))
		return deny(s, r, PROTECT_REMOVE, src->abs, rule, NULL);
	/* Exchanged, dst's object lands at src's path. */
	if ((flags & RENAME_EXCHANGE) && dst->obj >= 0 &&
	    (rule = protect_git_type(src->abs, dst->st.st_mode & S_IFMT)))
		return deny(s, r, PROTECT_RENAME, src->abs, rule, NULL);
	if (S_ISDIR(src->st.st_mode) &&
	    (depth = protect_rename_depth(s->fs, src->abs, dst->abs)) != 0 &&
	    (e = check_tree(s, r, src->obj, src->abs, dst->abs, depth,
			    &budget)) < 0)
		return e;
	if ((flags & RENAME_EXCHANGE) && dst->obj >= 0 &&
	    S_ISDIR(dst->st.st_mode) &&
	    (depth = protect_rename_depth(s->fs, dst->abs, src->abs)) != 0 &&
	    (e = check_tree(s, r, dst->obj, dst->abs, src->abs, depth,
			    &budget)) < 0)
		return e;
kernel:
	return renameat2(src->parent, src->name, dst->parent, dst->name,
			 flags) < 0 ? -errno : 0;
}

static int
emu_rename(struct sup *s, struct sreq *r, int odfd, uint64_t oaddr,
	   int ndfd, uint64_t naddr, unsigned flags)
{
	struct rpath src, dst;
	int e;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((e = res_path(s, r, odfd, oaddr, false, &src)) < 0)
		return e;
	if ((e = res_path(s, r, ndfd, naddr, false, &dst)) < 0) {
		res_close(&src);
		return e;
	}
	if (src.obj < 0)
		e = -ENOENT;
	else if (!src.name[0] || !dst.name[0] || res_is_dot(src.name) ||
		 res_is_dot(dst.name))
		e = -EBUSY; /* "/", "." or "..": never renamed */
	else
		e = rename_checked(s, r, &src, &dst, flags);
	res_close(&src);
	res_close(&dst);
	return e;
}

static int
emu_truncate(struct sup *s, struct sreq *r, uint64_t addr, off_t len)
{
	char self[64];
	struct rpath p;
	int e;

	if ((e = res_path(s, r, AT_FDCWD, addr, true, &p)) < 0)
		return e;
	if (p.obj < 0)
		e = -ENOENT;
	else if ((e = hard_linked(s, r, &p)) < 0)
		;
	else if (ro_mount(p.obj) ||
		 (e = check_object(s, r, PROTECT_WRITE, p.obj)) == 0) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", p.obj);
		e = truncate(self, len) < 0 ? -errno : 0;
	}
	res_close(&p);
	return e;
}

static int
ifd(uint64_t v)
{
	return (int)(uint32_t)v;
}

/* truncate64 of 32-bit ABIs: the length in two registers (ARM EABI
 * aligns it to an even pair). */
static off_t
len64(const struct seccomp_data *d)
{
	const uint32_t arm = 0x40000028; /* AUDIT_ARCH_ARM */

	if (d->arch == arm)
		return (off_t)((d->args[2] & 0xffffffffu) | (d->args[3] << 32));
	return (off_t)((d->args[1] & 0xffffffffu) | (d->args[2] << 32));
}

int
emu_run(struct sup *s, struct sreq *r, int op, struct sup_answer *a)
{
	const __u64 *A = r->n->data.args;
	int e = -ENOSYS;

	memset(a, 0, sizeof(*a));
	/* emu_make takes it itself, after its lookup. */
	if (op != SUP_MKDIR && op != SUP_MKDIRAT && op != SUP_MKNOD &&
	    op != SUP_MKNODAT && op != SUP_SYMLINK && op != SUP_SYMLINKAT)
		sup_lock(s, op == SUP_RENAME || op == SUP_RENAMEAT ||
				    op == SUP_RENAMEAT2);
	switch (op) {
	case SUP_OPEN:
		e = emu_open(s, r, AT_FDCWD, A[0], ifd(A[1]), (mode_t)A[2], a);
		break;
	case SUP_OPENAT:
		e = emu_open(s, r, ifd(A[0]), A[1], ifd(A[2]), (mode_t)A[3],
			     a);
		break;
	case SUP_CREAT:
		e = emu_open(s, r, AT_FDCWD, A[0], O_CREAT | O_WRONLY | O_TRUNC,
			     (mode_t)A[1], a);
		break;
	case SUP_MKDIR:
	case SUP_MKDIRAT:
		e = op == SUP_MKDIR ?
			emu_make(s, r, PROTECT_MKDIR, AT_FDCWD, A[0],
				 (mode_t)A[1], 0, 0) :
			emu_make(s, r, PROTECT_MKDIR, ifd(A[0]), A[1],
				 (mode_t)A[2], 0, 0);
		break;
	case SUP_MKNOD:
		e = emu_make(s, r, PROTECT_MKNOD, AT_FDCWD, A[0], (mode_t)A[1],
			     (dev_t)A[2], 0);
		break;
	case SUP_MKNODAT:
		e = emu_make(s, r, PROTECT_MKNOD, ifd(A[0]), A[1],
			     (mode_t)A[2], (dev_t)A[3], 0);
		break;
	case SUP_SYMLINK:
		e = emu_make(s, r, PROTECT_SYMLINK, AT_FDCWD, A[1], 0, 0, A[0]);
		break;
	case SUP_SYMLINKAT:
		e = emu_make(s, r, PROTECT_SYMLINK, ifd(A[1]), A[2], 0, 0,
			     A[0]);
		break;
	case SUP_LINK:
		e = emu_link(s, r, AT_FDCWD, A[0], AT_FDCWD, A[1], 0);
		break;
	case SUP_LINKAT:
		e = emu_link(s, r, ifd(A[0]), A[1], ifd(A[2]), A[3],
			     ifd(A[4]));
		break;
	case SUP_RENAME:
		e = emu_rename(s, r, AT_FDCWD, A[0], AT_FDCWD, A[1], 0);
		break;
	case SUP_RENAMEAT:
	case SUP_RENAMEAT2:
		e = emu_rename(s, r, ifd(A[0]), A[1], ifd(A[2]), A[3],
			       op == SUP_RENAMEAT2 ? (unsigned)A[4] : 0);
		break;
	case SUP_TRUNCATE:
		e = emu_truncate(s, r, A[0], (off_t)A[1]);
		break;
	case SUP_TRUNCATE64:
		e = emu_truncate(s, r, A[0], len64(&r->n->data));
		break;
	default:
		e = guard_run(s, r, op);
		break;
	}
	sup_unlock(s);
	if (e >= 0 && a->is_fd)
		a->val = e;
	return e;
}
