/* Unit tests for daemon/policy/fsplan.c: when the home is an overlay, and that
 * the plan's key tells the cases apart (templates must not be shared). */
#include <string.h>

#include "daemon/policy/fsplan.h"
#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "unit.h"

/* The user layer text -> its plan for WS with home HOME (or none). */
static struct fsplan *
plan(const char *user, const char *home)
{
	struct policy_diags d = { 0 };
	struct policy *u = NULL, *eff = NULL;
	struct fsplan *fs = NULL;

	CHECK_INT(parse_as(user, POLICY_LAYER_USER, &u, &d), 0);
	CHECK_INT(policy_merge((const struct policy *const *)&u, 1, HOME,
	    &eff, &d), 0);
	if (eff)
		CHECK_INT(fsplan_build(eff, WS, home, &fs), 0);
	policy_free(eff);
	policy_free(u);
	policy_diag_free(&d);
	return fs;
}

int
main(void)
{
	static const char *const users[] = {
		"{\"filesystem\": {\"allowWrite\": [\".\"]}}",
		"{\"filesystem\": {\"allowWrite\": [\".\"], "
		"\"home\": \"read-only\"}}",
		"{\"filesystem\": {\"allowWrite\": [\".\", \"~\"]}}",
		"{\"filesystem\": {\"allowWrite\": [\".\"], "
		"\"denyRead\": [\"~\"]}}",
		"{\"filesystem\": {\"allowWrite\": [\".\"], "
		"\"home\": \"overlay\"}}",
	};
	/* Only the default and an explicit "overlay" overlay the home. */
	static const bool overlaid[] = { true, false, false, false, true };
	struct fsplan *fs[5], *none;
	size_t i;

	for (i = 0; i < 5; i++) {
		fs[i] = plan(users[i], HOME);
		CHECK(fs[i] != NULL);
		if (!fs[i])
			continue;
		CHECK_INT(fsplan_home(fs[i]) != NULL, overlaid[i]);
		if (overlaid[i])
			CHECK_STR(fsplan_home(fs[i]), HOME);
	}
	/* A backend that cannot overlay: the same policy, another plan. */
	none = plan(users[0], NULL);
	CHECK(none != NULL && fsplan_home(none) == NULL);
	if (none && fs[0] && fs[1] && fs[4]) {
		CHECK(strcmp(none->key, fs[0]->key) != 0);
		CHECK(strcmp(fs[0]->key, fs[1]->key) != 0);
		/* Saying the default changes nothing. */
		CHECK_STR(fs[0]->key, fs[4]->key);
		/* Read-only by policy or by the backend: the same plan. */
		CHECK_STR(none->key, fs[1]->key);
	}
	for (i = 0; i < 5; i++)
		fsplan_free(fs[i]);
	fsplan_free(none);
	UNIT_DONE();
}
