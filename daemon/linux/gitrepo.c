/* Where git goes from a .git in a workspace: the repository it names (a
 * .git directory itself, a symlink's target, a .git file's "gitdir:")
 * and that repository's common directory (its commondir file), where git
 * reads config and hooks; only what git itself would take for a
 * repository (is_git_directory: HEAD, and objects and refs in the common
 * directory). The template's first walk makes those read-only when the
 * name rules do not guard them and the command could write them
 * (protect_git_repo): a repository kept under another name, which a .git
 * made before the template leads git to. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/policy/gitfile.h"
#include "daemon/linux/walk.h"
#include "daemon/linux/supervise.h"

/* The canonical directory the small file at path names (prefix: its
 * format, relative to dir), into out. Looked at before it is opened (the
 * caller holds the user's rights, and git follows links there too): only
 * a regular file is read, never a device or a FIFO. */
static bool
named_dir(const char *path, const char *prefix, const char *dir, char *out)
{
	char joined[PATH_MAX];
	int p = open(path, O_PATH | O_CLOEXEC), fd = -1;
	struct stat st;
	void *map = MAP_FAILED;
	bool ok = false;

	if (p < 0)
		return false;
	if (fstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size <= GITFILE_MAX)
		fd = res_reopen(p, O_RDONLY | O_NONBLOCK);
	close(p);
	/* Mapped, not read: git reads past any length of trailing
	 * newlines, and so must we. (Its size again: the reopened inode is
	 * the one looked at, but it may have grown.) */
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (unsigned long long)st.st_size <= GITFILE_MAX)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			   fd, 0);
	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED)
		return false;
	ok = gitfile_path(map, (size_t)st.st_size, prefix, dir, joined,
			  sizeof(joined)) == 0 &&
	     realpath(joined, out) && stat(out, &st) == 0 &&
	     S_ISDIR(st.st_mode);
	munmap(map, (size_t)st.st_size);
	return ok;
}

static bool
has(const char *dir, const char *name, bool want_dir)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (want_dir)
		return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	return lstat(path, &st) == 0 &&
	       (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
}

int
linux_git_repos(const char *abs, char out[2][PATH_MAX])
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	const char *common;
	struct stat st;
	char *slash;
	int n = 1;

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
	if (named_dir(path, "", out[0], out[1]) && strcmp(out[0], out[1]))
		n = 2;
	common = out[n - 1];
	if (!has(out[0], "HEAD", false) || !has(common, "objects", true) ||
	    !has(common, "refs", true))
		return 0; /* git would not take it for a repository */
	return n;
}
