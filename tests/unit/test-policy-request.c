/* Unit tests for policy-request.c: the sbxd --policy user layer narrowed by a run's flags. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy-request.h"
#include "unit.h"

static const char user_json[] =
	"{\"network\": {\"allowedDomains\": [\"*.example.com\", "
	"\"github.com\"], \"unknownHosts\": \"ask\"}}\n";

static char path[] = "/tmp/sbx-policy-request-XXXXXX";

static void
write_user(const char *text)
{
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK_INT(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
}

static const char *
allowed(const struct policy *p, size_t i)
{
	const struct policy_rules *l = &p->lists[POLICY_ALLOWED_DOMAINS];

	return i < l->n ? l->v[i].value : NULL;
}

static void
test_layers(void)
{
	Sbx__PolicyOverrides o = SBX__POLICY_OVERRIDES__INIT;
	char *doms[] = { (char *)"api.example.com", (char *)"elsewhere.test" };
	struct policy *p = NULL;
	char err[512] = "";

	/* The user layer alone. */
	CHECK_INT(policy_request_build(NULL, "/ws", &p, err, sizeof(err)), 0);
	CHECK(p != NULL);
	CHECK_STR(allowed(p, 0), "*.example.com");
	CHECK_INT(p->settings[POLICY_UNKNOWN_HOSTS].value, POLICY_HOSTS_ASK);
	policy_free(p);

	/* --allow-domain narrows: what lies outside the user layer goes. */
	o.allow_domains = doms;
	o.n_allow_domains = 2;
	CHECK_INT(policy_request_build(&o, "/ws", &p, err, sizeof(err)), 0);
	CHECK_STR(allowed(p, 0), "api.example.com");
	CHECK(allowed(p, 1) == NULL);
	CHECK_STR(p->lists[POLICY_ALLOWED_DOMAINS].v[0].origin.file,
	    "--allow-domain");
	policy_free(p);

	/* --policy adds a denial, with its file. */
	o.n_allow_domains = 0;
	o.policy_json =
	    (char *)"{\"network\": {\"deniedDomains\": [\"github.com\"]}}";
	o.policy_file = (char *)"/ws/req.json";
	CHECK_INT(policy_request_build(&o, "/ws", &p, err, sizeof(err)), 0);
	CHECK_STR(p->lists[POLICY_DENIED_DOMAINS].v[0].value, "github.com");
	CHECK_STR(p->lists[POLICY_DENIED_DOMAINS].v[0].origin.file,
	    "/ws/req.json");
	CHECK_INT(p->lists[POLICY_DENIED_DOMAINS].v[0].origin.layer,
	    POLICY_LAYER_REQUEST);
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
	CHECK_INT(policy_request_build(&o, "/ws", &p, err, sizeof(err)),
	    -EINVAL);
	CHECK(p == NULL);
	CHECK(strstr(err, "--allow-domain: error: network.allowedDomains") ==
	    err);
	o.n_allow_domains = 0;
	o.policy_json = (char *)"{\"network\": {\n \"unknownHosts\": 3}}";
	o.policy_file = (char *)"/ws/bad.json";
	CHECK_INT(policy_request_build(&o, "/ws", &p, err, sizeof(err)),
	    -EINVAL);
	CHECK(strncmp(err, "/ws/bad.json:2:", 15) == 0);
	o.policy_json = (char *)"";
	o.deny_read = paths;
	o.n_deny_read = 1;
	CHECK_INT(policy_request_build(&o, "/ws", &p, err, sizeof(err)),
	    -ENOTSUP);
}

int
main(void)
{
	char err[512] = "";
	struct policy *p = (struct policy *)1;

	/* No user layer, no flags: no policy at all. */
	CHECK_INT(policy_request_init(NULL, "/home/alice", err, sizeof(err)),
	    0);
	CHECK_INT(policy_request_build(NULL, "/ws", &p, err, sizeof(err)), 0);
	CHECK(p == NULL);
	policy_request_cleanup();

	write_user("{\"network\": {\"unknownHosts\": \"maybe\"}}");
	CHECK_INT(policy_request_init(path, "/home/alice", err, sizeof(err)),
	    -EINVAL);
	CHECK(strncmp(err, path, strlen(path)) == 0);
	policy_request_cleanup();
	unlink(path);

	strcpy(path, "/tmp/sbx-policy-request-XXXXXX");
	write_user(user_json);
	CHECK_INT(policy_request_init(path, "/home/alice", err, sizeof(err)),
	    0);
	test_layers();
	test_refused();
	policy_request_cleanup();
	unlink(path);
	UNIT_DONE();
}
