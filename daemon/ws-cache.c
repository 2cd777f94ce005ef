/* A few workspaces' prepared directories, least recently used out. */
#include <stdlib.h>
#include <string.h>

#include "daemon/ws-cache.h"

static int
slot(const struct ws_cache *c, const char *ws)
{
	int i;

	for (i = 0; i < WS_CACHE_SLOTS; i++)
		if (c->ws[i] && !strcmp(c->ws[i], ws))
			return i;
	return -1;
}

const char *
ws_cache_get(struct ws_cache *c, const char *ws)
{
	int i = slot(c, ws);

	if (i < 0)
		return NULL;
	c->used[i] = ++c->clock;
	return c->val[i];
}

void
ws_cache_drop(struct ws_cache *c, const char *ws)
{
	int i = slot(c, ws);

	if (i < 0)
		return;
	free(c->ws[i]);
	free(c->val[i]);
	c->ws[i] = c->val[i] = NULL;
	c->used[i] = 0;
}

void
ws_cache_put(struct ws_cache *c, const char *ws, const char *val)
{
	int i = slot(c, ws), j;

	if (i < 0) {
		for (i = 0, j = 1; j < WS_CACHE_SLOTS; j++)
			if (c->used[j] < c->used[i])
				i = j;
	}
	free(c->ws[i]);
	free(c->val[i]);
	c->ws[i] = strdup(ws);
	c->val[i] = strdup(val);
	if (!c->ws[i] || !c->val[i]) {
		free(c->ws[i]);
		free(c->val[i]);
		c->ws[i] = c->val[i] = NULL;
		c->used[i] = 0;
		return;
	}
	c->used[i] = ++c->clock;
}
