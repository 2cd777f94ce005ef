/* The home overlay's per-workspace layers on disk: made with their owners
 * and modes checked at each step (openat, no symbolic link followed), and
 * removed the same way (rmtree.h). */
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
#include <sys/statvfs.h>
#include <unistd.h>

#include "daemon/admin-file.h"
#include "daemon/crypto.h"
#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/rmtree.h"
#include "daemon/sandbox.h"
#include "daemon/ws-cache.h"
#include "daemon/ws-clean.h"

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
/* Workspaces whose layer a run left over limits.home, where nothing
 * else enforces it: their next runs get a read-only home. */
static struct ws_cache over;

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

/* The directory that holds upper/ and work/ in the workspace's directory
 * dfd: the file system of size bytes mounted on its fs/ where the backend
 * has one (sandbox_home_disk), else dfd itself. An fd, or -errno. */
static int
layers_dir(int dfd, uint64_t size)
{
	int r;

	if (!sandbox_caps()->home_disk)
		return (r = fcntl(dfd, F_DUPFD_CLOEXEC, 3)) < 0 ? -errno : r;
	if ((r = sandbox_home_disk(dfd, size ? size :
				   home_overlay_default_size())) < 0)
		return r;
	/* The file system's root is root's (mkfs.ext4 root_owner). */
	return open_sub(dfd, "fs", geteuid(), getegid());
}

int
home_overlay_prepare(const char *ws, const char *home, uint64_t size,
		     char *out, size_t len)
{
	/* base, hash, layers, upper, work */
	int fd[5] = { -1, -1, -1, -1, -1 };
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
	    (r = fd[2] = layers_dir(fd[1], size)) >= 0 &&
	    (r = fd[3] = open_sub(fd[2], "upper", sbxd.uid, sbxd.gid)) >= 0 &&
	    (r = fd[4] = open_sub(fd[2], "work", geteuid(), getegid())) >= 0)
		/* The overlay's root shows upper/'s mode: the home's. */
		r = fchmod(fd[3], hs.st_mode & 0777) < 0 ? -errno : 0;
	/* Which workspace this is, for cleaning when it is gone. */
	if (r == 0)
		r = ws_record_write(fd[1], "workspace", ws);
	if (r == 0) {
		n = snprintf(out, len, "%s/home/%u/%s%s", sbxd.statedir,
			     (unsigned)sbxd.uid, hex,
			     sandbox_caps()->home_disk ? "/fs" : "");
		if (n < 0 || (size_t)n >= len)
			r = -ENAMETOOLONG;
	}
	for (i = 0; i < 5; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	if (r == 0)
		ws_cache_put(&made, ws, out);
	return r;
}

int
home_overlay_remove(const char *ws)
{
	char hex[65], gone[80];
	int base, r;

	ws_cache_drop(&made, ws);
	ws_cache_drop(&over, ws);
	if ((r = hash_name(ws, hex)) < 0)
		return r;
	base = open_base(false);
	if (base == -ENOENT)
		return 0;
	if (base < 0)
		return base;
	/* Its file system unmounted first (templates that still hold it
	 * let go as they end): the removal stays on the state's. */
	if ((r = openat(base, hex, DIR_FLAGS)) >= 0) {
		int d = r;

		r = sandbox_home_disk_drop(d);
		close(d);
		if (r < 0) {
			close(base);
			return r;
		}
	}
	/* Out of the way first, so a failure half-way leaves nothing a run
	 * would take up again; an earlier failure's remains go too. */
	snprintf(gone, sizeof(gone), ".reset-%s", hex);
	if ((r = rmtree_at(base, gone)) == 0) {
		if (renameat(base, hex, base, gone) < 0)
			r = errno == ENOENT ? 0 : -errno;
		else if ((r = rmtree_at(base, gone)) == 0)
			r = 1;
	}
	close(base);
	return r;
}

#define BLIND (UINT64_MAX / 2)

/* The blocks below dfd (closed here), each directory opened from its
 * parent's fd without following a link: a running sandbox renames in the
 * layer, and in privileged mode this walk is root's. One file system, at
 * most a million entries and 128 levels (past them, or a directory it
 * cannot open, counts as BLIND: over any limit); stopped once past stop
 * bytes (0: never). */

static void
usage_at(int dfd, dev_t dev, int depth, bool strict, uint64_t stop,
	 uint64_t *bytes, unsigned long *n)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	/* What the walk cannot see counts as over any limit: the sandbox
	 * could hide its writes there (a directory of mode 0, deep nesting,
	 * many names). */
	if (depth > 128 || !(d = fdopendir(dfd))) {
		close(dfd);
		if (strict)
			*bytes = BLIND;
		return;
	}
	while ((!stop || *bytes <= stop) && (de = readdir(d))) {
		if (*n >= 1000000) {
			*bytes = BLIND;
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		*bytes += (uint64_t)st.st_blocks * 512;
		++*n;
		if (!S_ISDIR(st.st_mode) || st.st_dev != dev)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		/* The overlay's work/ holds its own mode-0 directory; the
		 * sandbox writes only to upper/. */
		if (fd >= 0)
			usage_at(fd, dev, depth + 1, strict && (depth > 0 ||
				 strcmp(de->d_name, "work") != 0), stop, bytes,
				 n);
		else if (errno != ENOENT && strict)
			*bytes = BLIND;
	}
	closedir(d);
}

/* The file system mounted on dfd's fs/ (the layers' own), measured: its
 * size is the image's (the limit it was made with). */
static bool
disk_usage(int dfd, struct home_usage *u)
{
	struct statvfs vs;
	struct stat d, f, img;
	bool ok;
	int fd = openat(dfd, "fs", DIR_FLAGS);

	if (fd < 0)
		return false;
	ok = fstat(dfd, &d) == 0 && fstat(fd, &f) == 0 &&
	     d.st_dev != f.st_dev && fstatvfs(fd, &vs) == 0 &&
	     fstatat(dfd, "home.img", &img, AT_SYMLINK_NOFOLLOW) == 0;
	close(fd);
	if (!ok)
		return false;
	u->used = (uint64_t)(vs.f_blocks - vs.f_bfree) * vs.f_frsize;
	u->size = (uint64_t)img.st_size;
	/* Full: what is left (after ext4's reserved clusters, in f_bavail)
	 * is less than a writer's buffer (256K) or 1/64 of the size. */
	u->full = vs.f_bavail < vs.f_blocks / 64 ||
		  (uint64_t)vs.f_bavail * vs.f_frsize < 256 << 10 ||
		  vs.f_favail == 0;
	return true;
}

void
home_overlay_measure(const char *ws, uint64_t stop, struct home_usage *u)
{
	char hex[65], path[PATH_MAX];
	unsigned long n = 0;
	uint64_t bytes = 0;
	struct stat st;
	int fd;

	memset(u, 0, sizeof(*u));
	if (hash_name(ws, hex) < 0)
		return;
	snprintf(path, sizeof(path), "%s/home/%u/%s", sbxd.statedir,
		 (unsigned)sbxd.uid, hex);
	snprintf(u->layer, sizeof(u->layer), "%s", path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (disk_usage(fd, u) || fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	usage_at(fd, st.st_dev, 0, true, stop, &bytes, &n);
	u->used = bytes + (uint64_t)st.st_blocks * 512;
}

uint64_t
home_overlay_usage(const char *ws)
{
	struct home_usage u;

	home_overlay_measure(ws, 0, &u);
	return u.used;
}

/* Of the state dir's file system an eighth, at most 8 GiB, at least the
 * smallest ext4 that holds a journal-less layer (1 MiB). */
uint64_t
home_overlay_default_size(void)
{
	static uint64_t v;
	struct statvfs vs;

	if (v) /* looked at once: the state's file system keeps its size */
		return v;
	v = 8ULL << 30;
	if (statvfs(sbxd.statedir, &vs) == 0 &&
	    (uint64_t)vs.f_blocks * vs.f_frsize / 8 < v)
		v = (uint64_t)vs.f_blocks * vs.f_frsize / 8;
	if (v < (1 << 20))
		v = 1 << 20;
	return v;
}

void
home_overlay_set_over(const char *ws, bool is_over)
{
	if (is_over)
		ws_cache_put(&over, ws, "over");
	else
		ws_cache_drop(&over, ws);
}

bool
home_overlay_over(const char *ws)
{
	return ws_cache_get(&over, ws) != NULL;
}

int
home_overlay_clean(void)
{
	static bool started;
	char ws[PATH_MAX], hex[65];
	struct dirent *de;
	int base, fd, n = 0;
	DIR *d;

	if ((base = open_base(false)) < 0)
		return base == -ENOENT ? 0 : base;
	if ((fd = dup(base)) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		close(base);
		return -errno;
	}
	while ((de = readdir(d))) {
		int dfd = openat(base, de->d_name, DIR_FLAGS);
		int r;

		if (dfd < 0)
			continue;
		/* At start-up: a file system an earlier daemon killed
		 * outright left mounted goes (a run mounts it again), so
		 * this one's exit leaves none. */
		if (!started && de->d_name[0] != '.')
			sandbox_home_disk_drop(dfd);
		r = ws_record_read(dfd, "workspace", ws, sizeof(ws));
		close(dfd);
		/* Only the layer its record names: a hash of that path. */
		if (r < 0 || hash_name(ws, hex) < 0 ||
		    strcmp(hex, de->d_name) || !ws_clean_gone(ws))
			continue;
		if (home_overlay_remove(ws) > 0)
			n++;
	}
	closedir(d);
	close(base);
	started = true;
	return n;
}
