/* policy/request.c: run flags and --policy text become the request layer,
 * which narrows and never widens. */
#include <errno.h>
#include <string.h>

#include "daemon/policy/explain.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/request.h"
#include "policy-unit.h"
#include "unit.h"

static const char user_json[] =
	"{\"filesystem\": {\"allowWrite\": [\".\", \"/tmp\"]},"
	" \"network\": {\"allowedDomains\": [\"*.example.com\", \"github.com\"]}}";

/* The effective policy of the fixed user layer plus this request. */
static struct policy *
effective(const struct policy *req)
{
	struct policy_diags d = { 0 };
	struct policy *user = NULL, *eff = NULL;
	const struct policy *docs[2];

	CHECK_INT(parse_as(user_json, POLICY_LAYER_USER, &user, &d), 0);
	docs[0] = user;
	docs[1] = req;
	CHECK_INT(policy_merge(docs, req ? 2 : 1, HOME, &eff, &d), 0);
	policy_free(user);
	policy_diag_free(&d);
	return eff;
}

static enum policy_verdict
host(const struct policy *eff, const char *h)
{
	struct policy_decision d;

	CHECK_INT(policy_explain_host(eff, h, &d), 0);
	return d.verdict;
}

static enum policy_verdict
path(const struct policy *eff, const char *p, enum policy_access a,
     const char **file)
{
	struct policy_decision d;

	CHECK_INT(policy_explain_path(eff, p, a, HOME, HOME, WS, &d), 0);
	*file = d.rule ? d.rule->origin.file : "";
	return d.verdict;
}

static void
test_none(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	struct policy *p = (struct policy *)&o;
	char err[256] = "";

	CHECK_INT(policy_request_from_overrides(NULL, HOME, WS, &p, err,
						sizeof(err)), 0);
	CHECK(p == NULL);
	p = (struct policy *)&o;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &p, err,
						sizeof(err)), 0);
	CHECK(p == NULL);
}

static void
test_flags_narrow(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *domains[] = { (char *)"api.example.com", (char *)"evil.org" };
	char *deny[] = { (char *)WS "/secrets" };
	char *write[] = { (char *)WS "/build", (char *)"/etc" };
	struct policy *req = NULL, *eff;
	const char *file;
	char err[256] = "";

	o.allow_domains = domains;
	o.n_allow_domains = 2;
	o.deny_read = deny;
	o.n_deny_read = 1;
	o.allow_write = write;
	o.n_allow_write = 2;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), 0);
	CHECK(req != NULL);
	if (!req)
		return;
	CHECK_INT(req->layer, POLICY_LAYER_REQUEST);
	eff = effective(req);
	/* narrowed to the flag, within what the user allowed */
	CHECK_INT(host(eff, "api.example.com"), POLICY_VERDICT_ALLOW);
	CHECK_INT(host(eff, "www.example.com"), POLICY_VERDICT_DENY);
	CHECK_INT(host(eff, "github.com"), POLICY_VERDICT_DENY);
	/* never widened: the user never allowed evil.org or /etc */
	CHECK_INT(host(eff, "evil.org"), POLICY_VERDICT_DENY);
	CHECK_INT(path(eff, "/etc/passwd", POLICY_ACCESS_WRITE, &file),
		  POLICY_VERDICT_DENY);
	CHECK_INT(path(eff, WS "/build/x", POLICY_ACCESS_WRITE, &file),
		  POLICY_VERDICT_ALLOW);
	CHECK_STR(file, "--allow-write");
	CHECK_INT(path(eff, WS "/src/x", POLICY_ACCESS_WRITE, &file),
		  POLICY_VERDICT_DENY);
	CHECK_INT(path(eff, WS "/secrets/k", POLICY_ACCESS_READ, &file),
		  POLICY_VERDICT_DENY);
	CHECK_STR(file, "--deny-read");
	policy_free(eff);
	policy_free(req);
}

static void
test_policy_text(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *domains[] = { (char *)"github.com" };
	struct policy *req = NULL, *eff;
	const char *file;
	char err[256] = "";

	o.policy_json = (char *)"{\"filesystem\": {\"denyRead\": [\"keys\"]},\n"
				" \"network\": {\"allowedDomains\": "
				"[\"github.com\", \"*.example.com\"]}}";
	o.policy_file = (char *)"/home/alice/run.json";
	o.allow_domains = domains;
	o.n_allow_domains = 1;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), 0);
	if (!req)
		return;
	eff = effective(req);
	/* a relative path of the file resolves against the workspace */
	CHECK_INT(path(eff, WS "/keys/a", POLICY_ACCESS_READ, &file),
		  POLICY_VERDICT_DENY);
	CHECK_STR(file, "/home/alice/run.json");
	/* file and flags are one layer: their rules add up */
	CHECK_INT(host(eff, "github.com"), POLICY_VERDICT_ALLOW);
	CHECK_INT(host(eff, "www.example.com"), POLICY_VERDICT_ALLOW);
	policy_free(eff);
	policy_free(req);
}

static void
test_errors(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *bad_domain[] = { (char *)"exa mple.com" };
	char *ctl[] = { (char *)"/tmp/a\nb" };
	struct policy *req = NULL;
	char err[256] = "";

	o.policy_json = (char *)"{\n  \"filesystem\": {\"denyRead\": 3}\n}";
	o.policy_file = (char *)"run.json";
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(req == NULL);
	CHECK(strncmp(err, "run.json:2:30: error:", 21) == 0);

	/* a request may not carry an org serial */
	o.policy_json = (char *)"{\"serial\": 4}";
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(strstr(err, "serial") != NULL);

	/* a name with a newline is not echoed */
	o.policy_json = (char *)"{\"x\": }";
	o.policy_file = (char *)"a\nb";
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(strncmp(err, "--policy:1:", 11) == 0);

	o.policy_json = NULL;
	o.allow_domains = bad_domain;
	o.n_allow_domains = 1;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(strncmp(err, "--allow-domain: error:", 22) == 0);
	o.n_allow_domains = 0;
	o.deny_read = ctl;
	o.n_deny_read = 1;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(strstr(err, "control character") != NULL);
	o.n_deny_read = POLICY_MAX_RULES + 1;
	CHECK_INT(policy_request_from_overrides(&o, HOME, WS, &req, err,
						sizeof(err)), -EINVAL);
	CHECK(strstr(err, "more than") != NULL);
	CHECK(req == NULL);
}

int
main(void)
{
	test_none();
	test_flags_narrow();
	test_policy_text();
	test_errors();
	UNIT_DONE();
}
