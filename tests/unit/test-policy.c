/* Parser tests on refused documents: each error, its line and column. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/rule.h"
#include "policy-unit.h"
#include "unit.h"

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

/* network.hostServices: one loopback address and one port each. */
static void
test_host_services(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;

	CHECK_INT(parse_as("{\"network\": {\"hostServices\": [{\"service\": "
	    "\"localhost:5432\", \"id\": \"db\", \"reason\": \"r\"}, "
	    "\"127.0.0.2:6379\", \"[::1]:8080\"]}}", POLICY_LAYER_USER, &p,
	    &d), 0);
	if (p) {
		CHECK_INT(p->lists[POLICY_HOST_SERVICES].n, 3);
		CHECK_STR(p->lists[POLICY_HOST_SERVICES].v[0].value,
		    "localhost:5432");
		CHECK_STR(p->lists[POLICY_HOST_SERVICES].v[0].origin.id, "db");
		CHECK_STR(p->lists[POLICY_HOST_SERVICES].v[2].value,
		    "[::1]:8080");
	}
	policy_free(p);
	policy_diag_free(&d);
	bad("{\"network\": {\"hostServices\": [\"localhost\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"localhost\": a host service is one address and one port "
	    "(\"localhost:5432\", \"127.0.0.1:6379\", \"[::1]:8080\")");
	bad("{\"network\": {\"hostServices\": [\"db.example.com:5432\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"db.example.com:5432\": a host service is on the host's loopback "
	    "(localhost, 127.0.0.0/8 or [::1])");
	bad("{\"network\": {\"hostServices\": [\"127.example.com:5432\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"127.example.com:5432\": a host service is on the host's "
	    "loopback (localhost, 127.0.0.0/8 or [::1])");
	bad("{\"network\": {\"hostServices\": [\"10.0.0.1:5432\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"10.0.0.1:5432\": a host service is on the host's loopback "
	    "(localhost, 127.0.0.0/8 or [::1])");
	bad("{\"network\": {\"hostServices\": [\"localhost:80\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"localhost:80\": port below 1024, or sbx's own 3127, "
	    "3128 or 1080: it cannot be bound inside the sandbox");
	bad("{\"network\": {\"hostServices\": [\"localhost:3128\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"localhost:3128\": port below 1024, or sbx's own 3127, "
	    "3128 or 1080: it cannot be bound inside the sandbox");
	bad("{\"network\": {\"hostServices\": [\"localhost:3127\"]}}",
	    POLICY_LAYER_USER, "t.json:1:31: error: network.hostServices[0]: "
	    "\"localhost:3127\": port below 1024, or sbx's own 3127, "
	    "3128 or 1080: it cannot be bound inside the sandbox");
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
	bad("{\"filesystem\": {\"home\": true}}", POLICY_LAYER_USER,
	    "t.json:1:25: error: filesystem.home: expected \"read-only\" or "
	    "\"overlay\"");
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
	bad("{\"network\": {\"deniedDomains\": [{\"domain\": \"a.com\", "
	    "\"allowPrivate\": true}]}}", POLICY_LAYER_USER, "t.json:1:52: "
	    "error: network.deniedDomains[0].allowPrivate: allowPrivate is "
	    "only for network.allowedDomains rules");
	bad("{\"network\": {\"allowedDomains\": [{\"domain\": \"a.com\", "
	    "\"allowPrivate\": 1}]}}", POLICY_LAYER_USER, "t.json:1:69: "
	    "error: network.allowedDomains[0].allowPrivate: expected true or "
	    "false, got a number");
	bad("{\"network\": {\"parentProxy\": {\"http\": \"http://p:1\"}}}",
	    POLICY_LAYER_WORKSPACE, "t.json:1:14: error: network.parentProxy: "
	    "only an org or user policy may set the upstream proxy: a "
	    "workspace policy cannot redirect traffic");
	bad("{\"network\": {\"parentProxy\": \"env\"}}", POLICY_LAYER_REQUEST,
	    "t.json:1:14: error: network.parentProxy: only an org or user "
	    "policy may set the upstream proxy: a request policy cannot "
	    "redirect traffic");
	bad("{\"network\": {\"parentProxy\": {\"https\": \"https://u:pw@p:1\"}}}",
	    POLICY_LAYER_USER, "t.json:1:39: error: network.parentProxy.https: "
	    "TLS to the upstream proxy is not supported: write "
	    "http://HOST:PORT");
	bad("{\"network\": {\"parentProxy\": {\"noProxy\": \"a.test\"}}}",
	    POLICY_LAYER_USER, "t.json:1:29: error: network.parentProxy: "
	    "needs \"http\" or \"https\" (or say \"env\")");
	bad("{\"network\": {\"parentProxy\": {\"http\": \"http://p:1\", "
	    "\"noProxy\": \"10.0.0.0/40\"}}}", POLICY_LAYER_USER, "t.json:1:"
	    "63: error: network.parentProxy.noProxy: noProxy: a CIDR prefix "
	    "length is 0-32 (IPv4) or 0-128 (IPv6)");
	bad("{\"network\": {\"parentProxy\": true}}", POLICY_LAYER_USER,
	    "t.json:1:29: error: network.parentProxy: expected {\"http\", "
	    "\"https\", \"noProxy\"} or \"env\"");
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
	CHECK_INT(parse_as("{\"serial\": 7}", POLICY_LAYER_ORG, &p, &d), 0);
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
	    "t.json: error: larger than 262144 bytes");
	policy_diag_free(&d);
	len = (size_t)snprintf(big, 32, "{\"protect\": [");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(big + len, 8, "\"/x\"%s",
		    i + 1 < n ? "," : "]}");
	CHECK_INT(parse_as(big, POLICY_LAYER_USER, &p, &d), -EINVAL);
	CHECK_STR(d.n > 0 ? d.v[0].msg : NULL,
	    "t.json:1:13: error: protect: more than 1024 rules");
	policy_diag_free(&d);
	free(big);
}

/* A shared policy lives until its last holder lets go (the leak checker
 * and ASan see the rest). */
static void
test_ref(void)
{
	struct policy_diags d = { 0 };
	struct policy *p;

	CHECK_INT(parse_as("{\"filesystem\": {\"denyRead\": [\"/x\"]}}",
	    POLICY_LAYER_USER, &p, &d), 0);
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK(policy_ref(p) == p);
		policy_free(p);
		CHECK_INT(p->extra_refs, 0);
		CHECK(p->lists[POLICY_DENY_READ].n == 1);
	}
	policy_free(p);
	policy_diag_free(&d);
}

int
main(void)
{
	test_syntax_errors();
	test_key_errors();
	test_type_errors();
	test_value_errors();
	test_host_services();
	test_serial();
	test_request_flags();
	test_limits();
	test_ref();
	UNIT_DONE();
}
