/* Unit tests for credentials: the policy entries, sentinels, the request head rewrite, leaks and response redaction. */
#include <errno.h>
#include <event2/buffer.h>
#include <stdlib.h>

#include "daemon/policy/credential.h"
#include "daemon/policy/reqrule.h"
#include "daemon/proxy/cred.h"
#include "host-unit.h"
#include "policy-unit.h"
#include "unit.h"

static const char doc[] = "{\"network\": {\"credentials\": ["
    "{\"id\": \"gh\", \"env\": \"GH_TOKEN\", \"hosts\": [\"api.test\"], "
    "\"format\": \"Bearer {}\"},"
    "{\"id\": \"k\", \"env\": \"KEY\", \"hosts\": [\"*.k.test:443\"], "
    "\"header\": \"X-Key\"}]}}";

static struct cred_set *
build(struct policy **p)
{
	static char e0[] = "PATH=/bin", e1[] = "GH_TOKEN=ghp_abcDEF123",
	    e2[] = "KEY=k-9-x";
	char *env[] = { e0, e1, e2, NULL };
	struct policy_diags d = { 0 };
	struct cred_set *s = NULL;
	char err[256];

	CHECK_INT(parse_as(doc, POLICY_LAYER_USER, p, &d), 0);
	CHECK(policy_reqrule_inspects(*p));
	CHECK_INT(cred_set_build(*p, env, 3, NULL, NULL, &s, err, sizeof(err)), 0);
	CHECK(s != NULL && s->n == 2);
	policy_diag_free(&d);
	return s;
}

static void
test_sentinel(void)
{
	uint8_t rnd[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
	    15, 16 };
	char out[16];

	cred_sentinel("ghp_aB3-x", 9, rnd, out);
	CHECK(memcmp(out, "ghp_", 4) == 0);
	CHECK(out[4] >= 'a' && out[4] <= 'z');
	CHECK(out[5] >= 'A' && out[5] <= 'Z');
	CHECK(out[6] >= '0' && out[6] <= '9');
	CHECK(out[7] == '-');
	cred_sentinel("12345", 5, rnd, out);
	CHECK(out[0] >= '0' && out[0] <= '9');
}

/* head as it goes to h:443. */
static void
rewritten(const struct cred_set *s, const char *head, const struct host *h,
    const char *want)
{
	struct evbuffer *b = evbuffer_new();
	size_t len;
	char *t;

	CHECK_INT(cred_set_head(s, head, strlen(head), h, 443, b), 0);
	len = evbuffer_get_length(b);
	t = strndup((char *)evbuffer_pullup(b, -1), len);
	CHECK_STR(t, want);
	free(t);
	evbuffer_free(b);
}

static void
test_wire(void)
{
	struct policy *p;
	struct cred_set *s = build(&p);
	struct host api = H("api.test"), other = H("other.test"),
	    k = H("a.k.test");
	const struct cred *gh = &s->v[0];
	static char a1[] = "A=1", g1[] = "GH_TOKEN=x";
	char head[256], *env[] = { a1, g1, NULL }, **e;
	size_t hold;

	CHECK_INT((int)strlen(gh->sentinel), 13);
	CHECK(strcmp(gh->sentinel, gh->real) != 0);
	CHECK(cred_set_for(s, &api, 443));
	CHECK(!cred_set_for(s, &other, 443));
	CHECK(cred_set_for(s, &k, 443) && !cred_set_for(s, &k, 80));

	/* The header is added when the head lacks it. */
	snprintf(head, sizeof(head), "GET / HTTP/1.1\r\nHost: api.test\r\n\r\n");
	rewritten(s, head, &api, "GET / HTTP/1.1\r\nHost: api.test\r\n"
	    "Accept-Encoding: identity\r\n"
	    "Authorization: Bearer ghp_abcDEF123\r\n\r\n");
	/* The sentinel where the tool put it becomes the value; the
	 * sandbox's Accept-Encoding goes (a compressed echo would pass the
	 * redaction). */
	snprintf(head, sizeof(head), "GET /?t=%s HTTP/1.1\r\naccept-encoding: "
	    "gzip\r\nauthorization: token %s\r\n\r\n", gh->sentinel,
	    gh->sentinel);
	rewritten(s, head, &api, "GET /?t=ghp_abcDEF123 HTTP/1.1\r\n"
	    "authorization: token ghp_abcDEF123\r\n"
	    "Accept-Encoding: identity\r\n\r\n");

	/* Leaks: the sentinel to a host it is not for. */
	CHECK(cred_set_leak(s, head, strlen(head), &other, 443) == gh);
	CHECK(cred_set_leak(s, head, strlen(head), &api, 443) == NULL);
	CHECK(cred_set_leak(s, "nothing", 7, &other, 443) == NULL);

	/* Redaction, and what to hold back at the end. */
	snprintf(head, sizeof(head), "echo ghp_abcDEF123 and ghp_ab");
	hold = cred_set_redact(s, head, strlen(head));
	CHECK(strncmp(head + 5, gh->sentinel, gh->len) == 0);
	CHECK_INT((int)hold, 6);
	snprintf(head, sizeof(head), "plain text");
	CHECK_INT((int)cred_set_redact(s, head, strlen(head)), 0);

	/* The variable: the sentinel, whatever came from the client. */
	e = calloc(3, sizeof(*e));
	e[0] = env[0];
	e[1] = env[1];
	e = cred_set_env(s, e);
	CHECK(e != NULL);
	CHECK_STR(e[0], "A=1");
	CHECK(strncmp(e[1], "GH_TOKEN=ghp_", 13) == 0 &&
	    strcmp(e[1] + 9, gh->sentinel) == 0);
	CHECK(strncmp(e[2], "KEY=k-", 6) == 0);
	CHECK(e[3] == NULL);
	free(e);
	cred_set_free(s);
	policy_free(p);
}

static void
bad(const char *text, enum policy_layer layer, const char *what)
{
	struct policy_diags d = { 0 };
	struct policy *p;
	const char *e;

	CHECK_INT(parse_as(text, layer, &p, &d), -EINVAL);
	e = policy_diag_first_error(&d);
	CHECK(e != NULL && strstr(e, what) != NULL);
	policy_free(p);
	policy_diag_free(&d);
}

/* "body": true reaches the run's set; the default is false. */
static void
test_body_key(void)
{
	static char e0[] = "A=aaaa", e1[] = "B=bbbb";
	char *env[] = { e0, e1, NULL };
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	struct cred_set *s = NULL;
	char err[256];

	CHECK_INT(parse_as("{\"network\": {\"credentials\": ["
	    "{\"id\": \"a\", \"env\": \"A\", \"hosts\": [\"a.test\"], "
	    "\"body\": true},"
	    "{\"id\": \"b\", \"env\": \"B\", \"hosts\": [\"a.test\"]}]}}",
	    POLICY_LAYER_USER, &p, &d), 0);
	CHECK_INT(cred_set_build(p, env, 2, NULL, NULL, &s, err, sizeof(err)), 0);
	CHECK(s != NULL && s->n == 2 && s->v[0].body && !s->v[1].body);
	cred_set_free(s);
	policy_diag_free(&d);
	policy_free(p);
}

/* The reader is handed the command credential; what it returns is the
 * value, and a failure skips the credential. */
static int
fake_read(const struct policy_cred *pc, char *const *env, size_t nenv,
    char *buf, size_t size, void *arg)
{
	CHECK(pc->command != NULL && pc->file == NULL && pc->env == NULL);
	(*(int *)arg)++;
	if (strcmp(pc->id, "bad") == 0)
		return -ETIMEDOUT;
	return snprintf(buf, size, "gho_%s\n", pc->command[2]);
}

static void
test_command_key(void)
{
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	struct cred_set *s = NULL;
	char *env[] = { NULL };
	char err[256], *text;
	json_t *root;
	int calls = 0;

	CHECK_INT(parse_as("{\"network\": {\"credentials\": ["
	    "{\"id\": \"gh\", \"command\": [\"gh\", \"auth\", \"token\"], "
	    "\"hosts\": [\"a.test\"], \"format\": \"Bearer {}\"},"
	    "{\"id\": \"bad\", \"command\": [\"/bin/sleep\", \"9\", \"x\"], "
	    "\"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER, &p, &d), 0);
	CHECK(policy_diag_first_error(&d) == NULL);
	CHECK(p->l7 != NULL && p->l7->ncred == 2);
	CHECK(!strcmp(p->l7->cred[0].command[0], "gh") &&
	    !strcmp(p->l7->cred[0].command[2], "token") &&
	    p->l7->cred[0].command[3] == NULL);
	root = json_object();
	CHECK_INT(policy_reqrule_render(p, root), 0);
	text = json_dumps(root, JSON_COMPACT);
	CHECK(text != NULL && strstr(text, "{\"id\":\"gh\",\"source\":"
	    "\"command\",\"command\":[\"gh\",\"auth\",\"token\"],\"hosts\""));
	free(text);
	json_decref(root);
	CHECK_INT(cred_set_build(p, env, 0, NULL, NULL, &s, err, sizeof(err)),
	    0);
	CHECK(s == NULL);
	CHECK_INT(cred_set_build(p, env, 0, fake_read, &calls, &s, err,
	    sizeof(err)), 0);
	CHECK_INT(calls, 2);
	CHECK(s != NULL && s->n == 1 && !strcmp(s->v[0].id, "gh") &&
	    !strcmp(s->v[0].real, "gho_token") && s->v[0].env == NULL);
	cred_set_free(s);
	policy_diag_free(&d);
	policy_free(p);
}

static void
test_policy(void)
{
	bad(doc, POLICY_LAYER_WORKSPACE, "only accepted in an org or user");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"hosts\": "
	    "[\"a.test\"]}]}}", POLICY_LAYER_USER, "one source");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"file\": \"/f\", \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "one source");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": "
	    "\"SBX_X\", \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "env:");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"sigv4\": \"SBX_K\", \"hosts\": [\"a.test\"]}]}}",
	    POLICY_LAYER_USER, "sigv4:");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\"}]}}",
	    POLICY_LAYER_USER, "needs \"hosts\"");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"hosts\": [\"a.test\"], \"format\": \"Bearer\"}]}}",
	    POLICY_LAYER_USER, "format:");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"hosts\": [\"a.test\"], \"header\": \"A: b\"}]}}",
	    POLICY_LAYER_USER, "header:");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"hosts\": [\"a.test\"], \"body\": \"yes\"}]}}",
	    POLICY_LAYER_USER, "body: true or false");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"hosts\": [\"a.test\"], \"header\": true}]}}",
	    POLICY_LAYER_USER, "strings, but hosts, command and body");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"env\": \"X\", "
	    "\"command\": [\"gh\"], \"hosts\": [\"a.test\"]}]}}",
	    POLICY_LAYER_USER, "one source");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "\"gh auth token\", \"hosts\": [\"a.test\"]}]}}",
	    POLICY_LAYER_USER, "command: an array");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "command: an array");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[\"gh\", 1], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "command: each word");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[\"g\\u0000h\"], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "u0000 is not allowed");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[\"bin/gh\"], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "absolute path or a name");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[\"\"], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_USER,
	    "absolute path or a name");
	bad("{\"network\": {\"credentials\": [{\"id\": \"a\", \"command\": "
	    "[\"gh\"], \"hosts\": [\"a.test\"]}]}}", POLICY_LAYER_WORKSPACE,
	    "only accepted in an org or user");
	test_body_key();
	test_command_key();
}

/* A held partial match let go (the upstream went quiet) and what
 * comes after it. */
static void
test_tail(void)
{
	struct policy *p = NULL;
	struct cred_set *s = build(&p);
	const struct cred *gh = &s->v[0];
	struct cred_tail t = { .n = 0 };
	char buf[64];
	size_t hold;

	/* The response ends in "...ghp_ab": held, then sent as the
	 * sentinel's first 6 bytes, never the real ones. */
	snprintf(buf, sizeof(buf), "body ghp_ab");
	hold = cred_set_redact(s, buf, strlen(buf));
	CHECK_INT((int)hold, 6);
	cred_set_release(s, buf + 5, hold, &t);
	CHECK(memcmp(buf, "body ", 5) == 0);
	CHECK(memcmp(buf + 5, gh->sentinel, 6) == 0);
	CHECK_INT((int)t.n, 6);
	/* The rest in two pieces: each the sentinel's continuation. */
	snprintf(buf, sizeof(buf), "cDE");
	CHECK(cred_set_continue(s, &t, buf, 3));
	CHECK(memcmp(buf, gh->sentinel + 6, 3) == 0);
	CHECK_INT((int)t.n, 9);
	snprintf(buf, sizeof(buf), "F123 more");
	CHECK(!cred_set_continue(s, &t, buf, 9));
	CHECK(memcmp(buf, gh->sentinel + 9, 4) == 0);
	CHECK(strcmp(buf + 4, " more") == 0);
	CHECK_INT((int)t.n, 0);
	CHECK_INT((int)cred_set_redact(s, buf, 9), 0);
	/* Not a continuation: the bytes pass as they are. */
	snprintf(buf, sizeof(buf), "ghp");
	cred_set_release(s, buf, 3, &t);
	CHECK(memcmp(buf, gh->sentinel, 3) == 0);
	snprintf(buf, sizeof(buf), "!ghp_abcDEF123");
	CHECK(!cred_set_continue(s, &t, buf, 14));
	CHECK(strcmp(buf, "!ghp_abcDEF123") == 0);
	CHECK_INT((int)cred_set_redact(s, buf, 14), 0);
	CHECK(memcmp(buf + 1, gh->sentinel, gh->len) == 0);
	/* Another credential's start and continuation. */
	snprintf(buf, sizeof(buf), "k-");
	CHECK_INT((int)cred_set_redact(s, buf, 2), 2);
	cred_set_release(s, buf, 2, &t);
	CHECK(memcmp(buf, s->v[1].sentinel, 2) == 0);
	snprintf(buf, sizeof(buf), "9-x.");
	CHECK(!cred_set_continue(s, &t, buf, 4));
	CHECK(memcmp(buf, s->v[1].sentinel + 2, 3) == 0 && buf[3] == '.');
	/* Nothing released: nothing continued. */
	snprintf(buf, sizeof(buf), "cDEF123");
	CHECK(!cred_set_continue(s, &t, buf, 7));
	CHECK(strcmp(buf, "cDEF123") == 0);
	cred_set_free(s);
	policy_free(p);
}

int
main(void)
{
	test_tail();
	test_sentinel();
	test_wire();
	test_policy();
	UNIT_DONE();
}
