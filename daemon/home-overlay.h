/* The layers of the home overlay that the daemon keeps for each workspace:
 * STATE/home/UID/<sha256 of the workspace path>/{upper,work}. Sandboxes see
 * the served user's home through an overlay whose writes land in upper/;
 * `sbxctl reset` removes the directory. */
#ifndef SBX_HOME_OVERLAY_H
#define SBX_HOME_OVERLAY_H

#include <stddef.h>
#include <stdint.h>

/* Makes (or checks) the layers of workspace ws, with upper/ owned by the
 * served user and given the mode of home, so the overlay's root looks like
 * the home. *out is the directory holding upper/ and work/. In privileged
 * mode everything above upper/ is root's, 0700: the user cannot reach the
 * layers from outside a sandbox. */
int home_overlay_prepare(const char *ws, const char *home, char *out,
			 size_t len);

/* Removes the layers of ws without following a symbolic link or leaving
 * the file system (any depth, few fds). 1: removed, 0: there were none,
 * -errno. */
int home_overlay_remove(const char *ws);

/* Removes the layers of workspaces that are gone (ws-clean.h), as named
 * by the record each layer keeps. The number removed, or -errno. */
int home_overlay_clean(void);

/* Bytes the layers of ws take on disk (allocated blocks of upper/ and
 * work/, at most a million entries counted); 0 when it has none. */
uint64_t home_overlay_usage(const char *ws);

#endif
