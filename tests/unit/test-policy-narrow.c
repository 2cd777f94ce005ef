/* Narrowing tests: nothing effective exceeds what a higher layer allows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/domain.h"
#include "daemon/policy/glob.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/path.h"
#include "daemon/policy/rule.h"
#include "unit.h"

/* Is rule r within rule h, for a grant list of kind? */
static bool
within(enum policy_list list, const struct policy_rule *r,
    const struct policy_rule *h)
{
	struct policy_domain m;
	char a[300], b[300];

	switch (policy_list_info(list)->kind) {
	case POLICY_VALUE_PATH:
		return policy_path_covers(h->value, r->value);
	case POLICY_VALUE_ENV:
		return policy_glob_match_name(h->value, r->value);
	case POLICY_VALUE_DOMAIN:
		if (!policy_domain_meet(r->dom, h->dom, &m))
			return false;
		policy_domain_format(&m, a, sizeof(a));
		policy_domain_format(r->dom, b, sizeof(b));
		return strcmp(a, b) == 0;
	case POLICY_VALUE_FILENAME:
		break;
	}
	return false;
}

/* Every effective grant lies within every layer that set the list. */
static void
check_narrowed(const struct policy *eff, struct policy *const *docs,
    size_t n)
{
	static const enum policy_list grants[] = { POLICY_ALLOW_WRITE,
	    POLICY_ALLOWED_DOMAINS, POLICY_UNIX_SOCKETS, POLICY_ENV_PASS,
	    POLICY_HOST_SERVICES };
	const struct policy_rules *l, *up;
	size_t g, i, d, k;
	bool ok, granted;

	for (g = 0; g < sizeof(grants) / sizeof(grants[0]); g++) {
		l = &eff->lists[grants[g]];
		granted = false;
		for (d = 0; d < n; d++)
			granted |= docs[d]->layer <= POLICY_LAYER_USER &&
			    docs[d]->lists[grants[g]].set;
		CHECK(granted || l->n == 0);
		for (i = 0; i < l->n; i++) {
			for (d = 0; d < n; d++) {
				if (!docs[d]->lists[grants[g]].set)
					continue;
				ok = false;
				up = &docs[d]->lists[grants[g]];
				for (k = 0; k < up->n; k++)
					ok |= within(grants[g], &l->v[i],
					    &up->v[k]);
				CHECK(ok);
			}
		}
	}
}

static const char *const pool_paths[] = {
	"/", "~", "~/src", "~/src/app", "/tmp", "/etc", ".", "./build",
	"/home/alice/src/app/build/out", "/var/run/docker.sock",
};
static const char *const pool_domains[] = {
	"example.com", "*.example.com", "api.example.com", "*.api.example.com",
	"api.example.com:443", "*.example.com:8443", "github.com",
	"github.com:22", "evil.org", "localhost", "[::1]:80", "10.0.0.1",
};
static const char *const pool_services[] = {
	"localhost:5432", "127.0.0.1:5432", "[::1]:5432", "localhost:6379",
};
static const char *const pool_env[] = {
	"*", "PATH", "LC_*", "LC_ALL", "*TOKEN*", "GITHUB_TOKEN", "A*", "AB*",
};

static unsigned
rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

static struct policy *
random_doc(enum policy_layer layer, unsigned *seed)
{
	struct policy_ctx ctx = { layer, "r", "/home/alice",
	    "/home/alice/src/app" };
	struct policy_diags d = { 0 };
	struct policy *p = policy_new(layer);
	unsigned i, n;

	if (p == NULL)
		return NULL;
	for (n = rnd(seed) % 4, i = 0; i < n; i++)
		policy_rule_add_text(p, POLICY_ALLOW_WRITE,
		    pool_paths[rnd(seed) % 10], &ctx, &d);
	for (n = rnd(seed) % 4, i = 0; i < n; i++)
		policy_rule_add_text(p, POLICY_ALLOWED_DOMAINS,
		    pool_domains[rnd(seed) % 12], &ctx, &d);
	for (n = rnd(seed) % 3, i = 0; i < n; i++)
		policy_rule_add_text(p, POLICY_ENV_PASS,
		    pool_env[rnd(seed) % 8], &ctx, &d);
	for (n = rnd(seed) % 3, i = 0; i < n; i++)
		policy_rule_add_text(p, POLICY_HOST_SERVICES,
		    pool_services[rnd(seed) % 4], &ctx, &d);
	for (n = rnd(seed) % 3, i = 0; i < n; i++)
		policy_rule_add_text(p, POLICY_UNIX_SOCKETS,
		    pool_paths[rnd(seed) % 10], &ctx, &d);
	for (i = 0; i < POLICY_NSETTINGS; i++) {
		p->settings[i].value = rnd(seed) % 3;
		p->settings[i].origin.layer = layer;
		p->settings[i].origin.file = strdup("r");
	}
	policy_diag_free(&d);
	return p;
}

/* Random layer stacks: every grant lies within each layer that set it. */
static void
test_narrowing(void)
{
	struct policy *docs[4], *eff;
	struct policy_diags d = { 0 };
	unsigned seed = 1, round, i, id;
	bool no, yes;

	for (round = 0; round < 300; round++) {
		for (i = 0; i < 4; i++) {
			docs[i] = random_doc(POLICY_LAYER_ORG + i, &seed);
			/* A silent layer must change nothing. */
			if (rnd(&seed) % 4 == 0)
				docs[i]->lists[POLICY_ALLOW_WRITE].set = false;
		}
		eff = NULL;
		CHECK_INT(policy_merge((const struct policy *const *)docs, 4,
		    "/home/alice", &eff, &d), 0);
		if (eff != NULL)
			check_narrowed(eff, docs, 4);
		for (id = 0; eff != NULL && id < POLICY_NSETTINGS; id++) {
			no = yes = false;
			for (i = 0; i < 4; i++) {
				no |= docs[i]->settings[id].value == POLICY_NO;
				/* Only org and user widen, but yes to a
				 * setting that is yes by default (home) is
				 * no widening. */
				yes |= (i < 2 || policy_setting_default(id) ==
				    POLICY_YES) &&
				    docs[i]->settings[id].value == POLICY_YES;
			}
			CHECK_INT(eff->settings[id].value,
			    no ? POLICY_NO : yes ? POLICY_YES : POLICY_UNSET);
		}
		policy_free(eff);
		for (i = 0; i < 4; i++)
			policy_free(docs[i]);
		policy_diag_free(&d);
	}
}

static void
test_bad_input(void)
{
	struct policy *a = policy_new(POLICY_LAYER_WORKSPACE);
	struct policy *b = policy_new(POLICY_LAYER_ORG);
	struct policy *docs[2] = { a, b };
	struct policy_diags d = { 0 };
	struct policy *eff = NULL;

	/* Out of order, and a builtin layer from outside. */
	CHECK_INT(policy_merge((const struct policy *const *)docs, 2,
	    "/home/alice", &eff, &d), -EINVAL);
	CHECK(eff == NULL);
	b->layer = POLICY_LAYER_BUILTIN;
	CHECK_INT(policy_merge((const struct policy *const *)&b, 1,
	    "/home/alice", &eff, &d), -EINVAL);
	CHECK(eff == NULL);
	/* No layers at all: only the built-in protections. */
	CHECK_INT(policy_merge(NULL, 0, "/home/alice", &eff, &d), 0);
	CHECK(eff != NULL && eff->lists[POLICY_ALLOW_WRITE].n == 0 &&
	    eff->lists[POLICY_PROTECT].n > 10);
	policy_free(eff);
	policy_free(a);
	policy_free(b);
	policy_diag_free(&d);
}

/* Adds "<pre>N<post>" for N below n, or "<pre>" alone if n is 0. */
static void
add_many(struct policy *p, enum policy_list list, const char *pre,
    const char *post, int n)
{
	struct policy_ctx ctx = { p->layer, "many", "/home/alice", "/ws" };
	struct policy_diags d = { 0 };
	char buf[64];
	int i = 0;

	do {
		snprintf(buf, sizeof(buf), n ? "%s%d%s" : "%s", pre, i, post);
		CHECK_INT(policy_rule_add_text(p, list, buf, &ctx, &d), 0);
	} while (++i < n);
	policy_diag_free(&d);
}

/* Deny lists are never cut (that would fail open); grant lists are. */
static void
test_limits(void)
{
	struct policy *docs[3], *eff = NULL;
	struct policy_diags d = { 0 };
	int i;

	for (i = 0; i < 3; i++) {
		docs[i] = policy_new(POLICY_LAYER_ORG + i);
		CHECK(docs[i] != NULL);
		if (docs[i] == NULL)
			return;
		add_many(docs[i], POLICY_DENY_READ, "/secret/", "",
		    POLICY_MAX_RULES);
	}
	add_many(docs[1], POLICY_ALLOW_WRITE, "/u/", "", POLICY_MAX_RULES);
	add_many(docs[2], POLICY_ALLOW_WRITE, "/", "", 0);
	add_many(docs[2], POLICY_ALLOW_WRITE, "/u/", "/x", POLICY_MAX_RULES);
	CHECK_INT(policy_merge((const struct policy *const *)docs, 3,
	    "/home/alice", &eff, &d), 0);
	if (eff != NULL) {
		CHECK_INT(eff->lists[POLICY_DENY_READ].n, 3 * POLICY_MAX_RULES);
		CHECK_INT(eff->lists[POLICY_ALLOW_WRITE].n, POLICY_MAX_RULES);
		CHECK_STR(eff->lists[POLICY_ALLOW_WRITE].v[0].value, "/u/0");
	}
	CHECK(d.warnings >= POLICY_MAX_RULES);
	policy_free(eff);
	for (i = 0; i < 3; i++)
		policy_free(docs[i]);
	policy_diag_free(&d);
}

int
main(void)
{
	test_narrowing();
	test_bad_input();
	test_limits();
	UNIT_DONE();
}
