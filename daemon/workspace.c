/* Resolving workspace and cwd paths as the served user, and the per-
 * workspace private temp dirs under the daemon's runtime directory. */
#define _GNU_SOURCE
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
#include "daemon/usercred.h"
#include "daemon/workspace.h"
#include "daemon/ws-cache.h"

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

/* A spawn's temp dir as made before: checked, not made again (that cost
 * two mkdirs and a hash per spawn). */
static struct ws_cache tmpdirs;

/* path is a directory (not a symbolic link) of the served user's. */
static int
check_dir(const char *path)
{
	/* Opened, not named twice: what is checked is what is chowned. */
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int r = 0;

	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (sbxd.privileged && st.st_uid != sbxd.uid &&
		 fchown(fd, sbxd.uid, sbxd.gid) < 0)
		r = -errno;
	close(fd);
	return r;
}

static int
ensure_dir(const char *path)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	return check_dir(path);
}

int
workspace_tmpdir(const char *ws, char *out, size_t len)
{
	const char *made = ws_cache_get(&tmpdirs, ws);
	char hex[65], dir[PATH_MAX];
	int r, n;

	if (made && strlen(made) < len && check_dir(made) == 0) {
		strcpy(out, made);
		return 0;
	}
	r = crypto_sha256_hex(ws, strlen(ws), hex);
	if (r < 0)
		return r;
	n = snprintf(dir, sizeof(dir), "%s/tmp", sbxd.rundir);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	if ((r = ensure_dir(dir)) < 0)
		return r;
	n = snprintf(out, len, "%s/%.16s", dir, hex);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if ((r = ensure_dir(out)) == 0)
		ws_cache_put(&tmpdirs, ws, out);
	return r;
}
