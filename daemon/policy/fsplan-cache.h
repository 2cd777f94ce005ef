/* Filesystem plans kept for the effective policies they came from: the
 * policy store hands the same merged policy back while no layer of a
 * workspace changed, so its plan is built once, not on every spawn. */
#ifndef SBX_FSPLAN_CACHE_H
#define SBX_FSPLAN_CACHE_H

#include "daemon/policy/fsplan.h"
#include "daemon/policy/policy.h"

#define FSPLAN_CACHE_SLOTS 4

/* The plan of eff for workspace (home: as fsplan_build), built or kept.
 * It belongs to the cache (which holds a reference on eff, so eff is not
 * freed and its address not reused while kept) and stays valid until the
 * next call. */
int fsplan_cache_get(struct policy *eff, const char *workspace,
		     const char *home, const struct fsplan **out);
/* Drops every kept plan. */
void fsplan_cache_clear(void);

#endif
