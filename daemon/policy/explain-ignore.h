/* Explain for ignore files: is a path masked by a .sbxignore-style file,
 * as the template's walk (linux/walk.c) would find it? */
#ifndef SBX_EXPLAIN_IGNORE_H
#define SBX_EXPLAIN_IGNORE_H

#include <limits.h>

#include "daemon/policy/policy.h"

struct explain_ignore_hit {
	char file[PATH_MAX];   /* the ignore file, absolute */
	unsigned line;
	char pattern[512];     /* the deciding line */
};

/*
 * Reads, as the served user, the ignore files (names from the policy's
 * filesystem plan) of every directory from the writable tree holding path
 * down to path's directory, and matches path as the walk does: 1 with hit
 * filled when path is masked, 0 when not (or outside every writable
 * tree), -errno; an ignore file that does not parse is -EINVAL with its
 * "file:line: reason" in hit->file.
 */
int explain_ignore(const struct policy *eff, const char *workspace,
		   const char *path, struct explain_ignore_hit *hit);

#endif
