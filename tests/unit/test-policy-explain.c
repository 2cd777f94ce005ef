/* Unit tests for explain: decisions on paths, hosts and variables. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/explain.h"
#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "unit.h"

static const char org_json[] =
	"{\"filesystem\": {\n"
	"  \"denyRead\": [{\"path\": \"~/.ssh\", \"id\": \"ssh\",\n"
	"                \"reason\": \"keys\"}],\n"
	"  \"allowRead\": [\"~/.ssh/known_hosts\"],\n"
	"  \"allowWrite\": [{\"path\": \"~\", \"id\": \"home\"}]},\n"
	" \"network\": {\"allowedDomains\": [\"*.example.com\", "
	"\"github.com\"],\n"
	"   \"deniedDomains\": [\"pastebin.com\"], "
	"\"unknownHosts\": \"ask\"},\n"
	" \"env\": {\"pass\": [\"*\"], \"deny\": [\"*TOKEN*\"]}}\n";
static const char user_json[] =
	"{\"filesystem\": {\"denyRead\": [\"~/.aws\"],\n"
	"  \"allowWrite\": [{\"path\": \".\", \"id\": \"ws\"}]},\n"
	" \"network\": {\"allowedDomains\": [\"*.example.com\", "
	"\"github.com\"]},\n"
	" \"env\": {\"pass\": [\"PATH\", \"LC_*\", \"GITHUB_TOKEN\"]}}\n";
static const char ws_json[] =
	"{\"filesystem\": {\"allowRead\": [\"~/.aws/config\"],\n"
	"  \"denyRead\": [\"**/*.pem\"], \"denyWrite\": [\".env\"]},\n"
	" \"network\": {\"deniedDomains\": [{\"domain\": \"*:22\", \"id\": "
	"\"no-ssh\"}]}}\n";

static struct policy *
effective(void)
{
	static const struct {
		enum policy_layer layer;
		const char *file, *text;
	} in[3] = {
		{ POLICY_LAYER_ORG, "org.json", org_json },
		{ POLICY_LAYER_USER, "user.json", user_json },
		{ POLICY_LAYER_WORKSPACE, "ws.json", ws_json },
	};
	struct policy_diags d = { 0 };
	struct policy *docs[3] = { NULL }, *eff = NULL;
	struct policy_ctx ctx = { 0, NULL, HOME, WS };
	int i;

	for (i = 0; i < 3; i++) {
		ctx.layer = in[i].layer;
		ctx.file = in[i].file;
		CHECK_INT(policy_parse(in[i].text, strlen(in[i].text), &ctx,
		    &docs[i], &d), 0);
	}
	CHECK_INT(policy_merge((const struct policy *const *)docs, 3, HOME,
	    &eff, &d), 0);
	for (i = 0; i < 3; i++)
		policy_free(docs[i]);
	policy_diag_free(&d);
	return eff;
}

/* Decides path and checks verdict, target, layer and value of the rule. */
static void
path(const struct policy *p, const char *in, enum policy_access a,
    enum policy_verdict v, int layer, const char *rule)
{
	struct policy_decision d;

	CHECK_INT(policy_explain_path(p, in, a, HOME, HOME, WS, &d), 0);
	CHECK_INT(d.verdict, v);
	if (rule == NULL) {
		CHECK(d.rule == NULL);
		return;
	}
	CHECK(d.rule != NULL);
	if (d.rule != NULL) {
		CHECK_STR(d.rule->value, rule);
		CHECK_INT(d.rule->origin.layer, layer);
	}
}

static void
test_read(const struct policy *p)
{
	path(p, "~/.ssh/id_rsa", POLICY_ACCESS_READ, POLICY_VERDICT_DENY,
	    POLICY_LAYER_ORG, HOME "/.ssh");
	path(p, "~/.ssh/known_hosts", POLICY_ACCESS_READ, POLICY_VERDICT_ALLOW,
	    POLICY_LAYER_ORG, HOME "/.ssh/known_hosts");
	/* The workspace's carve-out cannot re-open the user's denial. */
	path(p, "~/.aws/config", POLICY_ACCESS_READ, POLICY_VERDICT_DENY,
	    POLICY_LAYER_USER, HOME "/.aws");
	path(p, "certs/server.pem", POLICY_ACCESS_READ, POLICY_VERDICT_DENY,
	    POLICY_LAYER_WORKSPACE, WS "/**/*.pem");
	path(p, "/etc/passwd", POLICY_ACCESS_READ, POLICY_VERDICT_ALLOW, 0,
	    NULL);
}

static void
test_write(const struct policy *p)
{
	path(p, "src/main.c", POLICY_ACCESS_WRITE, POLICY_VERDICT_ALLOW,
	    POLICY_LAYER_USER, WS);
	path(p, WS "/./src/../.git/hooks/pre-commit", POLICY_ACCESS_WRITE,
	    POLICY_VERDICT_DENY, POLICY_LAYER_BUILTIN, "/**/.git/hooks");
	path(p, "vendor/lib/.git/config", POLICY_ACCESS_WRITE,
	    POLICY_VERDICT_DENY, POLICY_LAYER_BUILTIN, "/**/.git/config");
	path(p, ".env", POLICY_ACCESS_WRITE, POLICY_VERDICT_DENY,
	    POLICY_LAYER_WORKSPACE, WS "/.env");
	path(p, ".sbx/policy.json", POLICY_ACCESS_WRITE, POLICY_VERDICT_DENY,
	    POLICY_LAYER_BUILTIN, "/**/.sbx");
	/* Both masked (org) and protected (builtin): the builtin decides. */
	path(p, "~/.ssh/authorized_keys", POLICY_ACCESS_WRITE,
	    POLICY_VERDICT_DENY, POLICY_LAYER_BUILTIN, HOME "/.ssh");
	/* Masked by the workspace only: writes follow reads. */
	path(p, "key.pem", POLICY_ACCESS_WRITE, POLICY_VERDICT_DENY,
	    POLICY_LAYER_WORKSPACE, WS "/**/*.pem");
	/* The home is an overlay by default: writes land in its layer. */
	path(p, "~/notes.txt", POLICY_ACCESS_WRITE, POLICY_VERDICT_ALLOW, 0,
	    NULL);
	path(p, "/etc/hosts", POLICY_ACCESS_WRITE, POLICY_VERDICT_DENY, 0,
	    NULL);
}

/* filesystem.home: the overlay by default; "read-only" from any layer
 * wins, and explain names it. */
static void
test_home(const struct policy *p)
{
	static const char ro[] = "{\"filesystem\": {\"home\": \"read-only\"}}";
	static const char ov[] = "{\"filesystem\": {\"home\": \"overlay\"}}";
	struct policy_diags d = { 0 };
	struct policy *docs[2], *eff = NULL;
	struct policy_decision dec;
	char buf[512];

	CHECK_INT(policy_explain_path(p, "~/.cache/x", POLICY_ACCESS_WRITE,
	    HOME, HOME, WS, &dec), 0);
	CHECK_INT(dec.verdict, POLICY_VERDICT_ALLOW);
	CHECK(dec.setting == NULL);
	CHECK(policy_explain_format(&dec, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "allow write " HOME "/.cache/x: in the home overlay: "
	    "the write lands in this workspace's layer, never in the real "
	    "home\n  rule: none, the default");
	/* No overlay in this sandbox (kernel, macOS): the home is not
	 * writable, whatever the setting says. */
	CHECK_INT(policy_explain_path(p, "~/.cache/x", POLICY_ACCESS_WRITE,
	    HOME, NULL, WS, &dec), 0);
	CHECK_INT(dec.verdict, POLICY_VERDICT_DENY);
	CHECK_INT(parse_as(ro, POLICY_LAYER_USER, &docs[0], &d), 0);
	CHECK_INT(parse_as(ov, POLICY_LAYER_WORKSPACE, &docs[1], &d), 0);
	CHECK_INT(policy_merge((const struct policy *const *)docs, 2, HOME,
	    &eff, &d), 0);
	CHECK_INT(eff->settings[POLICY_HOME].value, POLICY_HOME_READ_ONLY);
	CHECK_INT(policy_explain_path(eff, "~/.cache/x", POLICY_ACCESS_WRITE,
	    HOME, HOME, WS, &dec), 0);
	CHECK_INT(dec.verdict, POLICY_VERDICT_DENY);
	CHECK(policy_explain_format(&dec, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "deny write " HOME "/.cache/x: the home is read-only "
	    "(filesystem.home)\n  rule: filesystem.home \"read-only\"\n"
	    "  from: user t.json:1:17");
	/* Nor in the workspace, which the overlay never shadows. */
	CHECK_INT(policy_explain_path(eff, WS "/x", POLICY_ACCESS_WRITE,
	    HOME, HOME, WS, &dec), 0);
	CHECK(dec.setting == NULL);
	/* Outside the home the setting plays no part. */
	CHECK_INT(policy_explain_path(eff, "/etc/x", POLICY_ACCESS_WRITE,
	    HOME, HOME, WS, &dec), 0);
	CHECK(dec.setting == NULL);
	CHECK_INT(d.errors, 0);
	policy_free(eff);
	policy_free(docs[0]);
	policy_free(docs[1]);
	policy_diag_free(&d);
}

static void
host(const struct policy *p, const char *in, int ret, enum policy_verdict v,
    const char *target, const char *rule)
{
	struct policy_decision d;

	CHECK_INT(policy_explain_host(p, in, &d), ret);
	if (ret != 0)
		return;
	CHECK_INT(d.verdict, v);
	CHECK_STR(d.target, target);
	if (rule == NULL)
		CHECK(d.rule == NULL);
	else
		CHECK_STR(d.rule ? d.rule->value : NULL, rule);
}

static void
test_hosts(const struct policy *p)
{
	host(p, "api.example.com", 0, POLICY_VERDICT_ALLOW,
	    "api.example.com:443", "*.example.com");
	host(p, "API.Example.COM.:8080", 0, POLICY_VERDICT_ALLOW,
	    "api.example.com:8080", "*.example.com");
	host(p, "github.com:22", 0, POLICY_VERDICT_DENY, "github.com:22",
	    "*:22");
	host(p, "pastebin.com", 0, POLICY_VERDICT_DENY, "pastebin.com:443",
	    "pastebin.com");
	host(p, "example.com", 0, POLICY_VERDICT_ASK, "example.com:443", NULL);
	host(p, "2130706433:80", 0, POLICY_VERDICT_ASK, "127.0.0.1:80", NULL);
	host(p, "[::1]:8080", 0, POLICY_VERDICT_ASK, "[::1]:8080", NULL);
	host(p, "a b.com", -EINVAL, 0, NULL, NULL);
	host(p, "x.com:99999", -EINVAL, 0, NULL, NULL);
	host(p, "", -EINVAL, 0, NULL, NULL);
}

static void
test_env(const struct policy *p)
{
	struct policy_decision d;

	CHECK_INT(policy_explain_env(p, "LC_ALL", "C", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_ALLOW);
	CHECK_STR(d.rule ? d.rule->value : NULL, "LC_*");
	/* env.deny first, even over a rule naming it. */
	CHECK_INT(policy_explain_env(p, "GITHUB_TOKEN", "x", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_DENY);
	CHECK_STR(d.rule ? d.rule->value : NULL, "*TOKEN*");
	CHECK_STR(d.why, "matches env.deny");
	CHECK_INT(policy_explain_env(p, "HOME", "/h", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_DENY);
	CHECK(d.rule == NULL);
	CHECK_STR(d.why, "not in env.pass");
	/* An exact name of the user layer passes even a secret value. */
	CHECK_INT(policy_explain_env(p, "PATH", "http://a:b@c/", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_ALLOW);
	CHECK_STR(d.why, "named in env.pass");
	/* A glob does not. */
	CHECK_INT(policy_explain_env(p, "LC_X", "postgres://a:pw@h/d", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_DENY);
	CHECK(d.rule == NULL);
	CHECK_STR(d.why, "its value is a URL with a password");
	/* No env lists at all: everything but secrets. */
	CHECK_INT(policy_explain_env(NULL, "NODE_ENV", "test", &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_ALLOW);
	CHECK_STR(d.why, "not a secret by name or value");
	CHECK_INT(policy_explain_env(NULL, "NPM_TOKEN", NULL, &d), 0);
	CHECK_INT(d.verdict, POLICY_VERDICT_DENY);
	CHECK_STR(d.why, "a credential-looking name (TOKEN)");
}

static void
test_format(const struct policy *p)
{
	struct policy_decision d;
	char buf[1024], small[16];

	policy_explain_path(p, "~/.ssh/id_rsa", POLICY_ACCESS_READ, HOME,
	    HOME, WS, &d);
	CHECK(policy_explain_format(&d, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "deny read " HOME "/.ssh/id_rsa: under a denyRead "
	    "path\n  rule: filesystem.denyRead \"" HOME "/.ssh\" (id ssh)\n"
	    "  from: org org.json:2:16\n  reason: keys");
	policy_explain_path(p, "src/x.c", POLICY_ACCESS_WRITE, HOME, HOME, WS, &d);
	policy_explain_format(&d, buf, sizeof(buf));
	CHECK_STR(buf, "allow write " WS "/src/x.c: inside an allowWrite "
	    "path\n  rule: filesystem.allowWrite \"" WS "\" (id ws)\n"
	    "  from: user user.json:2:18\n  within: org org.json:5:18");
	policy_explain_host(p, "example.com", &d);
	policy_explain_format(&d, buf, sizeof(buf));
	CHECK_STR(buf, "ask connect example.com:443: not in allowedDomains\n"
	    "  rule: network.unknownHosts \"ask\"\n"
	    "  from: org org.json:7:39");
	policy_explain_path(p, "/etc/hosts", POLICY_ACCESS_WRITE, HOME,
	    HOME, WS, &d);
	policy_explain_format(&d, buf, sizeof(buf));
	CHECK_STR(buf, "deny write /etc/hosts: outside every allowWrite path\n"
	    "  rule: none, the default");
	CHECK_INT(policy_explain_format(&d, small, sizeof(small)), -ENOSPC);
	CHECK_INT(strlen(small), sizeof(small) - 1);
}

int
main(void)
{
	struct policy *p = effective();

	CHECK(p != NULL);
	if (p != NULL) {
		test_read(p);
		test_write(p);
		test_hosts(p);
		test_env(p);
		test_format(p);
		test_home(p);
	}
	policy_free(p);
	UNIT_DONE();
}
