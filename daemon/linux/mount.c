/* The sandbox's mount tree: read-only root, the home as an overlay,
 * writable workspace, private /tmp, its own /proc, a minimal /dev, daemon
 * state hidden. Built in place with the mount API (no helper binaries, no
 * argv limits) by the sandbox init inside a fresh user+mount+pid
 * namespace. Masks are mount-mask.c's, /proc mount-proc.c's, /dev
 * mount-dev.c's, binds of files linked outside the trees mount-links.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/landlock.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/usercred.h"


#define MAX_HOME_MOUNTS 64

/* Mounts below the home, which the overlay (whose lower layer is the
 * home's own file system) would hide: cloned before, put back on top. */
struct home_mounts {
	int fd[MAX_HOME_MOUNTS];
	char *path[MAX_HOME_MOUNTS];
	int n;
};

struct trees {
	int tmp, vartmp, tty, null;
	int dev[LMOUNT_NDEV];
	int ws[MAX_WRITE];  /* clones of the writable trees, -1: absent */
	int nws;
	int home;           /* the home overlay, detached; -1: none */
	int wsro;           /* the real workspace, when inside the home, or
			       the repository it lies in (real_top) */
	const char *wsro_path;
	char wsro_buf[4096];
	struct home_mounts sub;
};

int
lmount_clone_tree(const char *path, unsigned extra)
{
	int fd = open_tree(AT_FDCWD, path,
			   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | extra);

	return fd < 0 ? -errno : fd;
}

/* The sandbox's /tmp or /var/tmp, cloned from the directory fd the
 * daemon opened: a directory of the workspace's tmpfs (daemon/ws-tmp.c),
 * a detached mount any mount namespace may clone (Linux 6.15). Else (an
 * older kernel: sandbox_caps private_tmpfs off) a directory of the
 * daemon's runtime dir, a mount of the daemon's namespace, which cannot be
 * cloned from another (EINVAL): then it is cloned by its path, looked up
 * here, never through a final link, and must be that very directory,
 * whatever was renamed meanwhile. */
static int
clone_dir(const char *path, int fd)
{
	struct stat a, b;
	int t = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			  AT_EMPTY_PATH);

	if (t < 0 && errno == EINVAL)
		t = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE |
			      OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
	if (t < 0)
		return -errno;
	if (fstat(t, &a) < 0 || fstat(fd, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || !S_ISDIR(a.st_mode)) {
		close(t);
		return -ESTALE;
	}
	return t;
}

int
lmount_attach(int fd, const char *target)
{
	if (move_mount(fd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return -errno;
	return 0;
}

int
lmount_set_attr(int dfd, const char *path, unsigned flags, uint64_t set,
		uint64_t clr)
{
	struct mount_attr a = { .attr_set = set, .attr_clr = clr };

	if (mount_setattr(dfd, path, flags, &a, sizeof(a)) < 0)
		return -errno;
	return 0;
}

/* A fresh filesystem instance as a detached mount; opts: key, value
 * pairs ending in NULL (a NULL value sets a flag). */
int
lmount_new_fs_with(const char *type, const char *const *opts, unsigned attrs)
{
	int fs, mnt, i;

	fs = fsopen(type, FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	/* Pairs of key and value; a NULL value is a flag. */
	for (i = 0; opts && opts[i]; i += 2)
		if (fsconfig(fs, opts[i + 1] ? FSCONFIG_SET_STRING :
			     FSCONFIG_SET_FLAG, opts[i], opts[i + 1], 0) < 0)
			break;
	if ((opts && opts[i]) ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		int e = -errno;

		close(fs);
		return e;
	}
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	mnt = mnt < 0 ? -errno : mnt;
	close(fs);
	return mnt;
}

int
lmount_new_fs(const char *type, const char *mode, unsigned attrs)
{
	const char *opts[5] = { NULL };
	int n = 0;

	if (mode) {
		opts[n++] = "mode";
		opts[n++] = mode;
	}
	if (!strcmp(type, "tmpfs")) {
		opts[n++] = "size";
		opts[n++] = "4m";
	}
	return lmount_new_fs_with(type, opts, attrs);
}

int
linux_mount_overlay(int lower, int upper, int work, bool userns)
{
	static const char *const keys[3] = { "lowerdir", "upperdir",
					     "workdir" };
	int fds[3] = { lower, upper, work }, fs, mnt, i, e = 0;
	char path[32];

	fs = fsopen("overlay", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	/* Magic links name exactly the directories opened: no separator or
	 * escape in a path to get wrong, nothing looked up again. */
	for (i = 0; i < 3 && !e; i++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[i]);
		if (fsconfig(fs, FSCONFIG_SET_STRING, keys[i], path, 0) < 0)
			e = -errno;
	}
	/* index=off: a template and a -t sandbox of one workspace may mount
	 * the same upper layer at once. In a user namespace trusted.*
	 * xattrs are out of reach: user.overlay.* instead. */
	if (!e && (fsconfig(fs, FSCONFIG_SET_STRING, "index", "off", 0) < 0 ||
		   (userns && fsconfig(fs, FSCONFIG_SET_FLAG, "userxattr",
				       NULL, 0) < 0) ||
		   fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0))
		e = -errno;
	if (e) {
		close(fs);
		return e;
	}
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID |
		      MOUNT_ATTR_NODEV);
	mnt = mnt < 0 ? -errno : mnt;
	close(fs);
	return mnt;
}

static bool
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* mountinfo escapes blanks and backslashes as \ooo. */
static void
unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else
			*w++ = *s;
	}
	*w = '\0';
}

/* The tree mounted at mp, a path mountinfo names (no link in it), cloned
 * with what is below it, through no link: the user may have renamed a
 * directory on the way since and put a link in its place, which root
 * must not follow. -ELOOP then, -ENOENT when it is gone. */
static int
clone_nolink(const char *mp)
{
	return linux_userpath_clone_fd(linux_userpath_nolink(mp),
				       AT_RECURSIVE);
}

/* fd mounted at path through no link, as root (a mount below the home,
 * over the overlay, whose upper layer the user's sandboxes write). */
static int
attach_nolink(int fd, const char *path)
{
	return linux_userpath_move(fd, linux_userpath_nolink(path));
}

/* Clones every outermost mount strictly below home (recursively: the
 * ones below it come along). */
static int
take_home_mounts(const char *home, struct home_mounts *m)
{
	char line[8192], mp[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int i, r = 0;

	if (!f)
		return -errno;
	while (r == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		unescape(mp);
		if (!under(mp, home) || !strcmp(mp, home))
			continue;
		for (i = 0; i < m->n; i++)
			if (under(mp, m->path[i]))
				break;
		if (i < m->n)
			continue; /* inside one taken already */
		if (m->n == MAX_HOME_MOUNTS)
			r = -E2BIG;
		else if (!(m->path[m->n] = strdup(mp)))
			r = -ENOMEM;
		else if ((m->fd[m->n] = clone_nolink(mp)) < 0) {
			r = m->fd[m->n] == -ENOENT || m->fd[m->n] == -ELOOP ?
				    0 : m->fd[m->n];
			free(m->path[m->n]);
		} else
			m->n++;
	}
	fclose(f);
	return r;
}

/* A new overlay of the home with the workspace's layers, detached. */
static int
new_home(const struct sandbox_plan *p, const char *home)
{
	const int flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd[4] = { -1, -1, -1, -1 }; /* home, layers, upper, work */
	int i, r;

	if ((fd[0] = open(home, flags & ~O_NOFOLLOW)) >= 0 &&
	    (fd[1] = open(p->home_layers, flags)) >= 0 &&
	    (fd[2] = openat(fd[1], "upper", flags)) >= 0 &&
	    (fd[3] = openat(fd[1], "work", flags)) >= 0)
		r = linux_mount_overlay(fd[0], fd[2], fd[3], p->userns);
	else
		r = -errno;
	for (i = 0; i < 4; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return r;
}

/* What goes back over the overlay, read-only, for a workspace in the
 * home: the workspace, or the top of the git repository it lies in (a
 * package of a monorepo), so that git writing that repository's .git,
 * or anything writing the repository's other files, gets EROFS instead
 * of a copy in the home layer the host never sees. The home itself
 * (a repository of dotfiles) is not: its caches must stay writable.
 * Looked up as the user; into buf. */
static const char *
real_top(const char *ws, const char *home, char *buf, size_t size)
{
	size_t hn = strlen(home), n;
	char git[4096];
	int fd;

	if (snprintf(buf, size, "%s", ws) >= (int)size)
		return ws;
	for (n = strlen(buf); n > hn + 1; ) {
		while (n > hn && buf[n - 1] != '/')
			n--;
		if (n <= hn + 1)
			break;
		buf[--n] = '\0'; /* now the parent */
		if (snprintf(git, sizeof(git), "%s/.git", buf) <
			    (int)sizeof(git) &&
		    (fd = linux_userpath_open(git, O_PATH, 0)) >= 0) {
			close(fd);
			return buf;
		}
	}
	return ws;
}

/* The home overlay, detached, and what must go back over it: the mounts
 * below the home and the real workspace (or the repository it is in). */
static int
take_home(const struct sandbox_plan *p, struct trees *t)
{
	const char *home = fsplan_home(p->fs);
	int r;

	if (!home)
		return 0;
	if (!p->home_layers)
		return -EINVAL;
	/* The one a template of the workspace mounted, so that one overlay
	 * holds the upper layer (linux/homeshare.c); a new one when none was
	 * asked for, or the template has none or is gone. */
	r = p->home_from >= 0 ? linux_homeshare_recv(p->home_from) : -ENOENT;
	if (r == -ENOENT || r == -EIO)
		r = new_home(p, home);
	if (r < 0)
		return r;
	t->home = r;
	linux_homeshare_keep(r);
	/* The workspace is never shadowed by the overlay: what allowWrite
	 * leaves out of it stays the real thing, read-only. */
	if (under(p->workspace, home)) {
		t->wsro_path = real_top(p->workspace, home, t->wsro_buf,
					sizeof(t->wsro_buf));
		if ((t->wsro = linux_userpath_clone(t->wsro_path,
						    AT_RECURSIVE)) < 0)
			return t->wsro;
	}
	return take_home_mounts(home, &t->sub);
}

/* Whether writable tree k of w, cloned as ws, is below another of w
 * through a symlink there (or not the tree reached without one): a
 * sandbox can put a link at a writable path that did not exist yet (or
 * that it removed), and binding it would make its target writable to
 * the next sandbox, with nothing but Landlock, where there is one, in the
 * way. Such a tree is left out, as an absent one. */
static bool
linked_below(const struct fsplan_list *w, size_t k, int ws)
{
	const char *const *rw = (const char *const *)w->v;
	struct stat a, b;
	int fd;

	if (!landlock_writable_above(rw, w->v[k]))
		return false;
	fd = landlock_open_writable(rw, w->v[k]);
	if (fd < 0)
		return true;
	if (fstat(fd, &a) < 0 || fstat(ws, &b) < 0)
		a.st_ino = b.st_ino + 1;
	close(fd);
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

static int
take_trees(const struct sandbox_plan *p, struct trees *t)
{
	struct stat a, b;
	size_t i;

	const struct fsplan_list *w = &p->fs->l[FSPLAN_WRITE];
	size_t k;

	if (w->n > MAX_WRITE)
		return -E2BIG;
	/* As the user: a tree the user cannot reach by its name (another
	 * user's, behind the user's link) is left out like an absent one,
	 * as the command could not reach it there either. */
	for (k = 0; k < w->n; k++) {
		t->ws[k] = linux_userpath_clone(w->v[k], AT_RECURSIVE);
		if (t->ws[k] >= 0 && linked_below(w, k, t->ws[k])) {
			close(t->ws[k]);
			t->ws[k] = -ENOENT;
		}
		if (t->ws[k] < 0 && t->ws[k] != -ENOENT &&
		    t->ws[k] != -EACCES && t->ws[k] != -ENOTDIR)
			return t->ws[k];
	}
	t->nws = (int)w->n;
	t->tmp = clone_dir(p->tmpdir, p->tmp_fd);
	t->null = lmount_clone_tree("/dev/null", 0);
	if (t->tmp < 0 || t->null < 0)
		return t->tmp < 0 ? t->tmp : t->null;
	if (p->vartmpdir &&
	    (t->vartmp = clone_dir(p->vartmpdir, p->vartmp_fd)) < 0)
		return t->vartmp;
	for (i = 0; i < LMOUNT_NDEV; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/%s", lmount_dev_nodes[i]);
		t->dev[i] = lmount_clone_tree(path, 0);
		if (t->dev[i] < 0)
			return t->dev[i];
	}
	t->tty = -1;
	if (p->tty_path) {
		/* The slave must be the very inode the client gave us. */
		t->tty = lmount_clone_tree(p->tty_path, 0);
		if (t->tty < 0)
			return t->tty;
		if (fstat(t->tty, &a) < 0 || fstat(p->stdio[0], &b) < 0)
			return -errno;
		if (a.st_rdev != b.st_rdev || a.st_ino != b.st_ino)
			return -EXDEV;
	}
	return 0;
}

static int
build_masks(const struct sandbox_plan *p, const struct trees *t)
{
	int i, fd, r;

	for (i = 0; i < p->nmasks; i++) {
		fd = lmount_new_fs("tmpfs", "0000", MOUNT_ATTR_RDONLY |
				MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				MOUNT_ATTR_NOEXEC);
		if (fd < 0)
			return fd;
		r = lmount_attach(fd, p->masks[i]);
		close(fd);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	if (p->socket_mask) {
		r = lmount_attach(t->null, p->socket_mask);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	return 0;
}

/* A tree cloned before the root went read-only goes back, read-only
 * (user: at a path of the user's, linux_userpath_attach). */
static int
attach_read_only(int fd, const char *path, bool user)
{
	int r = lmount_set_attr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE,
			 MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
			 MOUNT_ATTR_NODEV, 0);

	if (r == 0)
		r = user ? linux_userpath_attach(fd, path, false) :
			   attach_nolink(fd, path);
	/* Gone from the overlay's view (removed, or replaced by a link, in
	 * an earlier run): then there is nothing to see there. */
	return r == -ENOENT || r == -ELOOP ? 0 : r;
}

/* The private /tmp and /var/tmp, before anything the daemon mounts by a
 * host path: one under them (a home or a writable tree in /tmp) is made
 * in them, as the user. A /var/tmp the host lacks, or has as a link
 * (into /tmp, private already), gets none. */
static int
mount_tmp(const struct trees *t)
{
	int r = lmount_set_attr(t->tmp, "", AT_EMPTY_PATH,
			 MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0);

	if (r < 0 || (r = lmount_attach(t->tmp, "/tmp")) < 0 || t->vartmp < 0)
		return r;
	r = lmount_set_attr(t->vartmp, "", AT_EMPTY_PATH,
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0);
	if (r == 0)
		r = attach_nolink(t->vartmp, "/var/tmp");
	return r == -ENOENT || r == -ELOOP ? 0 : r;
}

/* The overlay over the home, then the mounts it hid and the workspace,
 * read-only; writable trees and masks come on top later. The home is
 * reached as the user, and its mount point made so when the private /tmp
 * lacks it. */
static int
mount_home(const struct sandbox_plan *p, struct trees *t)
{
	int i, r;

	if (t->home < 0)
		return 0;
	if ((r = linux_userpath_attach(t->home, fsplan_home(p->fs), true)) < 0)
		return r;
	for (i = 0; i < t->sub.n; i++)
		if ((r = attach_read_only(t->sub.fd[i], t->sub.path[i],
					  false)) < 0)
			return r;
	if (t->wsro >= 0)
		return attach_read_only(t->wsro, t->wsro_path, true);
	return 0;
}

/* Each writable tree goes back over its name, writable (it was cloned
 * before the root went read-only), where the user's links cannot move
 * it; a mount point the sandbox lacks (under its own /tmp) is made as the
 * user, never as root. */
static int
mount_writable(const struct sandbox_plan *p, const struct trees *t)
{
	const struct fsplan_list *w = &p->fs->l[FSPLAN_WRITE];
	int k, r;

	for (k = 0; k < t->nws; k++) {
		if (t->ws[k] < 0)
			continue; /* allowWrite names something absent */
		r = lmount_set_attr(t->ws[k], "", AT_EMPTY_PATH | AT_RECURSIVE,
			     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0);
		if (r < 0)
			return r;
		r = linux_userpath_attach(t->ws[k], w->v[k], true);
		if (r < 0)
			return r;
	}
	return 0;
}

/* path bound onto itself, with what is mounted below it (masks) and the
 * attributes attrs: resolved once, so what is cloned is what the bind
 * covers, whatever a running sandbox renames meanwhile. 0 when path is
 * gone. user: a path of the user's, the caller holding the user's
 * credentials (linux_userpath_policy); else one of the daemon's. */
int
lmount_bind_self_as(const char *path, uint64_t attrs, bool user, unsigned rec)
{
	int t = user ? linux_userpath_policy(path, 0) :
		       open(path, O_PATH | O_CLOEXEC), fd, r = 0;

	if (t < 0 && !user)
		t = -errno;
	if (t < 0)
		return t == -ENOENT ? 0 : t;
	fd = open_tree(t, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			      AT_EMPTY_PATH | rec);
	if (fd < 0)
		r = -errno;
	if (r == 0 && attrs)
		r = lmount_set_attr(fd, "", AT_EMPTY_PATH | rec, attrs, 0);
	if (r == 0)
		r = linux_userpath_move(fd, t); /* closes t */
	else
		close(t);
	if (fd >= 0)
		close(fd);
	return r;
}

int
lmount_bind_self(const char *path, uint64_t attrs, bool user)
{
	return lmount_bind_self_as(path, attrs, user, AT_RECURSIVE);
}

/* A path goes read-only by a read-only bind of itself. */
int
linux_mount_read_only(const char *path)
{
	return lmount_bind_self(path, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				       MOUNT_ATTR_NODEV, true);
}

static int
mask_file(const char *path)
{
	return linux_mount_mask_as(path, false);
}

static int
mask_dir(const char *path)
{
	return linux_mount_mask_as(path, true);
}

static int
apply_list(const struct fsplan_list *l, int (*fn)(const char *))
{
	size_t i;
	int r;

	for (i = 0; i < l->n; i++)
		if ((r = fn(l->v[i])) < 0)
			return r;
	return 0;
}

/* A directory holding protected entries (.git for config and hooks) is
 * bound onto itself: a mount point cannot be renamed or removed, so
 * moving .git aside cannot carry the protection away or free the name. */
static int
pin_parent(const char *path)
{
	static const char *const pinned[] = { "/.git/config", "/.git/hooks" };
	char dir[4096];
	size_t i, n = strlen(path);

	for (i = 0; i < 2; i++) {
		size_t k = strlen(pinned[i]);

		if (n > k && n < sizeof(dir) && !strcmp(path + n - k, pinned[i]))
			break;
	}
	if (i == 2)
		return 0;
	memcpy(dir, path, n + 1);
	*strrchr(dir, '/') = '\0';
	/* With what is mounted below it (masks): a bind of the directory
	 * alone would uncover what they hide. */
	return lmount_bind_self(dir, 0, true);
}

/* Read-only paths first, then masks: a mask inside a protected tree must
 * still cover its path. (Masks already mounted below a read-only path are
 * cloned into its bind.) */
int
linux_mount_apply(const struct walk_result *w)
{
	int r;

	if ((r = apply_list(&w->ro, pin_parent)) == 0 &&
	    (r = apply_list(&w->ro, linux_mount_read_only)) == 0 &&
	    (r = apply_list(&w->ro_links, lmount_read_only_file)) == 0 &&
	    (r = apply_list(&w->deny_dirs, mask_dir)) == 0)
		r = apply_list(&w->deny, mask_file);
	return r;
}

static int
apply_policy(const struct sandbox_plan *p, const struct walk_watch *watch,
	     struct walk_state **keep)
{
	struct walk_watch hooks = { 0 };
	struct linux_masker m;
	struct walk_state *st = NULL;
	struct walk_result w;
	int r, e = 0;

	if (watch)
		hooks = *watch;
	if ((r = apply_list(&p->fs->l[FSPLAN_READ_ONLY],
			    linux_mount_read_only)) < 0 ||
	    (r = apply_list(&p->fs->l[FSPLAN_DENY_READ], linux_mount_mask)) < 0)
		return r;
	/* The masks go to a masker as the walk decides them (without one,
	 * to the result, mounted after the walk). */
	if (linux_masker_start(&m) == 0) {
		hooks.mask = linux_masker_send;
		hooks.mask_arg = &m;
	}
	r = linux_walk(p->fs, &hooks, &st, &w);
	if (hooks.mask && (e = linux_masker_finish(&m, r == 0)) < 0 &&
	    r == 0) {
		linux_walk_result_free(&w);
		linux_walk_state_free(st);
		return e;
	}
	if (r < 0) /* the masker's own error, when the walk met its end */
		return r == -EPIPE && e < 0 ? e : r;
	/* The read-only binds after the masks: they clone what is below
	 * them, masks included. */
	r = lmount_read_only_links(&p->fs->l[FSPLAN_WRITE], &w.ro_links);
	fsplan_list_free(&w.ro_links);
	if (r == 0)
		r = linux_mount_apply(&w);
	linux_walk_result_free(&w);
	if (r == 0 && keep)
		*keep = st;
	else
		linux_walk_state_free(st);
	return r;
}

int
linux_mount_build(const struct sandbox_plan *p, int *err,
		  const struct walk_watch *watch, struct walk_state **keep)
{
	struct trees t;
	int r, fd;

	memset(&t, -1, sizeof(t));
	t.nws = 0;
	t.sub.n = 0;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return *err = errno, STEP_MOUNT_PRIVATE;
	if ((r = take_home(p, &t)) < 0)
		return *err = -r, STEP_MOUNT_HOME;
	if ((r = take_trees(p, &t)) < 0)
		return *err = -r, STEP_MOUNT_CLONE;
	r = lmount_set_attr(AT_FDCWD, "/", AT_RECURSIVE, MOUNT_ATTR_RDONLY |
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0);
	if (r < 0)
		return *err = -r, STEP_MOUNT_READONLY;
	if ((r = mount_tmp(&t)) < 0)
		return *err = -r, STEP_MOUNT_TMP;
	if ((r = mount_home(p, &t)) < 0)
		return *err = -r, STEP_MOUNT_HOME;
	if ((r = mount_writable(p, &t)) < 0)
		return *err = -r, STEP_MOUNT_WORKSPACE;
	if ((r = lmount_proc(-1)) < 0)
		return *err = -r, STEP_MOUNT_PROC;
	/* sysfs shows the network namespace of whoever mounted it: a fresh
	 * one lists only the sandbox's loopback, not the host's devices.
	 * Without a network namespace of its own the sandbox may not mount
	 * one (user mode), and would see the host's network anyway: the
	 * host's /sys stays, read-only like the rest of the root. */
	if (p->net == SANDBOX_NET_NAMESPACE) {
		fd = lmount_new_fs("sysfs", NULL, MOUNT_ATTR_RDONLY |
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			    MOUNT_ATTR_NOEXEC);
		if (fd < 0 || (r = lmount_attach(fd, "/sys")) < 0)
			return *err = fd < 0 ? -fd : -r, STEP_MOUNT_SYS;
		close(fd);
	}
	if ((r = lmount_build_dev(p, t.dev, t.tty, keep != NULL)) < 0)
		return *err = -r, STEP_MOUNT_DEV;
	/* Captured, the JVM's own connections reach the proxy: no
	 * proxy properties needed. */
	if (p->net == SANDBOX_NET_NAMESPACE && !p->capture)
		lmount_java(p);
	if (p->ca_pem)
		lmount_ca(p->ca_pem);
	if (p->ca_jks)
		lmount_ca_java(p->ca_jks, p->ca_jks_len);
	/* The policy's paths and the workspace's walk (its ignore files,
	 * the masks and read-only binds, and the masker it starts) with the
	 * user's file-system rights. */
	usercred_enter();
	r = apply_policy(p, watch, keep);
	usercred_leave();
	if (r < 0)
		return *err = -r, STEP_MOUNT_POLICY;
	if ((r = build_masks(p, &t)) < 0)
		return *err = -r, STEP_MOUNT_MASK;
	return 0;
}
