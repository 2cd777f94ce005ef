/* git's small path files, read as git reads them: a .git that is a file
 * ("gitdir: PATH", the repository git uses in that directory) and a
 * repository's commondir (PATH, where its config and hooks are). Pure. */
#ifndef SBX_GITFILE_H
#define SBX_GITFILE_H

#include <stddef.h>

/* Larger files are not read. git writes one line, but reads a .git file
 * of up to 1 MiB and a commondir of any size, dropping trailing newlines
 * (a short path padded with them is still that path). */
#define GITFILE_MAX (64u << 20)

/* The path buf names after prefix ("gitdir: " for a .git file, "" for a
 * commondir), trailing CRs and LFs dropped, joined to dir when relative,
 * in out: 0, or -EINVAL (another format, no path), -ENAMETOOLONG. A NUL
 * ends the path, as it does for git. */
int gitfile_path(const char *buf, size_t len, const char *prefix,
		 const char *dir, char *out, size_t outlen);

/* path (len bytes) joined to dir (absolute, canonical) into out, read
 * strictly: absolute, or relative with only "../" leading it; no ".",
 * "..", empty component or control character elsewhere (a ".." after a
 * name could climb out of a symlink that this lexical reading would not
 * see, and a "/" at the end). 0, -EINVAL or -ENAMETOOLONG. */
int gitfile_join(const char *path, size_t len, const char *dir, char *out,
		 size_t outlen);

/*
 * A .git file a sandbox writes in a directory it made (a submodule's work
 * tree, git clone --separate-git-dir, connect_work_tree_and_git_dir):
 * what git writes and nothing else, "gitdir: PATH\n" in one line, PATH
 * naming a submodule's repository, TOP/.git/modules/NAME (NAME: one or
 * more plain components), read by gitfile_join against dir. The
 * gitdir into gitdir, TOP/.git into git (both outlen bytes): 0, or
 * -EINVAL, -ENAMETOOLONG. Whether TOP/.git is a real directory the run
 * made is the caller's to check.
 */
int gitfile_submodule(const char *buf, size_t len, const char *dir,
		      char *gitdir, char *git, size_t outlen);

#endif
