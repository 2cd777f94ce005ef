/* Builds a run's request layer from the overrides its client sent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-request.h"
#include "policy-rule.h"

static void
first_error(const struct policy_diags *d, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == POLICY_ERROR) {
			snprintf(err, errlen, "%s", d->v[i].msg);
			return;
		}
	snprintf(err, errlen, "invalid policy");
}

/* --allow-domain values join the request document (or make one). */
static int
add_domains(const Sbx__PolicyOverrides *o, const struct policy_ctx *ctx,
    struct policy **doc, struct policy_diags *d)
{
	size_t i;
	int r = 0;

	if (*doc == NULL && (*doc = policy_new(POLICY_LAYER_REQUEST)) == NULL)
		return -ENOMEM;
	for (i = 0; i < o->n_allow_domains && r == 0; i++)
		r = policy_rule_add_text(*doc, POLICY_ALLOWED_DOMAINS,
		    o->allow_domains[i], ctx, d);
	return r;
}

int
policy_request_build(const Sbx__PolicyOverrides *o, const char *workspace,
    const char *home, struct policy **out, char *err, size_t errlen)
{
	struct policy_diags d = { 0 };
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, "--policy", home,
	    workspace };
	struct policy *doc = NULL;
	int r = 0;

	*out = NULL;
	if (o == NULL)
		return 0;
	if (o->n_deny_read || o->n_allow_write) {
		snprintf(err, errlen, "--deny-read and --allow-write are not "
		    "supported by this daemon yet");
		return -ENOTSUP;
	}
	if (o->policy_json && o->policy_json[0]) {
		if (o->policy_file && o->policy_file[0])
			ctx.file = o->policy_file;
		r = policy_parse(o->policy_json, strlen(o->policy_json), &ctx,
		    &doc, &d);
	}
	if (r == 0 && o->n_allow_domains) {
		ctx.file = "--allow-domain";
		r = add_domains(o, &ctx, &doc, &d);
	}
	if (r == -EINVAL)
		first_error(&d, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "policy: %s", strerror(-r));
	policy_diag_free(&d);
	if (r < 0) {
		policy_free(doc);
		return r;
	}
	*out = doc;
	return 0;
}
