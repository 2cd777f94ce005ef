/* What the daemon made on disk for a workspace, remembered: a few
 * recently used workspaces, each with one string (a directory path), so a
 * spawn checks the directory is still there instead of making it again.
 * Pure bookkeeping; the callers check the disk. */
#ifndef SBX_WS_CACHE_H
#define SBX_WS_CACHE_H

#define WS_CACHE_SLOTS 8

struct ws_cache {
	char *ws[WS_CACHE_SLOTS];
	char *val[WS_CACHE_SLOTS];
	unsigned long used[WS_CACHE_SLOTS];
	unsigned long clock;
};

/* The value kept for ws, or NULL. */
const char *ws_cache_get(struct ws_cache *c, const char *ws);
/* Keeps val for ws (copies both; the least recently used goes when all
 * slots are taken). Out of memory only forgets. */
void ws_cache_put(struct ws_cache *c, const char *ws, const char *val);
/* Forgets ws. */
void ws_cache_drop(struct ws_cache *c, const char *ws);

#endif
