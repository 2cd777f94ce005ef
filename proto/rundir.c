/* Default location of the per-user runtime directory and daemon socket. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto/rundir.h"

static int
fit(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int
rundir_dir(uid_t uid, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char run[64];
	struct stat st;
	int r;

	if (xdg && xdg[0] == '/' && getuid() == uid)
		return fit(snprintf(buf, len, "%s/sbx", xdg), len);
	snprintf(run, sizeof(run), "/run/user/%u", (unsigned)uid);
	if (stat(run, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid)
		return fit(snprintf(buf, len, "%s/sbx", run), len);
	r = fit(snprintf(buf, len, "/tmp/sbx-%u", (unsigned)uid), len);
	/* Anyone may take this name first: another user's (or a link) is
	 * never used, not even to look for a socket in it. */
	if (r == 0 && lstat(buf, &st) == 0 &&
	    (!S_ISDIR(st.st_mode) || st.st_uid != uid))
		return -EPERM;
	return r;
}

void
rundir_refusal(const char *dir, char *msg, size_t len)
{
	struct stat st;
	char who[64] = "a link";

	if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(who, sizeof(who), "owned by uid %u",
			 (unsigned)st.st_uid);
	snprintf(msg, len, "%s is not yours (%s): refusing to use it as the "
		 "runtime directory\nfix: set XDG_RUNTIME_DIR to a directory "
		 "of yours (mode 0700), or have root remove %s", dir, who, dir);
}

int
rundir_priv_dir(uid_t uid, char *buf, size_t len)
{
	return fit(snprintf(buf, len, RUNDIR_PRIV_ROOT "/%u", (unsigned)uid),
		   len);
}

/* A directory of root's that nobody else may write to (so nobody else can
 * have put or swapped what is in it). */
static int
roots(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == 0 && !(st.st_mode & 022);
}

int
rundir_socket(uid_t uid, char *buf, size_t len)
{
	char dir[4096];
	struct stat st;
	int r;

	/* A root daemon serving uid (sbxd --user, sbxd@UID.socket) first. */
	if (rundir_priv_dir(uid, dir, sizeof(dir)) == 0 &&
	    roots(RUNDIR_PRIV_ROOT) && roots(dir) &&
	    fit(snprintf(buf, len, "%s/" RUNDIR_SOCKET_NAME, dir), len) == 0 &&
	    lstat(buf, &st) == 0 && S_ISSOCK(st.st_mode))
		return 0;
	if ((r = rundir_dir(uid, dir, sizeof(dir))) < 0) {
		if (r == -EPERM)
			snprintf(buf, len, "%s", dir);
		return r;
	}
	return fit(snprintf(buf, len, "%s/" RUNDIR_SOCKET_NAME, dir), len);
}
