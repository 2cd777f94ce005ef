/* Builds the request-layer document from a run's policy flags. Pure. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/request.h"
#include "daemon/policy/rule.h"

static bool
empty(const Sbx__PolicyOverrides *o)
{
	return !o || (!o->n_allow_domains && !o->n_deny_read &&
		      !o->n_allow_write &&
		      (!o->policy_json || !o->policy_json[0]));
}

/* One flag's values, each a rule whose origin is the flag's name. */
static int
add_flags(struct policy *p, enum policy_list list, char **v, size_t n,
	  const char *flag, struct policy_ctx *ctx, struct policy_diags *d)
{
	size_t i;
	int r;

	if (n > POLICY_MAX_RULES)
		return policy_diag_add(d, POLICY_ERROR, "%s: error: more than "
				       "%d values", flag, POLICY_MAX_RULES) < 0 ?
			       -ENOMEM : -EINVAL;
	ctx->file = flag;
	for (i = 0; i < n; i++)
		if ((r = policy_rule_add_text(p, list, v[i], ctx, d)) == -ENOMEM)
			return r;
	return 0;
}

static int
build(const Sbx__PolicyOverrides *o, struct policy_ctx *ctx,
      struct policy **out, struct policy_diags *d)
{
	const char *name = o->policy_file;
	struct policy *p = NULL;
	int r;

	if (o->policy_json && o->policy_json[0]) {
		/* The name reaches messages and terminals: only a sane one. */
		if (!name || !name[0] ||
		    policy_rule_check_string(name, POLICY_RULE_TEXT_MAX))
			name = "--policy";
		ctx->file = name;
		r = policy_parse(o->policy_json, strlen(o->policy_json), ctx,
				 &p, d);
		if (r < 0)
			return r;
	} else if (!(p = policy_new(POLICY_LAYER_REQUEST)))
		return -ENOMEM;
	r = add_flags(p, POLICY_ALLOWED_DOMAINS, o->allow_domains,
		      o->n_allow_domains, "--allow-domain", ctx, d);
	if (r == 0)
		r = add_flags(p, POLICY_DENY_READ, o->deny_read, o->n_deny_read,
			      "--deny-read", ctx, d);
	if (r == 0)
		r = add_flags(p, POLICY_ALLOW_WRITE, o->allow_write,
			      o->n_allow_write, "--allow-write", ctx, d);
	if (r == 0 && d->errors)
		r = -EINVAL;
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

int
policy_request_from_overrides(const Sbx__PolicyOverrides *o, const char *home,
			      const char *workspace, struct policy **out,
			      char *err, size_t errlen)
{
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, NULL, home, workspace };
	struct policy_diags d = { 0 };
	const char *e;
	int r;

	if (empty(o)) {
		*out = NULL;
		return 0;
	}
	r = build(o, &ctx, out, &d);
	if (r == -EINVAL) {
		e = policy_diag_first_error(&d);
		snprintf(err, errlen, "%s", e ? e : "invalid request policy");
	} else if (r < 0)
		snprintf(err, errlen, "request policy: %s", strerror(-r));
	policy_diag_free(&d);
	return r;
}
