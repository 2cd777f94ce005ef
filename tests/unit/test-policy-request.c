/* Unit tests for policy-request.c: a run's request layer, from
 * --allow-domain and --policy, and what it refuses. (Narrowing by the
 * layers above is policy_merge's, tested in test-policy-merge.c.) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-request.h"
#include "unit.h"

static const char *
allowed(const struct policy *p, size_t i)
{
	const struct policy_rules *l = &p->lists[POLICY_ALLOWED_DOMAINS];

	return i < l->n ? l->v[i].value : NULL;
}

static void
test_layer(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *doms[] = { (char *)"api.example.com", (char *)"elsewhere.test" };
	struct policy *p = (struct policy *)1;
	char err[512] = "";

	/* No overrides: no request layer. */
	CHECK_INT(policy_request_build(NULL, "/ws", "/home/alice", &p, err,
	    sizeof(err)), 0);
	CHECK(p == NULL);
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), 0);
	CHECK(p == NULL);

	/* --allow-domain: a request-layer document of its own. */
	o.allow_domains = doms;
	o.n_allow_domains = 2;
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), 0);
	CHECK(p != NULL);
	CHECK_INT(p->layer, POLICY_LAYER_REQUEST);
	CHECK_STR(allowed(p, 0), "api.example.com");
	CHECK_STR(allowed(p, 1), "elsewhere.test");
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[0].origin.file,
	    "--allow-domain");
	policy_free(p);

	/* --policy and --allow-domain together: one document, each rule
	 * with its origin. */
	o.n_allow_domains = 1;
	o.policy_json =
	    (char *)"{\"network\": {\"deniedDomains\": [\"github.com\"]}}";
	o.policy_file = (char *)"/ws/req.json";
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), 0);
	CHECK_STR(p->lists[POLICY_DENIED_DOMAINS].v[0].value, "github.com");
	CHECK_STR(p->lists[POLICY_DENIED_DOMAINS].v[0].origin.file,
	    "/ws/req.json");
	CHECK_INT(p->lists[POLICY_DENIED_DOMAINS].v[0].origin.layer,
	    POLICY_LAYER_REQUEST);
	CHECK_STR(allowed(p, 0), "api.example.com");
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[0].origin.file,
	    "--allow-domain");
	policy_free(p);
}

static void
test_refused(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *bad[] = { (char *)"http://x/" }, *paths[] = { (char *)"/etc" };
	struct policy *p = NULL;
	char err[512] = "";

	o.allow_domains = bad;
	o.n_allow_domains = 1;
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), -EINVAL);
	CHECK(p == NULL);
	CHECK(strstr(err, "--allow-domain: error: network.allowedDomains") ==
	    err);
	o.n_allow_domains = 0;
	o.policy_json = (char *)"{\"network\": {\n \"unknownHosts\": 3}}";
	o.policy_file = (char *)"/ws/bad.json";
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), -EINVAL);
	CHECK(strncmp(err, "/ws/bad.json:2:", 15) == 0);
	o.policy_json = (char *)"";
	o.deny_read = paths;
	o.n_deny_read = 1;
	CHECK_INT(policy_request_build(&o, "/ws", "/home/alice", &p, err,
	    sizeof(err)), -ENOTSUP);
}

int
main(void)
{
	test_layer();
	test_refused();
	UNIT_DONE();
}
