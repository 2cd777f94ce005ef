/* Parser tests on accepted documents: srt settings, rules, shipped files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/builtin.h"
#include "policy-unit.h"
#include "unit.h"
#include "golden.h"

/* The document must parse; returns it with its diagnostics in *d. */
static struct policy *
good(const char *text, enum policy_layer layer, struct policy_diags *d)
{
	struct policy *p;
	int r = parse_as(text, layer, &p, d);

	CHECK_INT(r, 0);
	if (r != 0 && d->n > 0)
		fprintf(stderr, "  first: %s\n", d->v[0].msg);
	return p;
}

/* The "Complete Configuration Example" of the srt README, unchanged. */
static const char srt_complete[] =
	"{\n"
	"  \"network\": {\n"
	"    \"allowedDomains\": [\n"
	"      \"github.com\",\n"
	"      \"*.github.com\",\n"
	"      \"lfs.github.com\",\n"
	"      \"api.github.com\",\n"
	"      \"npmjs.org\",\n"
	"      \"*.npmjs.org\"\n"
	"    ],\n"
	"    \"deniedDomains\": [\"malicious.com\"],\n"
	"    \"allowUnixSockets\": [\"/var/run/docker.sock\"],\n"
	"    \"allowLocalBinding\": false\n"
	"  },\n"
	"  \"filesystem\": {\n"
	"    \"denyRead\": [\"~/.ssh\"],\n"
	"    \"allowWrite\": [\".\", \"src/\", \"test/\", \"/tmp\"],\n"
	"    \"denyWrite\": [\".env\", \"config/production.json\"]\n"
	"  },\n"
	"  \"ignoreViolations\": {\n"
	"    \"*\": [\"/usr/bin\", \"/System\"],\n"
	"    \"git push\": [\"/usr/bin/nc\"],\n"
	"    \"npm\": [\"/private/tmp\"]\n"
	"  },\n"
	"  \"enableWeakerNestedSandbox\": false,\n"
	"  \"enableWeakerNetworkIsolation\": false\n"
	"}\n";

static void
test_srt_settings(void)
{
	struct policy_diags d = { 0 };
	struct policy *p = good(srt_complete, POLICY_LAYER_USER, &d);

	CHECK_INT(d.errors, 0);
	CHECK_INT(d.warnings, 3);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL, "t.json:20:3: warning: "
	    "ignoreViolations: srt setting that sbx does not implement, "
	    "ignored: sbx reports every violation");
	if (p == NULL)
		goto out;
	CHECK_INT(p->lists[POLICY_ALLOWED_DOMAINS].n, 6);
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[1].value, "*.github.com");
	CHECK_INT(p->lists[POLICY_ALLOWED_DOMAINS].v[1].origin.line, 5);
	CHECK_INT(p->lists[POLICY_ALLOWED_DOMAINS].v[1].origin.col, 7);
	CHECK_STR(p->lists[POLICY_DENY_READ].v[0].value, HOME "/.ssh");
	CHECK_INT(p->lists[POLICY_ALLOW_WRITE].n, 4);
	CHECK_STR(p->lists[POLICY_ALLOW_WRITE].v[0].value, WS);
	CHECK_STR(p->lists[POLICY_ALLOW_WRITE].v[1].value, WS "/src");
	CHECK_STR(p->lists[POLICY_ALLOW_WRITE].v[3].value, "/tmp");
	CHECK_STR(p->lists[POLICY_DENY_WRITE].v[1].value,
	    WS "/config/production.json");
	CHECK_STR(p->lists[POLICY_UNIX_SOCKETS].v[0].value,
	    "/var/run/docker.sock");
	CHECK_INT(p->settings[POLICY_LOCAL_BINDING].value, POLICY_NO);
	CHECK_INT(p->settings[POLICY_LOCAL_BINDING].origin.line, 13);
	CHECK(!p->lists[POLICY_ENV_PASS].set);
out:
	policy_free(p);
	policy_diag_free(&d);
}

static void
test_srt_extras(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;
	const struct policy_rules *l;

	p = good("{\"network\": {\"unknownHosts\": \"ask\",\n"
	    "  \"strictAllowlist\": true,\n"
	    "  \"deniedDomains\": [\"github.com:22\", \"*\"],\n"
	    "  \"deniedDomainReasons\": {\"github.com:22\": \"use https\",\n"
	    "    \"nope.example\": \"x\"}},\n"
	    " \"filesystem\": {\"disabled\": true}}", POLICY_LAYER_USER, &d);
	CHECK_INT(d.warnings, 2);
	CHECK_STR(d.n > 1 ? d.v[1].msg : NULL, "t.json:5:5: warning: network."
	    "deniedDomainReasons.nope.example: no such entry in deniedDomains; "
	    "reason unused");
	if (p != NULL) {
		/* strictAllowlist narrows, so it wins over "ask". */
		CHECK_INT(p->settings[POLICY_UNKNOWN_HOSTS].value,
		    POLICY_HOSTS_DENY);
		CHECK_INT(p->settings[POLICY_UNKNOWN_HOSTS].origin.line, 2);
		l = &p->lists[POLICY_DENIED_DOMAINS];
		CHECK_STR(l->v[0].origin.reason, "use https");
		CHECK_STR(l->v[1].value, "*");
	}
	policy_free(p);
	policy_diag_free(&d);
}

static void
test_rules(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;
	const struct policy_rule *r;

	p = good("{\"filesystem\": {\n"
	    "  \"denyRead\": [{\"path\": \"~/a/../b//c/.\", \"id\": \"bc\",\n"
	    "                \"reason\": \"secret\", \"_comment\": \"x\"},\n"
	    "               \"**/*.pem\"],\n"
	    "  \"allowWrite\": [\"src/**\", \"~\"]},\n"
	    " \"limits\": {\"tmp\": \"64M\", \"cpu\": 2}}",
	    POLICY_LAYER_WORKSPACE, &d);
	CHECK_INT(d.warnings, 1);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL, "t.json:5:18: warning: "
	    "filesystem.allowWrite[0]: \"src/**\": glob patterns are not "
	    "supported in this list (sbx grants literal paths); entry ignored");
	CHECK_INT((int)d.n, 1);
	if (p != NULL) {
		CHECK_INT(p->limits[POLICY_LIMIT_CPU].set, 1);
		CHECK_INT((int)p->limits[POLICY_LIMIT_CPU].value, 2);
		CHECK_INT(p->limits[POLICY_LIMIT_CPU].origin.line, 6);
		CHECK_INT(p->limits[POLICY_LIMIT_MEMORY].set, 0);
		CHECK_INT((int)p->limits[POLICY_LIMIT_TMP].value, 64 << 20);
		r = &p->lists[POLICY_DENY_READ].v[0];
		CHECK_STR(r->value, HOME "/b/c");
		CHECK_STR(r->origin.id, "bc");
		CHECK_STR(r->origin.reason, "secret");
		CHECK_INT(r->origin.layer, POLICY_LAYER_WORKSPACE);
		CHECK_INT(r->origin.line, 2);
		CHECK_INT(r->origin.col, 16);
		r = &p->lists[POLICY_DENY_READ].v[1];
		CHECK_STR(r->value, WS "/**/*.pem");
		CHECK(r->flags & POLICY_RULE_GLOB);
		CHECK_INT(p->lists[POLICY_ALLOW_WRITE].n, 1);
		CHECK_STR(p->lists[POLICY_ALLOW_WRITE].v[0].value, HOME);
	}
	policy_free(p);
	policy_diag_free(&d);
}

/* Every shipped policy must parse without errors or warnings. */
static void
test_shipped(void)
{
	static const struct {
		const char *path;
		enum policy_layer layer;
	} files[] = {
		{ "policies/default.json", POLICY_LAYER_USER },
		{ "policies/strict.json", POLICY_LAYER_USER },
		{ "policies/examples/org.json", POLICY_LAYER_ORG },
		{ "policies/examples/workspace.json", POLICY_LAYER_WORKSPACE },
	};
	struct policy_diags d = { 0 };
	struct policy_ctx ctx = { 0, NULL, HOME, WS };
	struct policy *p;
	size_t i, len;
	char *buf;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		buf = golden_slurp(files[i].path, &len);
		CHECK(buf != NULL);
		if (buf == NULL)
			continue;
		ctx.layer = files[i].layer;
		ctx.file = files[i].path;
		p = NULL;
		CHECK_INT(policy_parse(buf, len, &ctx, &p, &d), 0);
		CHECK_INT(d.errors + d.warnings, 0);
		if (d.n > 0)
			fprintf(stderr, "  %s\n", d.v[0].msg);
		policy_diag_free(&d);
		policy_free(p);
		free(buf);
	}
	/* The schema ships beside them and must at least be JSON. */
	buf = golden_slurp("policies/sbx-policy.schema.json", &len);
	CHECK(buf != NULL);
	if (buf != NULL) {
		json_t *schema = json_loadb(buf, len, JSON_REJECT_DUPLICATES,
		    NULL);

		CHECK(json_object_get(schema, "$defs") != NULL);
		json_decref(schema);
		free(buf);
	}
	p = NULL;
	CHECK_INT(policy_builtin_new(HOME, &p), 0);
	CHECK(p != NULL && p->lists[POLICY_PROTECT].n > 10);
	policy_free(p);
}

int
main(void)
{
	test_srt_settings();
	test_srt_extras();
	test_rules();
	test_shipped();
	UNIT_DONE();
}
