/* The home overlay's per-workspace layers on disk: made with their owners
 * and modes checked at each step (openat, no symbolic link followed), and
 * removed the same way, iteratively, so a tree of any depth made inside a
 * sandbox neither exhausts the daemon's stack nor its fds. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/admin-file.h"
#include "daemon/crypto.h"
#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/ws-cache.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* STATE/home/UID, made as mkdir -p would (the daemon's umask is 077), and
 * opened if owned by root or the daemon and writable by nobody else. */
static int
open_base(bool create)
{
	char path[PATH_MAX], *s;
	int n;

	n = snprintf(path, sizeof(path), "%s/home/%u", sbxd.statedir,
		     (unsigned)sbxd.uid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	for (s = strchr(path + 1, '/'); create && s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (create && mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	return admin_dir_open(path, geteuid());
}

/* Directory name in dfd, made if missing, owned by owner, not a symbolic
 * link. Returns its fd. A root daemon chowns only what it has just made
 * (in its own 0700 directory): one found with another owner is refused. */
static int
open_sub(int dfd, const char *name, uid_t owner, gid_t group)
{
	struct stat st;
	bool made;
	int fd;

	made = mkdirat(dfd, name, 0700) == 0;
	if (!made && errno != EEXIST)
		return -errno;
	fd = openat(dfd, name, DIR_FLAGS);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 ||
	    (made && st.st_uid != owner && geteuid() == 0 &&
	     fchown(fd, owner, group) < 0)) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (st.st_uid != owner && !(made && geteuid() == 0)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static int
hash_name(const char *ws, char hex[65])
{
	return crypto_sha256_hex(ws, strlen(ws), hex);
}

/* Layers made before: checked, not made again (a hash, three mkdirs,
 * four opens per spawn). The directories above upper/ are the daemon's
 * (0700, root's in privileged mode), so the two below are what can
 * change: removed, replaced, or the home's mode changed. */
static struct ws_cache made;

static bool
still_made(const char *dir, const struct stat *hs)
{
	struct stat up, wk;
	int fd = open(dir, DIR_FLAGS);
	bool ok;

	if (fd < 0)
		return false;
	ok = fstatat(fd, "upper", &up, AT_SYMLINK_NOFOLLOW) == 0 &&
	     fstatat(fd, "work", &wk, AT_SYMLINK_NOFOLLOW) == 0 &&
	     S_ISDIR(up.st_mode) && S_ISDIR(wk.st_mode) &&
	     up.st_uid == sbxd.uid && wk.st_uid == geteuid() &&
	     (up.st_mode & 0777) == (hs->st_mode & 0777);
	close(fd);
	return ok;
}

int
home_overlay_prepare(const char *ws, const char *home, char *out, size_t len)
{
	int fd[4] = { -1, -1, -1, -1 }; /* base, hash, upper, work */
	const char *dir = ws_cache_get(&made, ws);
	char hex[65];
	struct stat hs;
	int i, r, n;

	if (stat(home, &hs) < 0)
		return -errno;
	if (dir && strlen(dir) < len && still_made(dir, &hs)) {
		strcpy(out, dir);
		return 0;
	}
	if ((r = hash_name(ws, hex)) < 0)
		return r;
	/* Above upper/ everything is the daemon's: in privileged mode the
	 * user cannot reach (or swap) the layers from the host. */
	if ((r = fd[0] = open_base(true)) >= 0 &&
	    (r = fd[1] = open_sub(fd[0], hex, geteuid(), getegid())) >= 0 &&
	    (r = fd[2] = open_sub(fd[1], "upper", sbxd.uid, sbxd.gid)) >= 0 &&
	    (r = fd[3] = open_sub(fd[1], "work", geteuid(), getegid())) >= 0)
		/* The overlay's root shows upper/'s mode: the home's. */
		r = fchmod(fd[2], hs.st_mode & 0777) < 0 ? -errno : 0;
	if (r == 0) {
		n = snprintf(out, len, "%s/home/%u/%s", sbxd.statedir,
			     (unsigned)sbxd.uid, hex);
		if (n < 0 || (size_t)n >= len)
			r = -ENAMETOOLONG;
	}
	for (i = 0; i < 4; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	if (r == 0)
		ws_cache_put(&made, ws, out);
	return r;
}

/* Unlinks every entry of dfd that is not a directory; *sub is the name of
 * a directory still in it (malloc'd), or NULL when it holds none. */
static int
clear_files(int dfd, dev_t dev, char **sub)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, r = 0;

	*sub = NULL;
	fd = openat(dfd, ".", DIR_FLAGS);
	if (fd < 0 || !(d = fdopendir(fd))) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return r;
	}
	while (r == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = errno == ENOENT ? 0 : -errno;
		else if (!S_ISDIR(st.st_mode))
			r = unlinkat(dfd, de->d_name, 0) < 0 ? -errno : 0;
		else if (st.st_dev != dev)
			r = -EXDEV; /* a mount inside: not ours to empty */
		else if (!*sub && !(*sub = strdup(de->d_name)))
			r = -ENOMEM;
	}
	closedir(d);
	if (r < 0) {
		free(*sub);
		*sub = NULL;
	}
	return r;
}

struct frame {
	char *name;        /* of the directory entered, in its parent */
	dev_t pdev;        /* the parent, to recognise it again */
	ino_t pino;
};

/* Empties and removes directory name of base, depth-first, holding one
 * directory fd at a time; ".." is checked against the inode it came from. */
static int
remove_tree(int base, const char *name)
{
	struct frame *stack = NULL, *ns;
	size_t depth = 0, cap = 0;
	struct stat st, pst;
	char *sub;
	int cur, next, r;

	cur = openat(base, name, DIR_FLAGS);
	if (cur < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(cur, &st) < 0) {
		r = -errno;
		goto out;
	}
	fchmod(cur, 0700);
	for (;;) {
		if ((r = clear_files(cur, st.st_dev, &sub)) < 0)
			goto out;
		if (sub) {
			if (depth == cap) {
				cap = cap ? cap * 2 : 64;
				ns = realloc(stack, cap * sizeof(*stack));
				if (!ns) {
					free(sub);
					r = -ENOMEM;
					goto out;
				}
				stack = ns;
			}
			/* Made read-only in a sandbox, or by overlayfs
			 * (work/work is mode 000): still ours to empty. */
			/* (if this fails, openat says why) */
			r = fchmodat(cur, sub, 0700, AT_SYMLINK_NOFOLLOW);
			if (fstat(cur, &pst) < 0 ||
			    (next = openat(cur, sub, DIR_FLAGS)) < 0) {
				r = -errno;
				free(sub);
				goto out;
			}
			stack[depth++] = (struct frame){ sub, pst.st_dev,
							 pst.st_ino };
			close(cur);
			cur = next;
			continue;
		}
		if (depth == 0)
			break;
		next = openat(cur, "..", DIR_FLAGS);
		depth--;
		if (next < 0 || fstat(next, &pst) < 0 ||
		    pst.st_dev != stack[depth].pdev ||
		    pst.st_ino != stack[depth].pino) {
			r = next < 0 ? -errno : -ESTALE;
			if (next >= 0)
				close(next);
			free(stack[depth].name);
			goto out;
		}
		close(cur);
		cur = next;
		r = unlinkat(cur, stack[depth].name, AT_REMOVEDIR) < 0 ?
			    -errno : 0;
		free(stack[depth].name);
		if (r < 0)
			goto out;
	}
	close(cur);
	cur = -1;
	r = unlinkat(base, name, AT_REMOVEDIR) < 0 ? -errno : 0;
out:
	if (cur >= 0)
		close(cur);
	while (depth > 0)
		free(stack[--depth].name);
	free(stack);
	return r;
}

int
home_overlay_remove(const char *ws)
{
	char hex[65], gone[80];
	int base, r;

	ws_cache_drop(&made, ws);
	if ((r = hash_name(ws, hex)) < 0)
		return r;
	base = open_base(false);
	if (base == -ENOENT)
		return 0;
	if (base < 0)
		return base;
	/* Out of the way first, so a failure half-way leaves nothing a run
	 * would take up again; an earlier failure's remains go too. */
	snprintf(gone, sizeof(gone), ".reset-%s", hex);
	if ((r = remove_tree(base, gone)) == 0) {
		if (renameat(base, hex, base, gone) < 0)
			r = errno == ENOENT ? 0 : -errno;
		else if ((r = remove_tree(base, gone)) == 0)
			r = 1;
	}
	close(base);
	return r;
}
