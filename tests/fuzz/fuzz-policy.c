/* libFuzzer target: parse a policy, merge with a fixed layer, explain. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/explain.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/render.h"

#define HOME "/home/f"
#define WS "/home/f/ws"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fixed second layer: grants something for the input to narrow. */
static const char user_json[] =
	"{\"filesystem\": {\"denyRead\": [\"~/.ssh\", \"**/*.pem\"],"
	" \"allowRead\": [\"~/.ssh/known_hosts\"], \"allowWrite\": [\"~\"]},"
	" \"network\": {\"allowedDomains\": [\"*.example.com\", \"a.org:443\","
	" \"[::1]\"], \"deniedDomains\": [\"*:22\"], \"unknownHosts\": \"ask\","
	" \"allowLocalBinding\": true, \"allowUnixSockets\": [\"/run\"]},"
	" \"env\": {\"pass\": [\"*\"], \"deny\": [\"*TOKEN*\"]},"
	" \"limits\": {\"tmp\": \"1G\", \"home\": \"2G\", \"pids\": 500,"
	" \"memory\": \"1G\", \"cpu\": 40}}";

static const char *const paths[] = {
	"~/.ssh/id_rsa", "~/.ssh/known_hosts", "x.pem", ".git/hooks/a", ".",
	"/etc/hosts", "../..", "~", "/",
};
static const char *const hosts[] = {
	"api.example.com", "a.org", "a.org:80", "github.com:22", "[::1]:1",
	"2130706433", "EXAMPLE.com.",
};

static void
explain_rules(const struct policy *eff, const struct policy *doc)
{
	struct policy_decision d;
	char buf[2048];
	size_t i, k;
	int l;

	for (l = 0; l < POLICY_NLISTS; l++) {
		for (k = 0; k < doc->lists[l].n && k < 32; k++) {
			const char *v = doc->lists[l].v[k].value;

			switch (policy_list_info(l)->kind) {
			case POLICY_VALUE_DOMAIN:
				if (policy_explain_host(eff, v, &d) == 0)
					policy_explain_format(&d, buf,
					    sizeof(buf));
				break;
			case POLICY_VALUE_ENV:
				policy_explain_env(eff, v, v, &d);
				break;
			default:
				for (i = 0; i < 2; i++)
					if (policy_explain_path(eff, v, i, HOME,
					    HOME, WS, &d) == 0)
						policy_explain_format(&d, buf,
						    sizeof(buf));
			}
		}
	}
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (policy_explain_path(eff, paths[i], POLICY_ACCESS_WRITE,
		    HOME, HOME, WS, &d) == 0)
			policy_explain_format(&d, buf, sizeof(buf));
	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
		if (policy_explain_host(eff, hosts[i], &d) == 0)
			policy_explain_format(&d, buf, sizeof(buf));
}

/* Limits only narrow: below an org layer the user's value is capped, and
 * a workspace never gets above the user's. */
static void
check_limits(const struct policy *eff, const struct policy *doc,
    const struct policy *user, enum policy_layer layer)
{
	const struct policy_limit *e, *u;
	int i;

	for (i = 0; i < POLICY_NLIMITS; i++) {
		e = &eff->limits[i];
		u = &user->limits[i];
		if (!e->set || e->value > u->value ||
		    (doc->limits[i].set && e->value > doc->limits[i].value &&
		    layer == POLICY_LAYER_ORG))
			abort();
	}
}

static void
run(const uint8_t *data, size_t size, enum policy_layer layer,
    const struct policy *user)
{
	struct policy_ctx ctx = { layer, "fuzz.json", HOME, WS };
	struct policy_diags diags = { 0 };
	const struct policy *docs[2];
	struct policy *doc = NULL, *eff = NULL;
	json_t *j = NULL;
	char *text;

	if (policy_parse(data, size, &ctx, &doc, &diags) == 0) {
		docs[0] = layer == POLICY_LAYER_ORG ? doc : user;
		docs[1] = layer == POLICY_LAYER_ORG ? user : doc;
		if (policy_merge(docs, 2, HOME, &eff, &diags) == 0) {
			if (policy_render_json(eff, &j) == 0) {
				text = json_dumps(j, JSON_SORT_KEYS);
				free(text);
				json_decref(j);
			}
			explain_rules(eff, doc);
			check_limits(eff, doc, user, layer);
			policy_free(eff);
		}
		policy_free(doc);
	}
	policy_diag_free(&diags);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct policy *user;
	struct policy_ctx ctx = { POLICY_LAYER_USER, "user.json", HOME, WS };
	struct policy_diags diags = { 0 };

	/* Parsed once and kept: the fuzzer measures the input, not this. */
	if (user == NULL && policy_parse(user_json, strlen(user_json), &ctx,
	    &user, &diags) != 0)
		abort();
	policy_diag_free(&diags);
	run(data, size, POLICY_LAYER_ORG, user);
	run(data, size, POLICY_LAYER_WORKSPACE, user);
	return 0;
}
