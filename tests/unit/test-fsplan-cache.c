/* Unit tests for daemon/policy/fsplan-cache.c: a plan is built once per
 * (effective policy, workspace, home), is the one fsplan_build makes, and
 * a kept policy stays alive after its owner dropped it. */
#include <string.h>

#include "daemon/policy/fsplan-cache.h"
#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "unit.h"

static struct policy *
effective(const char *user)
{
	struct policy_diags d = { 0 };
	struct policy *u = NULL, *eff = NULL;

	CHECK_INT(parse_as(user, POLICY_LAYER_USER, &u, &d), 0);
	CHECK_INT(policy_merge((const struct policy *const *)&u, 1, HOME,
	    &eff, &d), 0);
	policy_free(u);
	policy_diag_free(&d);
	return eff;
}

int
main(void)
{
	struct policy *a = effective("{\"filesystem\": {\"allowWrite\": [\".\"]}}");
	struct policy *b = effective("{\"filesystem\": {\"allowWrite\": [\".\"], "
				     "\"denyRead\": [\"/srv\"]}}");
	const struct fsplan *p1, *p2, *p3, *p4, *p5;
	struct policy *more[FSPLAN_CACHE_SLOTS];
	struct fsplan *direct = NULL;
	char key[65], akey[65];
	size_t i;

	CHECK_INT(fsplan_cache_get(a, WS, HOME, &p1), 0);
	memcpy(akey, p1->key, sizeof(akey));
	CHECK_INT(fsplan_build(a, WS, HOME, &direct), 0);
	CHECK_STR(p1->key, direct->key); /* the plan fsplan_build makes */
	fsplan_free(direct);
	CHECK_INT(fsplan_cache_get(a, WS, HOME, &p2), 0);
	CHECK(p2 == p1); /* kept, not built again */
	CHECK_INT(fsplan_cache_get(a, WS, NULL, &p3), 0);
	CHECK(p3 != p1); /* another home: another plan */
	CHECK(fsplan_home(p3) == NULL);
	CHECK_INT(fsplan_cache_get(a, "/other", HOME, &p4), 0);
	CHECK(strcmp(p4->key, p1->key) != 0); /* the key names the workspace */
	CHECK_INT(fsplan_cache_get(b, WS, HOME, &p5), 0);
	CHECK(strcmp(p5->key, p1->key) != 0);
	/* The cache holds a reference: b's plan outlives b's owner. */
	memcpy(key, p5->key, sizeof(key));
	policy_free(b);
	CHECK_INT(fsplan_cache_get(b, WS, HOME, &p5), 0);
	CHECK_STR(p5->key, key);
	/* Full: older ones go (b's, and the last reference to b with it),
	 * and what is asked for again is built again, the same plan. */
	for (i = 0; i < FSPLAN_CACHE_SLOTS; i++) {
		const struct fsplan *q;

		more[i] = effective("{\"filesystem\": {\"allowWrite\": [\".\"]}}");
		CHECK_INT(fsplan_cache_get(more[i], WS, HOME, &q), 0);
	}
	CHECK_INT(fsplan_cache_get(a, WS, HOME, &p2), 0);
	CHECK_STR(p2->key, akey);
	fsplan_cache_clear();
	for (i = 0; i < FSPLAN_CACHE_SLOTS; i++)
		policy_free(more[i]);
	policy_free(a);
	UNIT_DONE();
}
