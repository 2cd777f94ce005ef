/* Request rules compiled from the effective policy, and the verdict on one request. Pure. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/reqrule.h"
#include "daemon/proxy/inspect-rules.h"

static int
origin_set(struct proxy_origin *o, const struct policy_reqrule *s)
{
	o->list = "network.requestRules";
	o->has_layer = true;
	o->layer = s->origin.layer;
	if (asprintf(&o->value, "%s: %s", s->host, s->text) < 0) {
		o->value = NULL;
		return -ENOMEM;
	}
	if ((s->origin.file && (o->file = strdup(s->origin.file)) == NULL) ||
	    (s->origin.id && (o->id = strdup(s->origin.id)) == NULL) ||
	    (s->origin.reason &&
	    (o->reason = strdup(s->origin.reason)) == NULL))
		return -ENOMEM;
	return 0;
}

static void
origin_free(struct proxy_origin *o)
{
	free(o->value);
	free(o->file);
	free(o->id);
	free(o->reason);
}

void
inspect_rules_free(struct inspect_rules *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].path);
		origin_free(&r->v[i].o);
	}
	free(r->v);
	free(r->excl);
	free(r);
}

static int
compile(const struct policy_l7 *l7, struct inspect_rules *r, char *err,
    size_t errlen)
{
	const struct policy_reqrule *s;
	struct inspect_rule *d;
	const char *why = NULL;
	size_t i;

	if ((r->v = calloc(l7->n + 1, sizeof(*r->v))) == NULL ||
	    (r->excl = calloc(l7->nexclude + 1, sizeof(*r->excl))) == NULL)
		return -ENOMEM;
	for (i = 0; i < l7->n; i++, r->n++) {
		s = &l7->rule[i];
		d = &r->v[i];
		if (netrule_parse(s->host, strlen(s->host), &d->nr, &why) < 0) {
			snprintf(err, errlen, "request rule host %s: %s",
			    s->host, why);
			return -EINVAL;
		}
		d->allow = s->allow;
		d->methods = s->methods;
		if ((d->path = strdup(s->path)) == NULL ||
		    origin_set(&d->o, s) < 0) {
			r->n++;
			return -ENOMEM;
		}
	}
	for (; r->nexcl < l7->nexclude; r->nexcl++)
		if (netrule_parse(l7->exclude[r->nexcl],
		    strlen(l7->exclude[r->nexcl]), &r->excl[r->nexcl],
		    &why) < 0) {
			snprintf(err, errlen, "network.tls.excludeDomains "
			    "%s: %s", l7->exclude[r->nexcl], why);
			return -EINVAL;
		}
	return 0;
}

int
inspect_rules_compile(const struct policy *p, struct inspect_rules **out,
    char *err, size_t errlen)
{
	struct inspect_rules *r = calloc(1, sizeof(*r));
	int ret;

	if (r == NULL)
		return -ENOMEM;
	if (p != NULL && p->l7 != NULL &&
	    (ret = compile(p->l7, r, err, errlen)) < 0) {
		inspect_rules_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

enum inspect_mode
inspect_rules_mode(const struct inspect_rules *r, const struct host *h,
    uint16_t port, bool named)
{
	size_t i;

	if (r == NULL)
		return named ? INSPECT_YES : INSPECT_NO;
	for (i = 0; i < r->n && !named; i++)
		named = netrule_match(&r->v[i].nr, h, port);
	if (!named)
		return INSPECT_NO;
	for (i = 0; i < r->nexcl; i++)
		if (netrule_match(&r->excl[i], h, port))
			return INSPECT_EXCLUDED;
	return INSPECT_YES;
}

static bool
matches(const struct inspect_rule *ir, unsigned m, const char *target,
    size_t tlen)
{
	return (ir->methods == REQRULE_ANY || (ir->methods & m) != 0) &&
	    policy_reqrule_path_match(ir->path, target, tlen);
}

const struct inspect_rule *
inspect_rules_decide(const struct inspect_rules *r, const struct host *h,
    uint16_t port, const char *method, size_t mlen, const char *target,
    size_t tlen, bool *unlisted)
{
	const struct inspect_rule *first_allow, *ir;
	unsigned m = policy_reqrule_method(method, mlen);
	bool allowed;
	size_t i;
	int layer;

	*unlisted = false;
	for (layer = 0; layer < POLICY_NLAYERS; layer++) {
		first_allow = NULL;
		allowed = false;
		for (i = 0; i < r->n; i++) {
			ir = &r->v[i];
			if ((int)ir->o.layer != layer ||
			    !netrule_match(&ir->nr, h, port))
				continue;
			if (!ir->allow && matches(ir, m, target, tlen))
				return ir;
			if (ir->allow) {
				if (first_allow == NULL)
					first_allow = ir;
				allowed = allowed ||
				    matches(ir, m, target, tlen);
			}
		}
		if (first_allow != NULL && !allowed) {
			*unlisted = true;
			return first_allow;
		}
	}
	return NULL;
}
