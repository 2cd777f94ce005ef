/* A few effective policies' filesystem plans, least recently used out. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/fsplan-cache.h"

struct kept {
	struct policy *eff; /* a reference of ours; NULL: a free slot */
	char *ws, *home;
	struct fsplan *fs;
	unsigned long used;
};

static struct kept kept[FSPLAN_CACHE_SLOTS];
static unsigned long clock_;

static bool
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void
drop(struct kept *k)
{
	policy_free(k->eff);
	free(k->ws);
	free(k->home);
	fsplan_free(k->fs);
	memset(k, 0, sizeof(*k));
}

int
fsplan_cache_get(struct policy *eff, const char *workspace, const char *home,
		 const struct fsplan **out)
{
	struct kept *k = &kept[0];
	struct fsplan *fs;
	size_t i;
	int r;

	for (i = 0; i < FSPLAN_CACHE_SLOTS; i++)
		if (kept[i].eff == eff && same(kept[i].ws, workspace) &&
		    same(kept[i].home, home)) {
			kept[i].used = ++clock_;
			*out = kept[i].fs;
			return 0;
		}
	if ((r = fsplan_build(eff, workspace, home, &fs)) < 0)
		return r;
	for (i = 1; i < FSPLAN_CACHE_SLOTS; i++)
		if (kept[i].used < k->used)
			k = &kept[i];
	drop(k);
	k->ws = strdup(workspace);
	k->home = home ? strdup(home) : NULL;
	if (!k->ws || (home && !k->home)) {
		free(k->ws);
		free(k->home);
		fsplan_free(fs);
		memset(k, 0, sizeof(*k));
		return -ENOMEM;
	}
	k->eff = policy_ref(eff);
	k->fs = fs;
	k->used = ++clock_;
	*out = fs;
	return 0;
}

void
fsplan_cache_clear(void)
{
	size_t i;

	for (i = 0; i < FSPLAN_CACHE_SLOTS; i++)
		drop(&kept[i]);
}
