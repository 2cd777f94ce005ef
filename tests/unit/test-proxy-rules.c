/* Unit tests for proxy/rules.c: decisions by name, then by resolved address. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "daemon/proxy/rules.h"
#include "daemon/proxy/upstream.h"
#include "host-unit.h"
#include "unit.h"

static const char user_json[] =
	"{\"network\": {\n"
	"  \"allowedDomains\": [\"*.example.com\", \"github.com:443\",\n"
	"    \"localhost\", \"127.0.0.1:8080\", \"[::1]\", \"lan.test\",\n"
	"    {\"domain\": \"docs.example.com\", \"id\": \"docs\"}],\n"
	"  \"deniedDomains\": [{\"domain\": \"evil.example.com\", \"id\": "
	"\"evil\",\n"
	"    \"reason\": \"exfiltration\"}, \"*:25\", \"10.0.0.66\"],\n"
	"  \"unknownHosts\": \"ask\"}}\n";

static struct proxy_rules *
compile(const char *json)
{
	struct policy_diags d = { 0 };
	struct policy *doc = NULL, *eff = NULL;
	struct proxy_rules *r = NULL;
	char err[256] = "";

	if (json != NULL) {
		CHECK_INT(parse_as(json, POLICY_LAYER_USER, &doc, &d), 0);
		CHECK_INT(policy_merge((const struct policy *const *)&doc, 1,
		    HOME, &eff, &d), 0);
	}
	CHECK_INT(proxy_rules_compile(eff, &r, err, sizeof(err)), 0);
	policy_free(doc);
	policy_free(eff);
	policy_diag_free(&d);
	return r;
}

static enum netrule_verdict
decide(const struct proxy_rules *r, const char *host, uint16_t port,
    const char **value)
{
	const struct proxy_rule *m = NULL;
	struct host h = H(host);
	enum netrule_verdict v = proxy_rules_decide(r, &h, port, NULL, &m);

	*value = m ? m->o.value : NULL;
	return v;
}

static void
test_decide(void)
{
	struct proxy_rules *r = compile(user_json);
	const char *v;

	CHECK(r->ask);
	CHECK_STR(r->unknown.value, "ask");
	CHECK(r->unknown.has_layer);
	CHECK_INT(decide(r, "api.example.com", 443, &v), NETRULE_ALLOW);
	CHECK_STR(v, "*.example.com");
	CHECK_INT(decide(r, "example.com", 443, &v), NETRULE_UNKNOWN);
	CHECK_INT(decide(r, "Evil.Example.COM.", 443, &v), NETRULE_DENY);
	CHECK_STR(v, "evil.example.com");
	CHECK_INT(decide(r, "github.com", 443, &v), NETRULE_ALLOW);
	CHECK_INT(decide(r, "github.com", 80, &v), NETRULE_UNKNOWN);
	/* "*:25" denies every host on that port, before any allow. */
	CHECK_INT(decide(r, "api.example.com", 25, &v), NETRULE_DENY);
	CHECK_STR(v, "*:25");
	/* IPv4 shorthand is the same host as the rule. */
	CHECK_INT(decide(r, "2130706433", 8080, &v), NETRULE_ALLOW);
	CHECK_INT(decide(r, "0x7f.1", 8080, &v), NETRULE_ALLOW);
	CHECK_INT(decide(r, "127.1", 8081, &v), NETRULE_UNKNOWN);
	CHECK_INT(decide(r, "167772226", 80, &v), NETRULE_DENY);
	CHECK_STR(v, "10.0.0.66");
	CHECK_INT(decide(r, "[0:0::1]", 1, &v), NETRULE_ALLOW);
	proxy_rules_free(r);
}

static void
test_origin(void)
{
	struct proxy_rules *r = compile(user_json);
	const struct proxy_rule *m = NULL;
	struct host h = H("evil.example.com");
	char buf[128];

	CHECK_INT(proxy_rules_decide(r, &h, 443, NULL, &m), NETRULE_DENY);
	CHECK_STR(m->o.id, "evil");
	CHECK_STR(m->o.reason, "exfiltration");
	CHECK_STR(m->o.file, "t.json");
	CHECK_INT(m->o.layer, POLICY_LAYER_USER);
	CHECK(proxy_rules_describe(&m->o, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "network.deniedDomains \"evil.example.com\" id evil");
	CHECK_INT(proxy_rules_describe(&m->o, buf, 8), -ENOSPC);
	proxy_rules_free(r);
}

static enum netrule_verdict
addr(const struct proxy_rules *r, const char *name, const char *a,
    uint16_t port, enum addr_class *cls)
{
	const struct proxy_rule *by = NULL, *m = NULL;
	struct host h = H(name), ad = H(a);

	proxy_rules_decide(r, &h, port, NULL, &by);
	*cls = ADDR_PUBLIC;
	return proxy_rules_address(r, &h, by && proxy_rule_exact(by), &ad,
	    port, NULL, &m, cls);
}

static void
test_address(void)
{
	struct proxy_rules *r = compile(user_json);
	enum addr_class c;

	CHECK_INT(addr(r, "api.example.com", "93.184.216.34", 443, &c),
	    NETRULE_ALLOW);
	/* Rebinding: an allowed name resolving to loopback or private. */
	CHECK_INT(addr(r, "api.example.com", "127.0.0.1", 443, &c),
	    NETRULE_DENY);
	CHECK_INT(c, ADDR_LOOPBACK);
	CHECK_INT(addr(r, "lan.test", "192.168.1.5", 80, &c), NETRULE_DENY);
	CHECK_INT(c, ADDR_PRIVATE);
	CHECK_INT(addr(r, "lan.test", "169.254.169.254", 80, &c),
	    NETRULE_DENY);
	CHECK_INT(c, ADDR_METADATA);
	CHECK_INT(addr(r, "lan.test", "::ffff:10.1.2.3", 80, &c),
	    NETRULE_DENY);
	CHECK_INT(c, ADDR_PRIVATE);
	/* ... unless a rule names the address itself (and its port). */
	CHECK_INT(addr(r, "api.example.com", "127.0.0.1", 8080, &c),
	    NETRULE_ALLOW);
	CHECK_INT(addr(r, "127.0.0.1", "127.0.0.1", 8080, &c), NETRULE_ALLOW);
	CHECK_INT(addr(r, "::1", "::1", 9, &c), NETRULE_ALLOW);
	/* localhost allowed by name reaches loopback, and only loopback. */
	CHECK_INT(addr(r, "localhost", "127.0.0.1", 80, &c), NETRULE_ALLOW);
	CHECK_INT(addr(r, "localhost", "10.1.1.1", 80, &c), NETRULE_DENY);
	/* A deny rule on the address wins whatever the name. */
	CHECK_INT(addr(r, "api.example.com", "10.0.0.66", 443, &c),
	    NETRULE_DENY);
	proxy_rules_free(r);
}

static void
test_grants(void)
{
	struct proxy_rules *r = compile(NULL);
	const struct proxy_rule *m = NULL, *by;
	struct proxy_rule once;
	struct host h = H("new.test"), ip = H("10.9.9.9");
	enum addr_class c;

	CHECK(!r->ask);
	CHECK(!r->unknown.has_layer);
	CHECK_STR(r->unknown.value, "deny");
	CHECK_INT(proxy_rules_decide(r, &h, 443, NULL, &m), NETRULE_UNKNOWN);
	CHECK_INT(proxy_rules_grant(r, &h, 443), 0);
	CHECK_INT(proxy_rules_decide(r, &h, 443, NULL, &m), NETRULE_ALLOW);
	CHECK_STR(m->o.list, "approval");
	CHECK_STR(m->o.value, "new.test:443");
	CHECK_INT(proxy_rules_decide(r, &h, 444, NULL, &m), NETRULE_UNKNOWN);
	/* An approved name still may not reach a private address. */
	by = m;
	CHECK_INT(proxy_rules_address(r, &h, proxy_rule_exact(by), &ip, 443, NULL,
	    &m, &c),
	    NETRULE_DENY);
	/* An approved address literal may. */
	memset(&once, 0, sizeof(once));
	once.nr.host = ip;
	once.nr.port = 80;
	CHECK_INT(proxy_rules_decide(r, &ip, 80, &once, &m), NETRULE_ALLOW);
	CHECK(m == &once);
	CHECK_INT(proxy_rules_address(r, &ip, true, &ip, 80, &once, &m, &c),
	    NETRULE_ALLOW);
	proxy_rules_free(r);
}

static void
test_refused(void)
{
	static const char any_json[] = "{\"network\": {\"deniedDomains\": "
	    "[\"*\"], \"allowedDomains\": [\"a.test\"]}}";
	struct proxy_rules *r = compile(any_json);
	const char *v;

	CHECK_INT(decide(r, "a.test", 1, &v), NETRULE_DENY);
	CHECK_STR(v, "*");
	proxy_rules_free(r);
}

/* allowPrivate opens private and reserved addresses to that name only. */
static void
test_private(void)
{
	static const char json[] = "{\"network\": {\"allowedDomains\": [\n"
	    "  {\"domain\": \"mirror.corp\", \"allowPrivate\": true},\n"
	    "  {\"domain\": \"*.lan.corp\", \"allowPrivate\": true},\n"
	    "  {\"domain\": \"registry.test\", \"id\": \"reg\"},\n"
	    "  \"other.corp\"],\n"
	    "  \"deniedDomains\": [\"10.0.0.66\"]}}";
	struct proxy_rules *r = compile(json);
	const struct proxy_rule *fix;
	struct host h = H("registry.test"), ip = H("10.1.1.1");
	enum addr_class c;

	CHECK_INT(addr(r, "mirror.corp", "10.1.2.3", 443, &c), NETRULE_ALLOW);
	CHECK_INT(addr(r, "mirror.corp", "203.0.113.80", 443, &c),
	    NETRULE_ALLOW);
	CHECK_INT(addr(r, "mirror.corp", "100.64.0.1", 443, &c),
	    NETRULE_ALLOW);
	CHECK_INT(addr(r, "mirror.corp", "fd00::1", 443, &c), NETRULE_ALLOW);
	CHECK_INT(addr(r, "a.lan.corp", "192.168.1.1", 80, &c),
	    NETRULE_ALLOW);
	/* Never the host itself, link-local or metadata. */
	CHECK_INT(addr(r, "mirror.corp", "127.0.0.1", 443, &c), NETRULE_DENY);
	CHECK_INT(addr(r, "mirror.corp", "0.0.0.0", 443, &c), NETRULE_DENY);
	CHECK_INT(addr(r, "mirror.corp", "::1", 443, &c), NETRULE_DENY);
	CHECK_INT(addr(r, "mirror.corp", "169.254.1.1", 443, &c),
	    NETRULE_DENY);
	CHECK_INT(addr(r, "mirror.corp", "169.254.169.254", 80, &c),
	    NETRULE_DENY);
	CHECK_INT(c, ADDR_METADATA);
	/* A deny rule on the address still wins. */
	CHECK_INT(addr(r, "mirror.corp", "10.0.0.66", 443, &c), NETRULE_DENY);
	/* Other names keep the rebinding guard. */
	CHECK_INT(addr(r, "other.corp", "10.1.2.3", 443, &c), NETRULE_DENY);
	CHECK_INT(addr(r, "registry.test", "203.0.113.80", 443, &c),
	    NETRULE_DENY);
	CHECK_INT(c, ADDR_RESERVED);
	/* An address literal is not a name: allowPrivate does not apply. */
	CHECK_INT(proxy_rules_address(r, &ip, true, &ip, 443, NULL, &fix,
	    &c), NETRULE_DENY);
	/* What a denial names as the fix. */
	CHECK((fix = proxy_rules_private_fix(r, &h, 443)) != NULL);
	CHECK_STR(fix->o.value, "registry.test");
	CHECK_STR(fix->o.id, "reg");
	CHECK(proxy_rules_private_fix(r, &ip, 443) == NULL);
	CHECK(proxy_rules_private_ok(ADDR_RESERVED));
	CHECK(!proxy_rules_private_ok(ADDR_LINK_LOCAL));
	CHECK(!proxy_rules_private_ok(ADDR_LOOPBACK));
	proxy_rules_free(r);
}

/* network.parentProxy: which destinations go through which upstream. */
static void
test_upstream(void)
{
	static const char json[] = "{\"network\": {\"parentProxy\": {"
	    "\"http\": \"http://u:p@web.proxy:8080\", "
	    "\"https\": \"http://tls.proxy:3128\", "
	    "\"noProxy\": [\"corp.test\", \"10.0.0.0/8\"]}}}";
	static const char only[] = "{\"network\": {\"parentProxy\": {"
	    "\"http\": \"http://one.proxy\"}}}";
	static const char env[] = "{\"network\": {\"parentProxy\": \"env\"}}";
	struct proxy_rules *r = compile(json);
	struct host a = H("api.example.com"), c = H("git.corp.test"),
	    ten = H("10.2.3.4"), lo = H("127.0.0.1"), lh = H("localhost"),
	    six = H("::1");
	const struct upstream_url *u;
	char err[256];

	CHECK(r->up != NULL);
	CHECK((u = upstream_for(r->up, &a, 80, true)) != NULL);
	CHECK_STR(u->host.text, "web.proxy");
	CHECK_INT(u->port, 8080);
	CHECK_STR(u->auth, "Basic dTpw");
	CHECK((u = upstream_for(r->up, &a, 443, false)) != NULL);
	CHECK_STR(u->host.text, "tls.proxy");
	CHECK_STR(u->auth, "");
	CHECK(upstream_for(r->up, &c, 443, false) == NULL);
	CHECK(upstream_for(r->up, &ten, 443, false) == NULL);
	CHECK(upstream_for(r->up, &lo, 80, true) == NULL);
	CHECK(upstream_for(r->up, &lh, 80, true) == NULL);
	CHECK(upstream_for(r->up, &six, 80, false) == NULL);
	CHECK(upstream_for(NULL, &a, 80, true) == NULL);
	proxy_rules_free(r);
	/* One URL serves both. */
	r = compile(only);
	CHECK((u = upstream_for(r->up, &a, 443, false)) != NULL);
	CHECK_STR(u->host.text, "one.proxy");
	CHECK_INT(u->port, 80);
	proxy_rules_free(r);
	/* "env": the daemon's own variables, lower case first. */
	setenv("https_proxy", "http://low.proxy:1", 1);
	setenv("HTTPS_PROXY", "http://up.proxy:2", 1);
	setenv("NO_PROXY", "api.example.com", 1);
	unsetenv("http_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("no_proxy");
	r = compile(env);
	CHECK(r->up != NULL && r->up->from_env);
	CHECK((u = upstream_for(r->up, &c, 443, true)) != NULL);
	CHECK_STR(u->host.text, "low.proxy");
	CHECK(upstream_for(r->up, &a, 443, false) == NULL);
	proxy_rules_free(r);
	/* A bad one in the environment fails the compile (the proxy then
	 * denies everything), without quoting it. */
	setenv("https_proxy", "https://u:Secret@x:1", 1);
	{
		struct policy_diags d = { 0 };
		struct policy *doc = NULL, *eff = NULL;

		CHECK_INT(parse_as(env, POLICY_LAYER_USER, &doc, &d), 0);
		CHECK_INT(policy_merge((const struct policy *const *)&doc, 1,
		    HOME, &eff, &d), 0);
		CHECK_INT(proxy_rules_compile(eff, &r, err, sizeof(err)),
		    -EINVAL);
		CHECK(strstr(err, "Secret") == NULL);
		CHECK(strstr(err, "TLS") != NULL);
		policy_free(doc);
		policy_free(eff);
		policy_diag_free(&d);
	}
	/* Nothing in the environment: direct. */
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	r = compile(env);
	CHECK(r->up == NULL);
	proxy_rules_free(r);
}

int
main(void)
{
	test_upstream();
	test_private();
	test_decide();
	test_origin();
	test_address();
	test_grants();
	test_refused();
	UNIT_DONE();
}
