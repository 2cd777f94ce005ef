/* Unit tests for policy/limits.c: the "limits" object's keys and values,
 * and the limit in force. */
#include <errno.h>

#include "daemon/policy/limits.h"
#include "policy-unit.h"
#include "unit.h"

/* Parses text as a workspace document: its first message, or "". */
static const char *
first_diag(const char *text, struct policy **p)
{
	static char msg[512];
	struct policy_diags d = { 0 };

	parse_as(text, POLICY_LAYER_WORKSPACE, p, &d);
	snprintf(msg, sizeof(msg), "%s", d.n ? d.v[0].msg : "");
	policy_diag_free(&d);
	return msg;
}

static void
bad(const char *text, const char *want)
{
	struct policy *p = NULL;
	const char *msg = first_diag(text, &p);

	CHECK(p == NULL);
	CHECK(strstr(msg, want) != NULL);
	if (!strstr(msg, want))
		fprintf(stderr, "  got: %s\n", msg);
	policy_free(p);
}

static void
test_parse(void)
{
	struct policy *p = NULL;

	CHECK_STR(first_diag("{\"limits\": {\"tmp\": \"512M\", \"home\": "
	    "1048576}}", &p), "");
	CHECK(p != NULL);
	if (p) {
		CHECK(p->limits[POLICY_LIMIT_TMP].set);
		CHECK_INT(p->limits[POLICY_LIMIT_TMP].value, 512LL << 20);
		CHECK_INT(p->limits[POLICY_LIMIT_HOME].value, 1 << 20);
		CHECK_INT(p->limits[POLICY_LIMIT_TMP].origin.line, 1);
		CHECK_STR(p->limits[POLICY_LIMIT_TMP].origin.file, "t.json");
	}
	policy_free(p);
	bad("{\"limits\": {\"disk\": \"1G\"}}", "limits.disk: unknown limit "
	    "\"disk\"");
	bad("{\"limits\": {\"tmp\": \"1.5G\"}}", "unknown unit");
	bad("{\"limits\": {\"tmp\": true}}", "expected a size");
	bad("{\"limits\": {\"tmp\": -1}}", "expected a size");
	bad("{\"limits\": {\"tmp\": \"1K\"}}", "limits.tmp must be at least "
	    "64K");
	bad("{\"limits\": [\"tmp\"]}", "expected an object");
	CHECK_STR(policy_limit_name(POLICY_LIMIT_HOME), "limits.home");
}

static void
test_value(void)
{
	struct policy p = { 0 };

	CHECK_INT(policy_limit_value(&p, POLICY_LIMIT_TMP, 100 << 20),
	    100 << 20);
	p.limits[POLICY_LIMIT_TMP].set = true;
	p.limits[POLICY_LIMIT_TMP].value = 200 << 20;
	CHECK_INT(policy_limit_value(&p, POLICY_LIMIT_TMP, 100 << 20),
	    200 << 20);
	/* Only narrowing layers set it: never above the default. */
	p.limits[POLICY_LIMIT_TMP].under_default = true;
	CHECK_INT(policy_limit_value(&p, POLICY_LIMIT_TMP, 100 << 20),
	    100 << 20);
	CHECK_INT(policy_limit_value(&p, POLICY_LIMIT_TMP, 300 << 20),
	    200 << 20);
}

int
main(void)
{
	test_parse();
	test_value();
	UNIT_DONE();
}
