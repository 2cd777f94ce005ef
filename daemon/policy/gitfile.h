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

#endif
