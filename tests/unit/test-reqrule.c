/* Unit tests for request rules: "METHODS PATH" syntax, the path pattern, the policy keys, and the per-layer verdict. */
#include <errno.h>
#include <stdlib.h>

#include "daemon/policy/merge.h"
#include "daemon/policy/render.h"
#include "daemon/policy/reqrule.h"
#include "daemon/proxy/inspect-rules.h"
#include "policy-unit.h"
#include "unit.h"

static void
test_spec(void)
{
	const char *why = NULL;
	unsigned m = 0;
	char *path = NULL;

	CHECK_INT(policy_reqrule_spec("GET /*", &m, &path, &why), 0);
	CHECK_INT(m, REQRULE_GET);
	CHECK_STR(path, "/*");
	free(path);
	CHECK_INT(policy_reqrule_spec("GET,HEAD,OPTIONS *", &m, &path, &why),
	    0);
	CHECK_INT(m, REQRULE_READ_ONLY);
	free(path);
	CHECK_INT(policy_reqrule_spec("* /x", &m, &path, &why), 0);
	CHECK_INT(m, REQRULE_ANY);
	free(path);
	CHECK_INT(policy_reqrule_spec("get /x", &m, &path, &why), -EINVAL);
	CHECK(strstr(why, "methods") != NULL);
	CHECK_INT(policy_reqrule_spec("GET", &m, &path, &why), -EINVAL);
	CHECK_INT(policy_reqrule_spec(" /x", &m, &path, &why), -EINVAL);
	CHECK_INT(policy_reqrule_spec("GET x", &m, &path, &why), -EINVAL);
	CHECK_INT(policy_reqrule_spec("GET /a b", &m, &path, &why), -EINVAL);
	CHECK_INT(policy_reqrule_spec("GET,,HEAD /", &m, &path, &why),
	    -EINVAL);
	CHECK_INT(policy_reqrule_method("PATCH", 5), REQRULE_PATCH);
	CHECK_INT(policy_reqrule_method("BREW", 4), 0);
}

#define M(p, t) policy_reqrule_path_match(p, t, strlen(t))

static void
test_path(void)
{
	CHECK(M("*", ""));
	CHECK(M("*", "/anything?q=1"));
	CHECK(M("/*", "/a/b/c"));
	CHECK(M("/a", "/a"));
	CHECK(!M("/a", "/ab"));
	CHECK(!M("/a", "/"));
	CHECK(M("/*/git-upload-pack", "/org/repo.git/git-upload-pack"));
	CHECK(!M("/*/git-upload-pack", "/org/repo.git/git-upload-pack2"));
	CHECK(M("/*git-receive-pack*", "/r.git/info/refs?service=git-receive-pack"));
	CHECK(M("/*git-receive-pack*", "/r.git/git-receive-pack"));
	CHECK(!M("/*git-receive-pack*", "/r.git/info/refs?service=git-upload-pack"));
	CHECK(M("/a*b*c", "/aXbYbZc"));
	CHECK(!M("/a*b*c", "/aXbYbZ"));
	/* A NUL in the target is just a byte. */
	CHECK(!policy_reqrule_path_match("/a", "/a\0b", 4));
}

/* The path as a server reads it, or -EINVAL for a dot segment. */
static int
norm(const char *t, char *out)
{
	size_t n = 0;
	int r = policy_reqrule_path_norm(t, strlen(t), out, &n);

	out[r == 0 ? n : 0] = '\0';
	return r;
}

static void
test_norm(void)
{
	char o[64];

	CHECK(norm("/a/b?x=%41/../", o) == 0 && strcmp(o, "/a/b?x=%41/../") == 0);
	CHECK(norm("/%73ecret%7e%2D", o) == 0 && strcmp(o, "/secret~-") == 0);
	CHECK(norm("/a%2Fb%25%3f%", o) == 0 && strcmp(o, "/a%2Fb%25%3f%") == 0);
	CHECK(norm("//a///b/", o) == 0 && strcmp(o, "/a/b/") == 0);
	CHECK(norm("/%2573", o) == 0 && strcmp(o, "/%2573") == 0);
	CHECK(norm("/a.b/..c/.d/", o) == 0 && strcmp(o, "/a.b/..c/.d/") == 0);
	CHECK_INT(norm("/a/../b", o), -EINVAL);
	CHECK_INT(norm("/a/..", o), -EINVAL);
	CHECK_INT(norm("/./b", o), -EINVAL);
	CHECK_INT(norm("/a/.?q", o), -EINVAL);
	CHECK_INT(norm("/a/%2e%2E/b", o), -EINVAL);
	CHECK_INT(norm("/a/.%2e", o), -EINVAL);
	CHECK_INT(norm("/a//..//b", o), -EINVAL);
}

static const char doc_user[] = "{\"network\": {\"requestRules\": ["
    "{\"host\": \"git.test\", \"allow\": [\"GET /*\", "
    "\"POST /*/git-upload-pack\"], \"deny\": [\"* /*git-receive-pack*\"], "
    "\"id\": \"clone\"},"
    "{\"host\": \"*.api.test:443\", \"readOnly\": true}],"
    "\"tls\": {\"excludeDomains\": [\"pinned.test\"]}}}";
static const char doc_ws[] = "{\"network\": {\"requestRules\": ["
    "{\"host\": \"git.test\", \"deny\": [\"GET /private*\"]},"
    "{\"host\": \"pinned.test\", \"readOnly\": true}]}}";

static int
decide(const struct inspect_rules *r, const char *host, uint16_t port,
    const char *method, const char *target, const char **text)
{
	const struct inspect_rule *ir;
	const char *why;
	struct host h;
	bool unlisted;

	CHECK_INT(host_canon(host, strlen(host), &h, &why), 0);
	ir = inspect_rules_decide(r, &h, port, method, strlen(method), target,
	    strlen(target), &unlisted);
	*text = ir ? ir->o.value : NULL;
	return ir == NULL ? 0 : unlisted ? 2 : 1;
}

static enum inspect_mode
mode(const struct inspect_rules *r, const char *host, uint16_t port)
{
	const char *why;
	struct host h;

	CHECK_INT(host_canon(host, strlen(host), &h, &why), 0);
	return inspect_rules_mode(r, &h, port, false);
}

static void
test_policy(void)
{
	struct policy_diags d = { 0 };
	struct policy *u, *w, *eff;
	const struct policy *docs[2];
	struct inspect_rules *r;
	const char *t;
	char err[256], *s;
	json_t *j;

	CHECK_INT(parse_as(doc_user, POLICY_LAYER_USER, &u, &d), 0);
	CHECK_INT(parse_as(doc_ws, POLICY_LAYER_WORKSPACE, &w, &d), 0);
	CHECK_INT((int)u->l7->n, 4);
	CHECK_STR(u->l7->rule[3].text, "allow GET,HEAD,OPTIONS *");
	docs[0] = u;
	docs[1] = w;
	CHECK_INT(policy_merge(docs, 2, HOME, &eff, &d), 0);
	CHECK_INT((int)eff->l7->n, 6);
	CHECK_INT(inspect_rules_compile(eff, &r, err, sizeof(err)), 0);

	CHECK_INT(mode(r, "git.test", 443), INSPECT_YES);
	CHECK_INT(mode(r, "x.api.test", 443), INSPECT_YES);
	CHECK_INT(mode(r, "x.api.test", 80), INSPECT_NO);
	CHECK_INT(mode(r, "other.test", 443), INSPECT_NO);
	CHECK_INT(mode(r, "pinned.test", 443), INSPECT_EXCLUDED);

	CHECK_INT(decide(r, "git.test", 443, "GET", "/o/r.git/info/refs?"
	    "service=git-upload-pack", &t), 0);
	CHECK_INT(decide(r, "git.test", 443, "POST", "/o/r.git/git-upload-pack",
	    &t), 0);
	CHECK_INT(decide(r, "git.test", 443, "POST",
	    "/o/r.git/git-receive-pack", &t), 1);
	CHECK_STR(t, "git.test: deny * /*git-receive-pack*");
	CHECK_INT(decide(r, "git.test", 443, "GET", "/o/r.git/info/refs?"
	    "service=git-receive-pack", &t), 1);
	/* Not in the user layer's allow list. */
	CHECK_INT(decide(r, "git.test", 443, "DELETE", "/x", &t), 2);
	CHECK_STR(t, "git.test: allow GET /*");
	/* The workspace layer narrows what the user layer allowed. */
	CHECK_INT(decide(r, "git.test", 443, "GET", "/private/x", &t), 1);
	CHECK_STR(t, "git.test: deny GET /private*");
	CHECK_INT(decide(r, "a.api.test", 443, "HEAD", "/", &t), 0);
	CHECK_INT(decide(r, "a.api.test", 443, "POST", "/", &t), 2);
	CHECK_INT(decide(r, "a.api.test", 443, "BREW", "/", &t), 2);
	CHECK_INT(decide(r, "other.test", 443, "POST", "/", &t), 0);

	/* policy show: each entry with where it came from. */
	CHECK_INT(policy_render_json(eff, &j), 0);
	s = json_dumps(json_object_get(j, "network"), JSON_COMPACT);
	CHECK(s != NULL && strstr(s, "\"requestRules\":[{\"host\":"
	    "\"git.test\",\"rule\":\"allow GET /*\",\"from\":") != NULL);
	CHECK(s != NULL && strstr(s, "\"tls\":{\"excludeDomains\":"
	    "[\"pinned.test\"]}") != NULL);
	free(s);
	json_decref(j);

	inspect_rules_free(r);
	policy_free(eff);
	policy_free(u);
	policy_free(w);
	policy_diag_free(&d);
}

static void
expect_error(const char *doc, const char *what)
{
	struct policy_diags d = { 0 };
	struct policy *p;
	const char *e;

	CHECK_INT(parse_as(doc, POLICY_LAYER_USER, &p, &d), -EINVAL);
	e = policy_diag_first_error(&d);
	CHECK(e != NULL && strstr(e, what) != NULL);
	if (e == NULL || strstr(e, what) == NULL)
		fprintf(stderr, "    got: %s\n", e ? e : "(none)");
	policy_free(p);
	policy_diag_free(&d);
}

static void
test_errors(void)
{
	expect_error("{\"network\": {\"requestRules\": {}}}", "expected an array");
	expect_error("{\"network\": {\"requestRules\": [{\"allow\": "
	    "[\"GET /\"]}]}}", "needs \"host\"");
	expect_error("{\"network\": {\"requestRules\": [{\"host\": \"a b\"}]}}",
	    "host:");
	expect_error("{\"network\": {\"requestRules\": [{\"host\": \"a.test\", "
	    "\"allow\": [\"FETCH /\"]}]}}", "methods are");
	expect_error("{\"network\": {\"requestRules\": [{\"host\": \"a.test\", "
	    "\"method\": \"GET\"}]}}", "unknown key \"method\"");
	expect_error("{\"network\": {\"requestRules\": [{\"host\": \"a.test\", "
	    "\"readOnly\": 1}]}}", "readOnly");
	expect_error("{\"network\": {\"tls\": {\"exclude\": []}}}",
	    "unknown key \"exclude\"");
	expect_error("{\"network\": {\"tls\": {\"excludeDomains\": [1]}}}",
	    "expected a string");
}

int
main(void)
{
	test_spec();
	test_path();
	test_norm();
	test_policy();
	test_errors();
	UNIT_DONE();
}
