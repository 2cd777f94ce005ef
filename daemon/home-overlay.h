/* The layers of the home overlay that the daemon keeps for each workspace:
 * STATE/home/UID/<sha256 of the workspace path>/{upper,work}. Sandboxes see
 * the served user's home through an overlay whose writes land in upper/;
 * `sbxctl reset` removes the directory. */
#ifndef SBX_HOME_OVERLAY_H
#define SBX_HOME_OVERLAY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Makes (or checks) the layers of workspace ws, with upper/ owned by the
 * served user and given the mode of home, so the overlay's root looks like
 * the home. *out is the directory holding upper/ and work/. In privileged
 * mode everything above upper/ is root's, 0700: the user cannot reach the
 * layers from outside a sandbox. Where the backend has disks of a size
 * (a root daemon: sandbox_home_disk) the layers are on one of size bytes
 * (limits.home; 0: the default), DIR/fs; its size is fixed when made. */
int home_overlay_prepare(const char *ws, const char *home, uint64_t size,
			 char *out, size_t len);

/* Removes the layers of ws without following a symbolic link or leaving
 * the file system (any depth, few fds). 1: removed, 0: there were none,
 * -errno. */
int home_overlay_remove(const char *ws);

/* Removes the layers of workspaces that are gone (ws-clean.h), as named
 * by the record each layer keeps. The first call (at start-up) also
 * unmounts the layers' file systems an earlier daemon left mounted. The
 * number removed, or -errno. */
int home_overlay_clean(void);

struct home_usage {
	uint64_t used;  /* bytes the layers take */
	uint64_t size;  /* their file system's size (0: none of their own) */
	bool full;      /* that file system is full */
	char layer[PATH_MAX]; /* the workspace's directory of layers */
};

/* The layers of ws: their file system's use where they have one (cheap),
 * else the allocated blocks of upper/ and work/ (a walk, at most a
 * million entries counted, stopped once past stop bytes unless stop is
 * 0); 0 when there are none. */
void home_overlay_measure(const char *ws, uint64_t stop,
			  struct home_usage *u);
uint64_t home_overlay_usage(const char *ws);

/* limits.home where the policy sets none: a share of the state dir's
 * file system. */
uint64_t home_overlay_default_size(void);

/* A workspace whose layer a run left over limits.home (its file system
 * full, or measured over where there is none: then its next runs' home
 * is read-only). Kept for a few workspaces, until reset or a run that
 * measures it under. */
void home_overlay_set_over(const char *ws, bool over);
bool home_overlay_over(const char *ws);

#endif
