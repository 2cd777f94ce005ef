/* Where git goes from a .git in a workspace: the repository it names (a
 * .git directory itself, a symlink's target, a .git file's "gitdir:")
 * and that repository's common directory (its commondir file), where git
 * reads config and hooks. The walk makes those read-only as a whole when
 * the name rules do not guard them and the command could write them
 * (protect_git_repo_guarded): a repository kept under another name, which
 * a .git made before the template leads git to. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/gitfile.h"
#include "daemon/linux-walk.h"

/* The canonical directory the small file at path names (prefix: its
 * format, relative to dir), into out. Never blocks on a FIFO. */
static bool
named_dir(const char *path, const char *prefix, const char *dir, char *out)
{
	char buf[GITFILE_MAX + 1], joined[PATH_MAX];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n = -1;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size <= GITFILE_MAX)
		n = read(fd, buf, sizeof(buf));
	close(fd);
	return n >= 0 &&
	       gitfile_path(buf, (size_t)n, prefix, dir, joined,
			    sizeof(joined)) == 0 &&
	       realpath(joined, out) && stat(out, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

int
linux_git_repos(const char *abs, char out[2][PATH_MAX])
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat st;
	char *slash;

	if (stat(abs, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		if (!realpath(abs, out[0]))
			return 0;
	} else if (S_ISREG(st.st_mode)) {
		/* Relative to where the .git is, as git reads it. */
		if (snprintf(dir, sizeof(dir), "%s", abs) >= (int)sizeof(dir) ||
		    !(slash = strrchr(dir, '/')))
			return 0;
		if (slash == dir)
			slash++; /* "/.git": the root */
		*slash = '\0';
		if (!named_dir(abs, "gitdir: ", dir, out[0]))
			return 0;
	} else
		return 0;
	snprintf(path, sizeof(path), "%s/commondir", out[0]);
	return named_dir(path, "", out[0], out[1]) && strcmp(out[0], out[1]) ?
		       2 : 1;
}
