/* Each workspace's private /tmp and /var/tmp where sandboxes have mounts:
 * one size-limited tmpfs per workspace (limits.tmp), held by the daemon
 * while a session of the workspace runs and for an idle time after the
 * last one ends; then dropped with the workspace's templates, and its
 * memory freed. */
#ifndef SBX_WS_TMP_H
#define SBX_WS_TMP_H

#include <stdbool.h>
#include <stdint.h>

/* How long a workspace's /tmp outlives its last session (sbxd
 * --tmp-idle; default WS_TMP_IDLE_MS, the templates' idle time). */
#define WS_TMP_IDLE_MS (10u * 60 * 1000)
void ws_tmp_set_idle(unsigned ms);
unsigned ws_tmp_idle_ms(void);

/* The default limits.tmp: min(1 GiB, RAM / 16), at least 16 MiB. */
uint64_t ws_tmp_default_size(void);

/*
 * A session of ws starts: its tmpfs (made with size bytes when the
 * workspace has none; an existing one keeps its size until dropped) is
 * held for it; *tmp_fd and *vartmp_fd are new O_PATH fds of its tmp/ and
 * var-tmp/ directories, owned by the served user, for the sandbox to
 * clone. Returns 0 or -errno (nothing held then).
 */
int ws_tmp_acquire(const char *ws, uint64_t size, int *tmp_fd,
		   int *vartmp_fd);
/* A session of ws that acquired ended: the idle time starts with the last. */
void ws_tmp_release(const char *ws);
/* Drops ws's tmpfs now if no session holds it (sbxctl reset): 1 dropped,
 * 0 none, -EBUSY. */
int ws_tmp_drop(const char *ws);

/* Bytes in use and the limit of ws's tmpfs; false when it has none. */
bool ws_tmp_usage(const char *ws, uint64_t *used, uint64_t *limit);

/* Iterates the workspaces that have one: i from 0 until NULL. */
const char *ws_tmp_nth(unsigned i);

#endif
