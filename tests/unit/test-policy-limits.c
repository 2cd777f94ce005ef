/* Unit tests for policy/limits.c: the "limits" object's five keys and
 * values as documents write them and as people read them, the machine's
 * defaults, and which layer's value applies. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/limits.h"
#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "unit.h"

static unsigned long long
mem(const char *text)
{
	unsigned long long v = 0;
	const char *why = NULL;

	if (policy_limit_parse(POLICY_LIMIT_MEMORY, text, 0, true, &v,
	    &why) < 0)
		return 0;
	return v;
}

static void
test_parse(void)
{
	unsigned long long v = 0;
	const char *why = NULL;

	CHECK(mem("2G") == 2ull << 30);
	CHECK(mem("2 GiB") == 2ull << 30);
	CHECK(mem("2g") == 2ull << 30);
	CHECK(mem("512M") == 512ull << 20);
	CHECK(mem("512MB") == 512ull << 20);
	CHECK(mem("1.5G") == 3ull << 29);
	CHECK(mem("1T") == 1ull << 40);
	CHECK(mem("16777216") == 16ull << 20);
	/* Out of range, or not a size. */
	CHECK(mem("1M") == 0);
	CHECK(mem("2P") == 0);
	CHECK(mem("99999999999999999999999G") == 0);
	CHECK(mem("") == 0);
	CHECK(mem("G") == 0);
	CHECK(mem("2 X") == 0);
	CHECK(mem("-2G") == 0);
	CHECK(mem("1.G") == 0);
	CHECK(mem("1.5") == 0);
	CHECK(mem("2GiBx") == 0);
	CHECK_INT(policy_limit_parse(POLICY_LIMIT_MEMORY, NULL, 1ll << 30,
	    false, &v, &why), 0);
	CHECK(v == 1ull << 30);
	CHECK_INT(policy_limit_parse(POLICY_LIMIT_PIDS, NULL, 512, false, &v,
	    &why), 0);
	CHECK(v == 512);
	CHECK(policy_limit_parse(POLICY_LIMIT_PIDS, NULL, 4, false, &v,
	    &why) < 0);
	CHECK_STR(why, "pids must be from 8 to 4194304");
	CHECK(policy_limit_parse(POLICY_LIMIT_PIDS, "512", 0, true, &v,
	    &why) < 0);
	CHECK_STR(why, "expected an integer");
	CHECK(policy_limit_parse(POLICY_LIMIT_CPU, NULL, 0, false, &v,
	    &why) < 0);
	CHECK(policy_limit_parse(POLICY_LIMIT_CPU, NULL, 10001, false, &v,
	    &why) < 0);
	CHECK(policy_limit_parse(POLICY_LIMIT_CPU, NULL, -1, false, &v,
	    &why) < 0);
	CHECK_INT(policy_limit_parse(POLICY_LIMIT_CPU, NULL, 10000, false, &v,
	    &why), 0);
}

static void
test_format(void)
{
	char buf[32];

	policy_limit_format(POLICY_LIMIT_MEMORY, 2ull << 30, buf, sizeof(buf));
	CHECK_STR(buf, "2 GiB");
	policy_limit_format(POLICY_LIMIT_MEMORY, 3ull << 29, buf, sizeof(buf));
	CHECK_STR(buf, "1536 MiB");
	policy_limit_format(POLICY_LIMIT_MEMORY, 64ull << 20, buf, sizeof(buf));
	CHECK_STR(buf, "64 MiB");
	policy_limit_format(POLICY_LIMIT_PIDS, 512, buf, sizeof(buf));
	CHECK_STR(buf, "512");
	policy_limit_format(POLICY_LIMIT_CPU, 50, buf, sizeof(buf));
	CHECK_STR(buf, "weight 50");
	policy_limit_format(POLICY_LIMIT_TMP, 512ull << 20, buf, sizeof(buf));
	CHECK_STR(buf, "512 MiB");
}

static void
test_defaults(void)
{
	struct policy_machine m = { 16ull << 30, 100000, 0 };
	struct policy_limit_defaults d;

	policy_limit_defaults(&m, &d);
	CHECK(d.v[POLICY_LIMIT_MEMORY] == 8ull << 30);
	CHECK(d.v[POLICY_LIMIT_PIDS] == 4096);
	CHECK(d.v[POLICY_LIMIT_CPU] == 50);
	/* A user allowed 1500 processes: a sandbox gets half. */
	m.nproc = 1500;
	policy_limit_defaults(&m, &d);
	CHECK(d.v[POLICY_LIMIT_PIDS] == 750);
	m.threads_max = 2000;
	policy_limit_defaults(&m, &d);
	CHECK(d.v[POLICY_LIMIT_PIDS] == 500);
	m.ram = 0;
	m.nproc = 2;
	policy_limit_defaults(&m, &d);
	CHECK(d.v[POLICY_LIMIT_MEMORY] == 4ull << 30);
	CHECK(d.v[POLICY_LIMIT_PIDS] == POLICY_PIDS_MIN);
}

/* Merges org, user, workspace texts (NULL: absent) and resolves id. */
static unsigned long long
resolve(const char *org, const char *user, const char *ws,
    enum policy_limit_id id, int *layer)
{
	const char *texts[3] = { org, user, ws };
	struct policy *docs[3], *eff = NULL;
	struct policy_diags d = { 0 };
	struct policy_limit_defaults def = { { 1000, 8ull << 30, 50 } };
	const struct policy_origin *o = NULL;
	unsigned long long v = 0;
	size_t n = 0, i;

	for (i = 0; i < 3; i++)
		if (texts[i] && parse_as(texts[i], POLICY_LAYER_ORG + (int)i,
		    &docs[n], &d) == 0)
			n++;
	if (policy_merge((const struct policy *const *)docs, n, HOME, &eff,
	    &d) == 0) {
		v = policy_limit_resolve(eff, id, &def, &o);
		*layer = o ? (int)o->layer : -1;
	}
	for (i = 0; i < n; i++)
		policy_free(docs[i]);
	policy_free(eff);
	policy_diag_free(&d);
	return v;
}

static void
test_resolve(void)
{
	int layer = 0;

	/* Nobody sets it: the machine's default. */
	CHECK(resolve(NULL, "{}", NULL, POLICY_LIMIT_PIDS, &layer) == 1000);
	CHECK_INT(layer, -1);
	/* The user may raise its own above the default. */
	CHECK(resolve(NULL, "{\"limits\":{\"pids\":5000}}", NULL,
	    POLICY_LIMIT_PIDS, &layer) == 5000);
	CHECK_INT(layer, POLICY_LAYER_USER);
	/* The org caps the user. */
	CHECK(resolve("{\"limits\":{\"memory\":\"2G\"}}",
	    "{\"limits\":{\"memory\":\"16G\"}}", NULL, POLICY_LIMIT_MEMORY,
	    &layer) == 2ull << 30);
	CHECK_INT(layer, POLICY_LAYER_ORG);
	/* A workspace lowers, never raises: not above the default... */
	CHECK(resolve(NULL, "{}", "{\"limits\":{\"pids\":5000}}",
	    POLICY_LIMIT_PIDS, &layer) == 1000);
	CHECK_INT(layer, -1);
	/* ...nor above the cap; below it, it decides. */
	CHECK(resolve("{\"limits\":{\"cpu\":30}}", NULL,
	    "{\"limits\":{\"cpu\":90}}", POLICY_LIMIT_CPU, &layer) == 30);
	CHECK_INT(layer, POLICY_LAYER_ORG);
	CHECK(resolve("{\"limits\":{\"cpu\":30}}", NULL,
	    "{\"limits\":{\"cpu\":10}}", POLICY_LIMIT_CPU, &layer) == 10);
	CHECK_INT(layer, POLICY_LAYER_WORKSPACE);
}

static void
test_docs(void)
{
	struct policy_diags d = { 0 };
	struct policy *p = NULL;

	CHECK(parse_as("{\"limits\":{\"memry\":1}}", POLICY_LAYER_USER, &p,
	    &d) < 0);
	CHECK(d.n > 0 && strstr(d.v[0].msg, "did you mean \"memory\"?"));
	policy_diag_free(&d);
	memset(&d, 0, sizeof(d));
	CHECK(parse_as("{\"limits\":{\"pids\":\"many\"}}", POLICY_LAYER_USER,
	    &p, &d) < 0);
	CHECK(d.n > 0 && strstr(d.v[0].msg, "expected an integer"));
	policy_diag_free(&d);
	memset(&d, 0, sizeof(d));
	CHECK(parse_as("{\"limits\":{\"memory\":true}}", POLICY_LAYER_USER,
	    &p, &d) < 0);
	policy_diag_free(&d);
	memset(&d, 0, sizeof(d));
	CHECK(parse_as("{\"limits\":[]}", POLICY_LAYER_USER, &p, &d) < 0);
	policy_diag_free(&d);
}

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
test_doc_tmp_home(void)
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
	bad("{\"limits\": {\"tmp\": \"1.5\"}}", "unknown unit");
	bad("{\"limits\": {\"tmp\": \"1.5X\"}}", "unknown unit");
	bad("{\"limits\": {\"tmp\": true}}", "expected a size");
	bad("{\"limits\": {\"tmp\": -1}}", "expected a size");
	bad("{\"limits\": {\"tmp\": \"1K\"}}", "limits.tmp must be at least "
	    "64K");
	bad("{\"limits\": {\"home\": \"512K\"}}", "limits.home must be at "
	    "least 1M");
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
	/* A default of 0 is no limit: a workspace's value is the only one
	 * (limits.home where a user's daemon measures the layer). */
	CHECK_INT(policy_limit_value(&p, POLICY_LIMIT_TMP, 0), 200 << 20);
}

int
main(void)
{
	test_parse();
	test_format();
	test_defaults();
	test_resolve();
	test_docs();
	test_doc_tmp_home();
	test_value();
	UNIT_DONE();
}
