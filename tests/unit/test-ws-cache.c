/* Unit tests for daemon/ws-cache.c. */
#include <stdio.h>

#include "daemon/ws-cache.h"
#include "unit.h"

int
main(void)
{
	struct ws_cache c = { 0 };
	char ws[32], val[32];
	int i;

	CHECK(ws_cache_get(&c, "/a") == NULL);
	ws_cache_put(&c, "/a", "A");
	CHECK_STR(ws_cache_get(&c, "/a"), "A");
	ws_cache_put(&c, "/a", "A2"); /* replaced, not added */
	CHECK_STR(ws_cache_get(&c, "/a"), "A2");
	CHECK(ws_cache_get(&c, "/a/") == NULL); /* exact names only */
	ws_cache_drop(&c, "/a");
	CHECK(ws_cache_get(&c, "/a") == NULL);
	ws_cache_drop(&c, "/never"); /* harmless */

	/* Full: the least recently used goes, a recently read one stays. */
	for (i = 0; i < WS_CACHE_SLOTS; i++) {
		snprintf(ws, sizeof(ws), "/w%d", i);
		snprintf(val, sizeof(val), "v%d", i);
		ws_cache_put(&c, ws, val);
	}
	CHECK_STR(ws_cache_get(&c, "/w0"), "v0");
	ws_cache_put(&c, "/new", "n");
	CHECK_STR(ws_cache_get(&c, "/new"), "n");
	CHECK_STR(ws_cache_get(&c, "/w0"), "v0");
	CHECK(ws_cache_get(&c, "/w1") == NULL);
	for (i = 2; i < WS_CACHE_SLOTS; i++) {
		snprintf(ws, sizeof(ws), "/w%d", i);
		snprintf(val, sizeof(val), "v%d", i);
		CHECK_STR(ws_cache_get(&c, ws), val);
	}
	for (i = 0; i < WS_CACHE_SLOTS; i++)
		ws_cache_drop(&c, c.ws[i] ? c.ws[i] : "/none");
	for (i = 0; i < WS_CACHE_SLOTS; i++)
		CHECK(c.ws[i] == NULL && c.val[i] == NULL);
	UNIT_DONE();
}
