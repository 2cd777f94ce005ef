/* Request-layer policy: the --policy file's text (read by the client) and
 * the run flags become one document, merged below every other layer by
 * the policy store, so they can only narrow. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy-request.h"
#include "daemon/policy-rule.h"

static void
first_error(const struct policy_diags *d, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == POLICY_ERROR) {
			snprintf(err, errlen, "%s", d->v[i].msg);
			return;
		}
	snprintf(err, errlen, "invalid request policy");
}

static int
add_flags(struct policy *p, enum policy_list list, char **v, size_t n,
	  const char *flag, const char *home, const char *ws,
	  struct policy_diags *d)
{
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, flag, home, ws };
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		if ((r = policy_rule_add_text(p, list, v[i], &ctx, d)) < 0)
			return r;
	return 0;
}

int
policy_request_build(const Sbx__PolicyOverrides *o, const char *home,
		     const char *ws, struct policy **out, char *err,
		     size_t errlen)
{
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	int r = 0;

	*out = NULL;
	if (!o || (!o->n_allow_domains && !o->n_deny_read &&
		   !o->n_allow_write && !(o->policy_json && o->policy_json[0])))
		return 0;
	if (o->policy_json && o->policy_json[0]) {
		struct policy_ctx ctx = {
			POLICY_LAYER_REQUEST,
			o->policy_file && o->policy_file[0] ? o->policy_file :
							      "--policy",
			home, ws };

		r = policy_parse(o->policy_json, strlen(o->policy_json), &ctx,
				 &p, &d);
	} else if (!(p = policy_new(POLICY_LAYER_REQUEST)))
		r = -ENOMEM;
	if (r == 0)
		r = add_flags(p, POLICY_ALLOWED_DOMAINS, o->allow_domains,
			      o->n_allow_domains, "--allow-domain", home, ws, &d);
	if (r == 0)
		r = add_flags(p, POLICY_DENY_READ, o->deny_read, o->n_deny_read,
			      "--deny-read", home, ws, &d);
	if (r == 0)
		r = add_flags(p, POLICY_ALLOW_WRITE, o->allow_write,
			      o->n_allow_write, "--allow-write", home, ws, &d);
	if (r == -EINVAL)
		first_error(&d, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "request policy: %s", strerror(-r));
	policy_diag_free(&d);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
