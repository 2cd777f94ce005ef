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

	if (xdg && xdg[0] == '/' && getuid() == uid)
		return fit(snprintf(buf, len, "%s/sbx", xdg), len);
	snprintf(run, sizeof(run), "/run/user/%u", (unsigned)uid);
	if (stat(run, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid)
		return fit(snprintf(buf, len, "%s/sbx", run), len);
	return fit(snprintf(buf, len, "/tmp/sbx-%u", (unsigned)uid), len);
}

int
rundir_socket(uid_t uid, char *buf, size_t len)
{
	char dir[4096];
	int r = rundir_dir(uid, dir, sizeof(dir));

	if (r < 0)
		return r;
	return fit(snprintf(buf, len, "%s/" RUNDIR_SOCKET_NAME, dir), len);
}
