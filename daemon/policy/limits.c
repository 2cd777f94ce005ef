/* Parses, merges and renders the "limits" object: each key a row of one
 * table, so a new limit is one enum value and one row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/limits.h"
#include "daemon/policy/render.h"
#include "daemon/policy/rule.h"
#include "daemon/policy/size.h"

/* Reads v as the limit's number (0) or reports why not (-EINVAL). */
typedef int limit_parse_fn(struct policy_json *pj, json_t *v, uint64_t *out);
/* The number as a document spells it: "512M". */
typedef void limit_format_fn(uint64_t v, char *buf, size_t len);

struct limit_info {
	const char *key;	/* in "limits" */
	const char *name;	/* dotted, for messages */
	limit_parse_fn *parse;
	limit_format_fn *format;
	uint64_t min;		/* smallest value that leaves a usable
				   sandbox */
};

static limit_parse_fn parse_size;
static limit_format_fn format_size;

static const struct limit_info limit_info[POLICY_NLIMITS] = {
	/* A tmpfs smaller than a page per directory is useless. */
	[POLICY_LIMIT_TMP] = { "tmp", "limits.tmp", parse_size, format_size,
	    64 * 1024 },
	[POLICY_LIMIT_HOME] = { "home", "limits.home", parse_size,
	    format_size, 64 * 1024 },
};

const char *
policy_limit_name(enum policy_limit_id id)
{
	return limit_info[id].name;
}

static int
find(const char *key)
{
	int i;

	for (i = 0; i < POLICY_NLIMITS; i++)
		if (!strcmp(limit_info[i].key, key))
			return i;
	return -1;
}

/* A size: a string ("512M") or a whole number of bytes. */
static int
parse_size(struct policy_json *pj, json_t *v, uint64_t *out)
{
	const char *why = NULL;

	if (json_is_string(v)) {
		if (policy_size_parse(json_string_value(v),
		    json_string_length(v), out, &why) < 0) {
			policy_json_report(pj, POLICY_ERROR, false, "%s", why);
			return -EINVAL;
		}
		return 0;
	}
	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    (uint64_t)json_integer_value(v) <= POLICY_SIZE_MAX) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	policy_json_report(pj, POLICY_ERROR, false, "expected a size such as "
	    "\"512M\" or \"2G\", got %s", policy_json_type(v));
	return -EINVAL;
}

static void
format_size(uint64_t v, char *buf, size_t len)
{
	policy_size_format(v, buf, len, 0);
}

static void
parse_limit(struct policy_json *pj, json_t *v, enum policy_limit_id id,
    struct policy *p)
{
	const struct limit_info *info = &limit_info[id];
	struct policy_limit *l = &p->limits[id];
	uint64_t n = 0;
	char min[32];

	if (info->parse(pj, v, &n) < 0)
		return;
	if (n < info->min) {
		info->format(info->min, min, sizeof(min));
		policy_json_report(pj, POLICY_ERROR, false, "%s must be at "
		    "least %s", info->name, min);
		return;
	}
	policy_rule_origin_clear(&l->origin);
	l->set = true;
	l->value = n;
	l->origin.layer = pj->ctx->layer;
	policy_json_where(pj, true, &l->origin.line, &l->origin.col);
	if ((l->origin.file = strdup(pj->ctx->file)) == NULL)
		pj->err = -ENOMEM;
}

void
policy_limits_parse(struct policy_json *pj, json_t *obj, struct policy *p)
{
	const char *key;
	json_t *v;
	int id;

	json_object_foreach(obj, key, v) {
		policy_json_push_key(pj, key);
		if ((id = find(key)) < 0)
			policy_json_report(pj, POLICY_ERROR, true, "unknown "
			    "limit \"%s\"", key);
		else
			parse_limit(pj, v, id, p);
		policy_json_pop(pj);
	}
}

static int
warn_raise(struct policy_diags *diags, const struct policy_limit *l,
    enum policy_limit_id id, uint64_t above)
{
	char where[64] = "", a[32], b[32];

	if (l->origin.line > 0)
		snprintf(where, sizeof(where), ":%d:%d", l->origin.line,
		    l->origin.col);
	limit_info[id].format(l->value, a, sizeof(a));
	limit_info[id].format(above, b, sizeof(b));
	return policy_diag_add(diags, POLICY_WARNING, "%s%s: warning: %s %s "
	    "%s ignored: a higher layer allows only %s", l->origin.file ?
	    l->origin.file : "?", where, policy_layer_name(l->origin.layer),
	    limit_info[id].name, a, b);
}

static int
merge_one(const struct policy *const *docs, size_t n, enum policy_limit_id id,
    struct policy_limit *out, struct policy_diags *diags)
{
	const struct policy_limit *best = NULL, *l;
	bool granted = false;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		l = &docs[i]->limits[id];
		if (!l->set)
			continue;
		if (best && l->value > best->value) {
			if ((r = warn_raise(diags, l, id, best->value)) < 0)
				return r;
			continue;
		}
		best = l;
		if (docs[i]->layer <= POLICY_LAYER_USER)
			granted = true;
	}
	if (!best)
		return 0;
	out->set = true;
	out->value = best->value;
	out->under_default = !granted;
	return policy_rule_origin_copy(&out->origin, &best->origin);
}

int
policy_limits_merge(const struct policy *const *docs, size_t n,
    struct policy *eff, struct policy_diags *diags)
{
	int i, r;

	for (i = 0; i < POLICY_NLIMITS; i++)
		if ((r = merge_one(docs, n, i, &eff->limits[i], diags)) < 0)
			return r;
	return 0;
}

static int
set_new(json_t *obj, const char *key, json_t *v)
{
	return v != NULL && json_object_set_new(obj, key, v) == 0 ? 0 :
	    -ENOMEM;
}

int
policy_limits_render(const struct policy *p, json_t *root)
{
	char size[32], from[512];
	json_t *lim = NULL, *o;
	int i;

	for (i = 0; i < POLICY_NLIMITS; i++) {
		const struct policy_limit *l = &p->limits[i];

		if (!l->set)
			continue;
		if (!lim && (set_new(root, "limits", json_object()) < 0 ||
		    !(lim = json_object_get(root, "limits"))))
			return -ENOMEM;
		limit_info[i].format(l->value, size, sizeof(size));
		policy_render_origin(&l->origin, from, sizeof(from));
		if (set_new(lim, limit_info[i].key, o = json_object()) < 0 ||
		    set_new(o, "value", json_string(size)) < 0 ||
		    set_new(o, "from", json_string(from)) < 0 ||
		    (l->under_default && p->effective &&
		    set_new(o, "atMost", json_string("default")) < 0))
			return -ENOMEM;
	}
	return 0;
}

uint64_t
policy_limit_value(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt)
{
	const struct policy_limit *l = &p->limits[id];

	if (!l->set)
		return dflt;
	return l->under_default && l->value > dflt ? dflt : l->value;
}
