/* The per-workspace state of workspaces that no longer exist (home layers
 * in the state dir, temp dirs in the runtime dir), removed at start-up and
 * daily; and the record that names a state directory's workspace (its
 * name is a hash). */
#ifndef SBX_WS_CLEAN_H
#define SBX_WS_CLEAN_H

#include <stdbool.h>
#include <stddef.h>

/* Writes ws into file name of dfd, a directory of the daemon's own, unless
 * it is there already. 0 or -errno. */
int ws_record_write(int dfd, const char *name, const char *ws);
/* Reads it back: an absolute path. 0, or -errno (-EINVAL: not a record). */
int ws_record_read(int dfd, const char *name, char *buf, size_t len);

/* Whether ws is gone for good: no directory there (as the user sees it)
 * and nothing of the daemon using it. */
bool ws_clean_gone(const char *ws);

/* Cleans now, then every day from the event loop. */
void ws_clean_start(void);

#endif
