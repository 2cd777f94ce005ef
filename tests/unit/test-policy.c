/* Unit tests for the policy parser: documents, errors and positions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "policy.h"
#include "policy-builtin.h"
#include "policy-domain.h"
#include "policy-rule.h"
#include "unit.h"

#define HOME "/home/alice"
#define WS "/home/alice/src/app"

static int
parse_as(const char *text, enum policy_layer layer, struct policy **p,
    struct policy_diags *d)
{
	struct policy_ctx ctx = { layer, "t.json", HOME, WS };

	*p = NULL;
	return policy_parse(text, strlen(text), &ctx, p, d);
}

/* The document must fail, and its first diagnostic must be want. */
static void
bad(const char *text, enum policy_layer layer, const char *want)
{
	struct policy_diags d = { 0 };
	struct policy *p;

	CHECK_INT(parse_as(text, layer, &p, &d), -EINVAL);
	CHECK(p == NULL);
	CHECK(d.errors > 0);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL, want);
	policy_diag_free(&d);
}

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

static void
test_syntax_errors(void)
{
	bad("{\n  \"network\": {\n    \"allowedDomains\": [\"a.com\",]\n  }\n}",
	    POLICY_LAYER_USER,
	    "t.json:3:32: error: unexpected token near ']'");
	bad("{\"filesystem\": {},\n \"filesystem\": {}}", POLICY_LAYER_USER,
	    "t.json:2:13: error: duplicate object key near '\"filesystem\"'");
	bad("", POLICY_LAYER_USER,
	    "t.json:1:1: error: '[' or '{' expected near end of file");
	bad("[1]", POLICY_LAYER_USER,
	    "t.json:1:1: error: a policy is a JSON object, not an array");
}

static void
test_key_errors(void)
{
	bad("{\n  \"filesytem\": {}\n}", POLICY_LAYER_USER,
	    "t.json:2:3: error: filesytem: unknown key (did you mean "
	    "\"filesystem\"?)");
	bad("{\"network\": {\n    \"allowedDomain\": []}}", POLICY_LAYER_USER,
	    "t.json:2:5: error: network.allowedDomain: unknown key (did you "
	    "mean \"allowedDomains\"?)");
	bad("{\"allowedDomains\": [\"a.com\"]}", POLICY_LAYER_USER,
	    "t.json:1:2: error: allowedDomains: unknown key here (it belongs "
	    "in network)");
	bad("{\"env\": {\"pass\": [], \"xyzzy\": 1}}", POLICY_LAYER_USER,
	    "t.json:1:22: error: env.xyzzy: unknown key in env");
	/* Columns count characters, not bytes. */
	bad("{\"_comment\": \"\xc3\xa9\xc3\xa9\", \"bogus\": 1}",
	    POLICY_LAYER_USER,
	    "t.json:1:20: error: bogus: unknown key in the top level");
	bad("{\"filesystem\": {\"denyRead\": [{\"path\": \"/x\", "
	    "\"pth\": 1}]}}", POLICY_LAYER_USER, "t.json:1:45: error: "
	    "filesystem.denyRead[0].pth: unknown key in a rule (expected "
	    "\"path\", \"id\", \"reason\" or \"_comment\")");
}

static void
test_type_errors(void)
{
	bad("{\"filesystem\": {\n  \"denyRead\": \"~/.ssh\"}}",
	    POLICY_LAYER_USER, "t.json:2:15: error: filesystem.denyRead: "
	    "expected an array, got a string");
	bad("{\"network\": {\"allowLocalBinding\": \"yes\"}}",
	    POLICY_LAYER_USER, "t.json:1:35: error: network."
	    "allowLocalBinding: expected true or false, got a string");
	bad("{\"network\": {\"unknownHosts\": \"maybe\"}}", POLICY_LAYER_USER,
	    "t.json:1:30: error: network.unknownHosts: expected \"deny\" or "
	    "\"ask\"");
	bad("{\"protect\": [42]}", POLICY_LAYER_USER, "t.json:1:14: error: "
	    "protect[0]: expected a string or a rule object, got a number");
	bad("{\"filesystem\": []}", POLICY_LAYER_USER, "t.json:1:16: error: "
	    "filesystem: expected an object, got an array");
	bad("{\"limits\": 3}", POLICY_LAYER_USER,
	    "t.json:1:12: error: limits: expected an object, got a number");
	bad("{\"filesystem\": {\"denyRead\": [{\"id\": \"x\"}]}}",
	    POLICY_LAYER_USER, "t.json:1:30: error: filesystem.denyRead[0]: "
	    "a rule object needs \"path\"");
}

static void
test_value_errors(void)
{
	bad("{\"network\": {\"allowedDomains\": [\n  \"a.com\", \"*.com\"]}}",
	    POLICY_LAYER_USER, "t.json:2:12: error: network.allowedDomains"
	    "[1]: \"*.com\": too broad: *. needs at least two labels after "
	    "it, as in *.example.com");
	bad("{\"network\": {\"allowedDomains\": [\"*\"]}}", POLICY_LAYER_USER,
	    "t.json:1:33: error: network.allowedDomains[0]: \"*\": a bare * "
	    "is only accepted in deniedDomains");
	bad("{\"filesystem\": {\"allowWrite\": [\".\"]}}", POLICY_LAYER_ORG,
	    "t.json:1:32: error: filesystem.allowWrite[0]: \".\": relative "
	    "path in an org policy, which has no workspace: write an absolute "
	    "or ~/ path");
	bad("{\"filesystem\": {\"denyRead\": [{\"path\": \"~bob/x\"}]}}",
	    POLICY_LAYER_USER, "t.json:1:39: error: filesystem.denyRead[0]"
	    ".path: \"~bob/x\": ~user paths are not supported (use ~/ or an "
	    "absolute path)");
	bad("{\"env\": {\"pass\": [\"9LIVES\"]}}", POLICY_LAYER_USER,
	    "t.json:1:19: error: env.pass[0]: \"9LIVES\": not a variable name "
	    "or name glob (letters, digits, _ and *, not starting with a "
	    "digit)");
	bad("{\"ignoreFiles\": [\"a/b\"]}", POLICY_LAYER_USER,
	    "t.json:1:18: error: ignoreFiles[0]: \"a/b\": not a file name "
	    "(one path component, no /)");
	bad("{\"protect\": [{\"path\": \"/x\", \"reason\": \"beep\\u0007\"}]}",
	    POLICY_LAYER_USER, "t.json:1:39: error: protect[0].reason: "
	    "control character in string");
	bad("{\"protect\": [{\"path\": \"/x\", \"id\": \"a\"},\n"
	    "  {\"path\": \"/y\", \"id\": \"a\"}]}", POLICY_LAYER_USER,
	    "t.json:2:24: error: protect[1].id: duplicate rule id \"a\" "
	    "(first used at line 1)");
	bad("{\"protect\": [{\"path\": \"/x\", \"id\": \"a b\"}]}",
	    POLICY_LAYER_USER, "t.json:1:35: error: protect[0].id: rule id "
	    "\"a b\" may only have letters, digits, '.', '_' and '-'");
}

static void
test_serial(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;

	bad("{\"serial\": 0}", POLICY_LAYER_ORG, "t.json:1:12: error: serial: "
	    "serial must be an integer from 1 to 9007199254740991");
	bad("{\"serial\": \"7\"}", POLICY_LAYER_ORG, "t.json:1:12: error: "
	    "serial: serial must be an integer from 1 to 9007199254740991");
	bad("{\"serial\": 1.5}", POLICY_LAYER_ORG, "t.json:1:12: error: "
	    "serial: serial must be an integer from 1 to 9007199254740991");
	bad("{\"serial\": 7}", POLICY_LAYER_USER, "t.json:1:2: error: serial: "
	    "serial is only accepted in an org policy");
	p = good("{\"serial\": 7}", POLICY_LAYER_ORG, &d);
	CHECK(p != NULL && p->serial == 7);
	if (p != NULL) {
		CHECK_INT(policy_serial_check(p, 6), 0);
		CHECK_INT(policy_serial_check(p, 7), -ESTALE);
		CHECK_INT(policy_serial_check(p, 8), -ESTALE);
		p->serial = 0;
		CHECK_INT(policy_serial_check(p, 0), -ENODATA);
	}
	policy_free(p);
	policy_diag_free(&d);
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
	    " \"limits\": {\"cpu\": 2}}", POLICY_LAYER_WORKSPACE, &d);
	CHECK_INT(d.warnings, 1);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL, "t.json:5:18: warning: "
	    "filesystem.allowWrite[0]: \"src/**\": glob patterns are not "
	    "supported in this list (sbx grants literal paths); entry ignored");
	CHECK_STR(d.n > 1 ? d.v[1].msg : NULL, "t.json:6:2: note: limits: "
	    "limits are reserved and not enforced yet; ignored");
	if (p != NULL) {
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

static void
test_request_flags(void)
{
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, "--allow-domain",
	    HOME, WS };
	struct policy_diags d = { 0 };
	struct policy *p = policy_new(POLICY_LAYER_REQUEST);

	CHECK(p != NULL);
	if (p == NULL)
		return;
	CHECK_INT(policy_rule_add_text(p, POLICY_ALLOWED_DOMAINS,
	    "API.Example.com:443", &ctx, &d), 0);
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[0].value,
	    "api.example.com:443");
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[0].origin.file,
	    "--allow-domain");
	CHECK_INT(policy_rule_add_text(p, POLICY_ALLOWED_DOMAINS, "*.com",
	    &ctx, &d), -EINVAL);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL, "--allow-domain: error: "
	    "network.allowedDomains \"*.com\": too broad: *. needs at least "
	    "two labels after it, as in *.example.com");
	ctx.file = "--allow-write";
	CHECK_INT(policy_rule_add_text(p, POLICY_ALLOW_WRITE, "build", &ctx,
	    &d), 0);
	CHECK_STR(p->lists[POLICY_ALLOW_WRITE].v[0].value, WS "/build");
	policy_free(p);
	policy_diag_free(&d);
}

static void
test_limits(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;
	char *big;
	size_t n = POLICY_MAX_RULES + 1, i, len;

	big = malloc(POLICY_MAX_BYTES + 2);
	CHECK(big != NULL);
	if (big == NULL)
		return;
	memset(big, ' ', POLICY_MAX_BYTES + 1);
	big[0] = '{';
	big[POLICY_MAX_BYTES] = '}';
	big[POLICY_MAX_BYTES + 1] = '\0';
	CHECK_INT(parse_as(big, POLICY_LAYER_USER, &p, &d), -EINVAL);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL,
	    "t.json: error: larger than 1048576 bytes");
	policy_diag_free(&d);
	len = (size_t)snprintf(big, 32, "{\"protect\": [");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(big + len, 8, "\"/x\"%s",
		    i + 1 < n ? "," : "]}");
	CHECK_INT(parse_as(big, POLICY_LAYER_USER, &p, &d), -EINVAL);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL,
	    "t.json:1:13: error: protect: more than 4096 rules");
	policy_diag_free(&d);
	free(big);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
		buf[n] = '\0';
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
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
		buf = slurp(files[i].path, &len);
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
	buf = slurp("policies/sbx-policy.schema.json", &len);
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
	test_syntax_errors();
	test_key_errors();
	test_type_errors();
	test_value_errors();
	test_serial();
	test_srt_settings();
	test_srt_extras();
	test_rules();
	test_request_flags();
	test_limits();
	test_shipped();
	UNIT_DONE();
}
