/* Path resolution for the supervisor, as the command's own syscall would
 * resolve it: the path is read once from the command's memory, and walked
 * from its cwd, its dirfd or / (plain directories in one lookup, the rest
 * one component at a time), following
 * symlinks like the kernel (at most 40), with /proc/self meaning the
 * command and /proc magic links followed by the kernel for the command's
 * /proc entry. What it yields (a directory fd and a name) is what the
 * supervisor then changes: no second lookup of the string. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"

#define MAX_LINKS 40

int
res_read_string(struct sreq *r, uint64_t addr, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	/* Page by page: the string may end just before unmapped memory. */
	while (got < len) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		struct iovec local, remote;

		if (chunk > len - got)
			chunk = len - got;
		local = (struct iovec){ buf + got, chunk };
		remote = (struct iovec){ (void *)(uintptr_t)(addr + got),
					 chunk };
		n = process_vm_readv(r->tid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			/* EPERM: the command made itself non-dumpable,
			 * and its memory is closed to us too. */
			return n < 0 && (errno == EPERM || errno == ESRCH) ?
				       -errno : -EFAULT;
		if (memchr(buf + got, '\0', (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -ENAMETOOLONG;
}

int
res_proc_read(pid_t tid, const char *name, char *buf, size_t len)
{
	char p[64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/%s", (int)tid, name);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

int
res_status(pid_t tid, mode_t *umask_out, pid_t *tgid)
{
	char buf[4096], *l;
	unsigned long v;
	int e;

	if ((e = res_proc_read(tid, "status", buf, sizeof(buf))) < 0)
		return e;
	if (umask_out) {
		if (!(l = strstr(buf, "\nUmask:")) ||
		    sscanf(l + 7, "%lo", &v) != 1)
			return -EIO;
		*umask_out = (mode_t)(v & 0777);
	}
	if (tgid) {
		if (!(l = strstr(buf, "\nTgid:")) ||
		    sscanf(l + 6, "%lu", &v) != 1)
			return -EIO;
		*tgid = (pid_t)v;
	}
	return 0;
}

int
res_tid_pidfd(const struct sup *s, pid_t tid)
{
	unsigned i;

	for (i = 0; i < s->numasks; i++)
		if (s->umasks[i].tid == tid)
			return s->umasks[i].pidfd;
	return -1;
}

int
res_base(struct sup *s, struct sreq *r, int dirfd, const char *path)
{
	char p[64];
	int fd;

	if (path[0] == '/')
		fd = fcntl(s->root, F_DUPFD_CLOEXEC, 3);
	else if (dirfd == AT_FDCWD) {
		snprintf(p, sizeof(p), "/proc/%d/cwd", (int)r->tid);
		fd = open(p, O_PATH | O_CLOEXEC);
	} else if (dirfd < 0)
		return -EBADF;
	else if ((fd = res_tid_pidfd(s, r->tid)) < 0 ||
		 (fd = (int)syscall(SYS_pidfd_getfd, fd, dirfd, 0)) < 0) {
		/* The command's file itself, when a pidfd of the thread
		 * is at hand (a third of the cost of /proc's lookup; a
		 * gone thread's fails): the same directory to walk. */
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", (int)r->tid, dirfd);
		fd = open(p, O_PATH | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			return -EBADF;
	}
	if (fd < 0)
		return -errno;
	/* The command is still waiting, so TID still names it: what was
	 * read from its memory and /proc entry was its own. */
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &r->n->id) < 0) {
		close(fd);
		return -ESRCH;
	}
	return fd; /* not a directory: the walk's first lookup says ENOTDIR */
}

int
res_fd_path(int fd, char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	char p[64];
	ssize_t n;
	size_t k = sizeof(deleted) - 1;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	n = readlink(p, buf, len);
	if (n < 0)
		return -errno;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	if ((size_t)n > k && !strcmp(buf + n - k, deleted))
		buf[n - k] = '\0';
	return buf[0] == '/' ? 0 : 1; /* 1: a pipe, socket, ... */
}

int
res_reopen(int fd, int flags)
{
	char p[64];
	int r;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	r = open(p, (flags & ~O_NOFOLLOW) | O_CLOEXEC | O_NOCTTY);
	return r < 0 ? -errno : r;
}

bool
res_is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") ||
	       !strcmp(name, "./") || !strcmp(name, "../");
}

void
res_close(struct rpath *p)
{
	if (p->parent >= 0)
		close(p->parent);
	if (p->obj >= 0)
		close(p->obj);
	p->parent = p->obj = -1;
}

static bool
on_proc(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* A walk's current directory: -1 before the first step of an absolute
 * path, which starts at s->root without a copy of it. */
static void
drop(int cur)
{
	if (cur >= 0)
		close(cur);
}

static int
replace(int *cur, int fd)
{
	if (fd < 0)
		return -errno;
	drop(*cur);
	*cur = fd;
	return 0;
}

/* Rewrites buf from p on: head, then rest. */
static int
splice_link(char *buf, size_t cap, const char **p, const char *head,
	    const char *rest)
{
	char tmp[PATH_MAX * 2];
	int n = snprintf(tmp, sizeof(tmp), "%s%s%s", head,
			 *rest ? "/" : "", rest);

	if (n < 0 || (size_t)n >= cap || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(buf, tmp, (size_t)n + 1);
	*p = buf;
	return 0;
}

/* p->abs from the parent's path dir and p->name. */
static int
abs_in(struct rpath *p, const char *dir)
{
	size_t len = strlen(p->name);
	int r;

	if (len && p->name[len - 1] == '/')
		len--;
	r = snprintf(p->abs, sizeof(p->abs), "%s%s%.*s", dir,
		     strcmp(dir, "/") && len ? "/" : "", (int)len, p->name);
	return r < 0 || (size_t)r >= sizeof(p->abs) ? -ENAMETOOLONG : 0;
}

int
res_abs(struct rpath *p)
{
	char dir[PATH_MAX];
	int r;

	if ((r = res_fd_path(p->parent, dir, sizeof(dir))) != 0)
		return r < 0 ? r : -ENOENT;
	return abs_in(p, dir);
}

/* The walk's result, without its path when that is the caller's to take
 * (res_abs); out->st is obj's already. dir: the parent's path when the
 * walk knows it (walk_prefix), else NULL: asked of the parent itself. */
static int
finish_statted(int cur, int obj, const char *comp, size_t len, bool slash,
	       bool abs, const char *dir, struct rpath *out)
{
	out->parent = cur;
	out->obj = obj;
	out->abs[0] = '\0';
	snprintf(out->name, sizeof(out->name), "%.*s%s", (int)len, comp,
		 slash ? "/" : "");
	if (!abs)
		return 0;
	return dir ? abs_in(out, dir) : res_abs(out);
}

static int
finish(int cur, int obj, const char *comp, size_t len, bool slash,
       const char *dir, struct rpath *out)
{
	if (obj >= 0 && fstat(obj, &out->st) < 0) {
		out->parent = cur;
		out->obj = obj;
		return -errno;
	}
	return finish_statted(cur, obj, comp, len, slash, true, dir, out);
}

/* The last id of a status line "KEY:\t<id>\t<id>...": the one in the
 * task's own pid namespace. */
static long
own_ns_id(const char *status, const char *key)
{
	const char *l = strstr(status, key), *e;
	long v = -1;

	if (!l)
		return -1;
	for (l += strlen(key), e = l + strcspn(l, "\n"); l < e; l++)
		if (l[-1] == '\t' || l[-1] == ' ')
			v = strtol(l, NULL, 10);
	return v;
}

/* /proc/self and /proc/thread-self name the command, not us, by its ids
 * in its own pid namespace: the walk goes through the command's /proc,
 * which shows that namespace (a template's supervisor is outside it). */
static int
proc_self(struct sreq *r, size_t len, char *out, size_t cap)
{
	char buf[4096];
	long tgid, tid;
	int e;

	if ((e = res_proc_read(r->tid, "status", buf, sizeof(buf))) < 0)
		return e;
	tgid = own_ns_id(buf, "\nNStgid:");
	tid = own_ns_id(buf, "\nNSpid:");
	if (tgid <= 0 || tid <= 0)
		return -EIO;
	if (len == 4)
		snprintf(out, cap, "%ld", tgid);
	else
		snprintf(out, cap, "%ld/task/%ld", tgid, tid);
	return 0;
}

static bool
has_dotdot(const char *path, size_t len)
{
	const char *c = path, *end = path + len;
	size_t n;

	for (; c < end; c += n + 1) {
		n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return true;
	}
	return false;
}

/* The path of the directory an absolute path's directories name, from
 * the command's root: "/" and its components but empty ones and ".",
 * into dir. False for a name with "~" or a trailing dot or space (below),
 * and when any byte is not ASCII: a case-insensitive file
 * system folds more than the rules' ASCII folding, so the name the
 * command wrote is not the name the rules must see, and the directory's
 * own (res_abs) is asked instead. */
static bool
lexical_dir(const char *path, size_t len, char *dir, size_t cap)
{
	const char *c = path, *end = path + len;
	size_t n, at = 0;

	for (; c < end; c += n + 1) {
		n = strcspn(c, "/");
		if (c + n > end)
			n = (size_t)(end - c);
		if (n == 0 || (n == 1 && c[0] == '.'))
			continue;
		/* FAT-family file systems reach a directory by other
		 * spellings too: an 8.3 alias ("GIT~1" for ".git") and a
		 * name with trailing dots or spaces stripped (".git."):
		 * such a name is not the directory's, which is asked. */
		if (memchr(c, '~', n) || c[n - 1] == '.' || c[n - 1] == ' ')
			return false;
		if (at + n + 2 > cap)
			return false;
		dir[at++] = '/';
		memcpy(dir + at, c, n);
		at += n;
	}
	for (c = path; c < end; c++)
		if ((unsigned char)*c >= 0x80)
			return false;
	if (at == 0)
		dir[at++] = '/';
	dir[at] = '\0';
	return true;
}

/* The directories before the last component in one lookup when they are
 * plain ones (most paths a build makes files at): openat2 refuses every
 * symlink on the way (so /proc/self and magic links too), and a path with
 * ".." is left to the walk, which stops it at the command's root rather
 * than ours. What the lookup refuses is walked one component at a time
 * from the start, as before, for the kernel's own error or the link's
 * target: this saves three syscalls per directory, never a check.
 * true: *cur is the last component's directory, *p that component; for
 * an absolute path *dir is then that directory's path (or NULL):
 * reached from the command's root by these very names, with no symlink
 * and no "..", it is the path the directory has, which needs no
 * readlink of the fd to learn. Where the walk runs under sup_lock (every
 * call but mkdir's unlocked lookup, which asks res_abs under the lock),
 * no other sandbox renames a directory between this lookup and the
 * change, as for the readlink it saves; a rename outside every sandbox
 * races with both alike. */
static bool
walk_prefix(struct sup *s, int *cur, const char **p, char *dir, size_t cap,
	    const char **known)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *q = *p, *end, *last;
	size_t len;
	int fd;

	while (*q == '/')
		q++;
	for (end = q + strlen(q); end > q && end[-1] == '/'; end--)
		;
	for (last = end; last > q && last[-1] != '/'; last--)
		;
	len = (size_t)(last - q);
	if (len == 0 || len >= cap || has_dotdot(q, len))
		return false;
	memcpy(dir, q, len);
	dir[len] = '\0';
	fd = (int)syscall(SYS_openat2, **p == '/' ? s->root : *cur, dir, &how,
			  sizeof(how));
	if (fd < 0)
		return false;
	*known = **p == '/' && lexical_dir(q, len, dir, cap) ? dir : NULL;
	drop(*cur);
	*cur = fd;
	*p = last;
	return true;
}

/* For a name to be made: whether the whole path names something already
 * (a symlink last too), reached without a symlink, a magic link or
 * "..": the kernel's EEXIST, in one lookup instead of the directories'
 * and the name's (npm ci makes a mkdir of every directory above every
 * file). Anything else (absent, a symlink on the way, "..") is the
 * walk's to tell. */
static bool
exists_plainly(struct sup *s, int cur, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *q = path;
	int fd;

	while (*q == '/')
		q++;
	if (!*q || has_dotdot(q, strlen(q)))
		return false;
	fd = (int)syscall(SYS_openat2, *path == '/' ? s->root : cur, q, &how,
			  sizeof(how));
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* What the walk does with the last name: looks it up; or (ABSENT) ends
 * with EEXIST and nothing open when it exists: no fstat, and no path of
 * the parent for the rules, which is the caller's to take (res_abs) when
 * it is absent; or (PARENT) leaves it unlooked-at (out->obj -1,
 * out->st unset) when it is a plain name, else fails with EAGAIN. */
enum { LAST_LOOKUP, LAST_ABSENT, LAST_PARENT };

static int
walk(struct sup *s, struct sreq *r, int base, const char *path, bool follow,
     int mode, struct rpath *out)
{
	char buf[PATH_MAX * 2], link[PATH_MAX + 1], comp[NAME_MAX + 1];
	char dir[PATH_MAX];
	const char *p = buf, *rest, *known = NULL;
	int cur, fd, links = 0, e;
	size_t len;
	bool last, slash;
	ssize_t n;

	out->parent = out->obj = -1;
	cur = base;
	if (strlen(path) >= sizeof(buf)) {
		drop(cur);
		return -ENAMETOOLONG;
	}
	strcpy(buf, path);
	if (mode == LAST_ABSENT && exists_plainly(s, cur, buf)) {
		drop(cur);
		return -EEXIST;
	}
	walk_prefix(s, &cur, &p, dir, sizeof(dir), &known);
	/* What walk_prefix knows of the directory holds until the walk
	 * moves on (a link followed, a step taken). */
	for (;; known = NULL) {
		if (*p == '/' && (e = replace(&cur, fcntl(s->root,
							   F_DUPFD_CLOEXEC,
							   3))) < 0)
			goto fail;
		while (*p == '/')
			p++;
		if (!*p) /* "/" or "": the directory itself */
			return finish(cur, fcntl(cur, F_DUPFD_CLOEXEC, 3), "",
				      0, false, known, out);
		len = strcspn(p, "/");
		if (len > NAME_MAX) {
			e = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		for (rest = p + len, slash = false; *rest == '/'; rest++)
			slash = true;
		last = !*rest;
		if (last && mode == LAST_PARENT) {
			if (slash || res_is_dot(comp)) {
				e = -EAGAIN;
				goto fail;
			}
			return finish_statted(cur, -1, comp, len, false, true,
					      known, out);
		}
		if (last && !follow) {
			/* A name being made, renamed or removed: never
			 * followed; a trailing slash stays in the name for
			 * the kernel to judge (ENOTDIR, EISDIR). */
			fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && errno != ENOENT) {
				e = -errno;
				goto fail;
			}
			if (fd >= 0 && mode == LAST_ABSENT) {
				close(fd);
				e = -EEXIST;
				goto fail;
			}
			if (mode == LAST_ABSENT)
				return finish_statted(cur, -1, comp, len,
						      slash, false, NULL, out);
			return finish(cur, fd, comp, len, slash, known, out);
		}
		if ((len == 4 && !memcmp(comp, "self", 4)) ||
		    (len == 11 && !memcmp(comp, "thread-self", 11))) {
			if (on_proc(cur)) {
				if ((e = proc_self(r, len, link,
						   sizeof(link))) < 0 ||
				    (e = splice_link(buf, sizeof(buf), &p, link,
						     rest)) < 0)
					goto fail;
				continue;
			}
		}
		fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT && last)
				return finish(cur, -1, comp, len, slash, known,
					      out);
			e = -errno;
			goto fail;
		}
		if (fstat(fd, &out->st) < 0) {
			e = -errno;
			close(fd);
			goto fail;
		}
		if (S_ISLNK(out->st.st_mode) && on_proc(cur)) {
			/* A /proc magic link of the command's own entry:
			 * the kernel follows it to the command's file. */
			close(fd);
			fd = openat(cur, comp, O_PATH | O_CLOEXEC);
			if (fd < 0) {
				e = -errno;
				goto fail;
			}
			if (last)
				return finish(cur, fd, comp, len, slash, known,
					      out);
			if ((e = replace(&cur, fd)) < 0)
				goto fail;
			p = rest;
			continue;
		}
		if (S_ISLNK(out->st.st_mode)) {
			if (++links > MAX_LINKS) {
				close(fd);
				e = -ELOOP;
				goto fail;
			}
			n = readlinkat(fd, "", link, sizeof(link) - 1);
			close(fd);
			if (n < 0 || n == 0) {
				e = n < 0 ? -errno : -ENOENT;
				goto fail;
			}
			link[n] = '\0';
			/* A symlink last with a slash after it stays last
			 * with the slash. */
			if ((e = splice_link(buf, sizeof(buf), &p, link,
					slash && last ? "" : rest)) < 0)
				goto fail;
			if (slash && last && strlen(buf) + 1 < sizeof(buf))
				strcat(buf, "/");
			continue;
		}
		if (last)
			return finish_statted(cur, fd, comp, len, slash, true,
					      known, out);
		if (!S_ISDIR(out->st.st_mode)) {
			close(fd);
			e = -ENOTDIR;
			goto fail;
		}
		replace(&cur, fd);
		p = rest;
	}
fail:
	drop(cur);
	out->parent = -1;
	return e;
}

int
res_walk(struct sup *s, struct sreq *r, int base, const char *path,
	 bool follow, struct rpath *out)
{
	return walk(s, r, base, path, follow, LAST_LOOKUP, out);
}

static int
path_at(struct sup *s, struct sreq *r, int dirfd, uint64_t addr, bool follow,
	int mode, struct rpath *out)
{
	char path[PATH_MAX];
	int base, e;

	out->parent = out->obj = -1;
	if ((e = res_read_string(r, addr, path, sizeof(path))) < 0)
		return e;
	if (!path[0])
		return -ENOENT;
	/* An absolute path starts at s->root itself (base -1): only what
	 * was read from the command's memory needs the validity check. */
	if (path[0] == '/' &&
	    ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &r->n->id) < 0)
		return -ESRCH;
	if (path[0] == '/')
		base = -1;
	else if ((base = res_base(s, r, dirfd, path)) < 0)
		return base;
	if ((e = walk(s, r, base, path, follow, mode, out)) < 0)
		res_close(out);
	return e;
}

int
res_path(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	 bool follow, struct rpath *out)
{
	return path_at(s, r, dirfd, addr, follow, LAST_LOOKUP, out);
}

int
res_path_new(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	     struct rpath *out)
{
	return path_at(s, r, dirfd, addr, false, LAST_ABSENT, out);
}

int
res_path_parent(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
		struct rpath *out)
{
	return path_at(s, r, dirfd, addr, false, LAST_PARENT, out);
}

int
res_object(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	   bool empty_path, bool follow, struct rpath *out)
{
	char path[PATH_MAX];
	int base, e;

	out->parent = out->obj = -1;
	if ((e = res_read_string(r, addr, path, sizeof(path))) < 0)
		return e;
	if (!path[0] && !empty_path)
		return -ENOENT;
	if ((base = res_base(s, r, dirfd, path)) < 0)
		return base;
	if (!path[0]) {
		out->obj = base;
		e = fstat(base, &out->st) < 0 ? -errno : 0;
	} else if ((e = res_walk(s, r, base, path, follow, out)) == 0 &&
		   out->obj < 0)
		e = -ENOENT;
	if (e < 0)
		res_close(out);
	return e;
}
