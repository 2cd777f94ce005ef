/* libFuzzer target for policy/request.c: any PolicyOverrides a client can
 * send becomes a request layer or a clean error, and merged under a user
 * layer it never grants a host that layer did not. */
#include <stdint.h>
#include <stdlib.h>

#include "daemon/policy/explain.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/request.h"

#define HOME "/home/f"
#define WS "/home/f/ws"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char user_json[] =
	"{\"filesystem\": {\"allowWrite\": [\".\"]}, \"network\": "
	"{\"allowedDomains\": [\"*.example.com\"]}}";

static void
check(const struct policy *req)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER, "user", HOME, WS };
	struct policy_diags d = { 0 };
	struct policy *user = NULL, *eff = NULL;
	const struct policy *docs[2];
	struct policy_decision dec;

	if (policy_parse(user_json, sizeof(user_json) - 1, &ctx, &user,
			 &d) < 0)
		abort();
	docs[0] = user;
	docs[1] = req;
	if (policy_merge(docs, 2, HOME, &eff, &d) == 0) {
		if (policy_explain_host(eff, "evil.org", &dec) == 0 &&
		    dec.verdict == POLICY_VERDICT_ALLOW)
			abort();
		policy_free(eff);
	}
	policy_free(user);
	policy_diag_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Sbx__PolicyOverrides *o;
	struct policy *req = NULL;
	char err[512];

	o = sbx__policy_overrides__unpack(NULL, size, data);
	if (!o)
		return 0;
	if (policy_request_from_overrides(o, HOME, WS, &req, err,
					  sizeof(err)) == 0 && req) {
		check(req);
		policy_free(req);
	}
	sbx__policy_overrides__free_unpacked(o, NULL);
	return 0;
}
