/* Resolving workspace and cwd paths as the served user, and the per-
 * workspace private temp dirs under the daemon's runtime directory. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/crypto.h"
#include "daemon/daemon.h"
#include "daemon/rmtree.h"
#include "daemon/sandbox.h"
#include "daemon/usercred.h"
#include "daemon/workspace.h"
#include "daemon/ws-cache.h"
#include "daemon/ws-clean.h"

int
workspace_resolve(const char *in, char *out, size_t len)
{
	char buf[PATH_MAX];
	struct stat st;
	int r = 0;

	/* A root daemon must not let a user name a directory only root can
	 * reach: resolve with the user's file permissions. */
	usercred_enter();
	if (!realpath(in, buf) || stat(buf, &st) < 0)
		r = -errno;
	else if (!S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	usercred_leave();
	if (r < 0)
		return r;
	if (strlen(buf) >= len)
		return -ENAMETOOLONG;
	strcpy(out, buf);
	return 0;
}

/* A workspace's temp dir name (a hash of the workspace), remembered for
 * the few recent workspaces: one hash fewer per spawn. */
static struct ws_cache names;
/* rundir/tmp and rundir/var-tmp (the sandboxes' /tmp and /var/tmp),
 * opened once: every temp dir is made and opened from them. */
static const char *const parents[2] = { "tmp", "var-tmp" };
static int parent_fd[2] = { -1, -1 };

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* rundir/tmp or var-tmp: the daemon's own (root's in privileged mode),
 * 0700, so the user can neither reach nor swap what is in it from the
 * host. */
static int
open_parent(int which)
{
	struct stat st;
	int fd;

	if (parent_fd[which] >= 0)
		return parent_fd[which];
	if (mkdirat(sbxd.rundir_fd, parents[which], 0700) < 0 &&
	    errno != EEXIST)
		return -errno;
	fd = openat(sbxd.rundir_fd, parents[which], DIR_FLAGS);
	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		return -EPERM;
	}
	return parent_fd[which] = fd;
}

/* name in the parent, the user's: made here and given to the user, or
 * made so before. The daemon chowns only what it has just made, in a
 * directory nobody else can write to. */
static int
open_leaf(int dfd, const char *name)
{
	struct stat st;
	int made, fd, tries;

	for (tries = 0; tries < 2; tries++) {
		/* Opened first: per spawn it is there already (one syscall
		 * fewer). */
		made = 0;
		fd = openat(dfd, name, DIR_FLAGS);
		if (fd < 0 && errno == ENOENT) {
			made = mkdirat(dfd, name, 0700) == 0;
			if (!made && errno != EEXIST)
				return -errno;
			fd = openat(dfd, name, DIR_FLAGS);
		}
		if (fd < 0)
			return errno == ELOOP ? -ENOTDIR : -errno;
		if (made && sbxd.privileged && fchown(fd, sbxd.uid, sbxd.gid) < 0)
			break;
		if (fstat(fd, &st) < 0)
			break;
		if (st.st_uid == sbxd.uid)
			return fd;
		/* Made, not given (a daemon killed in between): made again,
		 * if empty; never chowned as found. */
		close(fd);
		if (unlinkat(dfd, name, AT_REMOVEDIR) < 0)
			return -EPERM;
	}
	if (tries < 2) {
		int e = -errno;

		close(fd);
		return e;
	}
	return -EPERM;
}

/* NAME.ws beside the dir, in the daemon's own directory (the dir itself is
 * the user's): which workspace it serves, for cleaning. */
static void
record(int dfd, const char *name, const char *ws)
{
	char rec[80];

	snprintf(rec, sizeof(rec), "%s.ws", name);
	ws_record_write(dfd, rec, ws);
}

static int
tmpdir_in(int which, const char *ws, char *out, size_t len, int *fd_out)
{
	const char *name = ws_cache_get(&names, ws);
	char hex[65];
	int dfd, fd, r, n;

	if (!name) {
		if ((r = crypto_sha256_hex(ws, strlen(ws), hex)) < 0)
			return r;
		hex[16] = '\0';
		name = hex;
	}
	n = snprintf(out, len, "%s/%s/%s", sbxd.rundir, parents[which], name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if ((dfd = open_parent(which)) < 0)
		return dfd;
	if ((fd = open_leaf(dfd, name)) < 0)
		return fd;
	if (name == hex)
		record(dfd, name, ws);
	if (name == hex)
		ws_cache_put(&names, ws, hex);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return 0;
}

int
workspace_tmpdir(const char *ws, char *out, size_t len, int *fd_out)
{
	return tmpdir_in(0, ws, out, len, fd_out);
}

int
workspace_vartmpdir(const char *ws, char *out, size_t len, int *fd_out)
{
	return tmpdir_in(1, ws, out, len, fd_out);
}

/* Whether entry name of a parent goes: where /tmp is a tmpfs, every one
 * (an older daemon's or a Landlock-only run's); else the dirs (and
 * records) of workspaces that are gone. */
static bool
stale(int dfd, const char *name, bool all)
{
	char ws[PATH_MAX], rec[80];
	size_t n = strlen(name);

	if (all)
		return true;
	if (n > 3 && !strcmp(name + n - 3, ".ws"))
		snprintf(rec, sizeof(rec), "%s", name);
	else
		snprintf(rec, sizeof(rec), "%s.ws", name);
	return ws_record_read(dfd, rec, ws, sizeof(ws)) == 0 &&
	       ws_clean_gone(ws);
}

int
workspace_tmpdir_clean(void)
{
	bool all = sandbox_caps()->private_tmpfs;
	struct dirent *de;
	int which, dfd, fd, n = 0;
	DIR *d;

	for (which = 0; which < 2; which++) {
		if ((dfd = open_parent(which)) < 0 || (fd = dup(dfd)) < 0)
			continue;
		if (!(d = fdopendir(fd))) {
			close(fd);
			continue;
		}
		/* Records last: a dir's record is read before it goes. */
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || strstr(de->d_name, ".ws") ||
			    !stale(dfd, de->d_name, all))
				continue;
			if (rmtree_at(dfd, de->d_name) == 0)
				n++;
		}
		rewinddir(d);
		while ((de = readdir(d)))
			if (strstr(de->d_name, ".ws") &&
			    (all || stale(dfd, de->d_name, false)))
				unlinkat(dfd, de->d_name, 0);
		closedir(d);
	}
	return n;
}
