/* Workspace paths: resolving what a client asked for, and the private
 * per-workspace temp dir the daemon keeps for it. */
#ifndef SBX_WORKSPACE_H
#define SBX_WORKSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Canonical absolute path of an existing directory, resolved with the
 * served user's file permissions (privileged mode). "/" is refused as a
 * workspace by the caller, not here. */
int workspace_resolve(const char *in, char *out, size_t len);

/* rundir/tmp/<hash of workspace>, created 0700 and owned by the user; its
 * path in out and, when fd_out is not NULL, the directory opened there
 * (what a sandbox mounts: the path is for messages and Landlock-only
 * mode, where the user owns the runtime dir anyway). */
int workspace_tmpdir(const char *ws, char *out, size_t len, int *fd_out);
/* The same, rundir/var-tmp/<hash>: the sandbox's /var/tmp. */
int workspace_vartmpdir(const char *ws, char *out, size_t len, int *fd_out);

/* Removes the temp dirs nothing will use again (ws-clean.h): the number
 * removed. */
int workspace_tmpdir_clean(void);

#endif
