/* Parses, merges and renders the "limits" object and picks the value in
 * force: each key a row of one table, so a new limit is one enum value and
 * one row. Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/keys.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/render.h"
#include "daemon/policy/rule.h"
#include "daemon/policy/size.h"

/* Reads a value (text or integer) as the limit's number: 0, or -EINVAL
 * and *why. */
typedef int limit_parse_fn(const char *text, long long integer,
    bool is_text, uint64_t *out, const char **why);
/* The number for people (human) or as a document spells it. */
typedef json_t *limit_print_fn(uint64_t v, char *buf, size_t len,
    int human);

struct limit_info {
	const char *key;	/* in "limits" */
	const char *name;	/* dotted, for messages */
	limit_parse_fn *parse;
	limit_print_fn *print;
	const char *unit;	/* before a human count: "weight " */
	uint64_t min, max;
	const char *range;	/* what min and max say */
};

static limit_parse_fn parse_size, parse_count;
static limit_print_fn print_size, print_count;

static const struct limit_info limit_info[POLICY_NLIMITS] = {
	[POLICY_LIMIT_PIDS] = { "pids", "limits.pids", parse_count,
	    print_count, "", POLICY_PIDS_MIN, POLICY_PIDS_MAX,
	    "pids must be from 8 to 4194304" },
	[POLICY_LIMIT_MEMORY] = { "memory", "limits.memory", parse_size,
	    print_size, "", POLICY_MEMORY_MIN, POLICY_MEMORY_MAX,
	    "memory must be from 16 MiB to 1 PiB" },
	[POLICY_LIMIT_CPU] = { "cpu", "limits.cpu", parse_count, print_count,
	    "weight ", POLICY_CPU_MIN, POLICY_CPU_MAX,
	    "cpu is a weight from 1 to 10000" },
	/* A tmpfs smaller than a page per directory is useless. */
	[POLICY_LIMIT_TMP] = { "tmp", "limits.tmp", parse_size, print_size,
	    "", 64 * 1024, POLICY_SIZE_MAX,
	    "limits.tmp must be at least 64K" },
	/* The smallest ext4 file system (a root daemon's layer) is 1M. */
	[POLICY_LIMIT_HOME] = { "home", "limits.home", parse_size,
	    print_size, "", 1 << 20, POLICY_SIZE_MAX,
	    "limits.home must be at least 1M" },
};

const char *
policy_limit_name(enum policy_limit_id id)
{
	return (unsigned)id < POLICY_NLIMITS ? limit_info[id].name : "?";
}

const char *
policy_limit_key(enum policy_limit_id id)
{
	return (unsigned)id < POLICY_NLIMITS ? limit_info[id].key : "?";
}

/* A size: a string ("512M", "2 GiB") or a whole number of bytes. */
static int
parse_size(const char *text, long long integer, bool is_text, uint64_t *out,
    const char **why)
{
	if (is_text)
		return policy_size_parse(text, strlen(text), out, why);
	if (integer >= 0 && (uint64_t)integer <= POLICY_SIZE_MAX) {
		*out = (uint64_t)integer;
		return 0;
	}
	*why = "expected a size such as \"512M\" or \"2G\"";
	return -EINVAL;
}

static int
parse_count(const char *text, long long integer, bool is_text, uint64_t *out,
    const char **why)
{
	(void)text;
	if (is_text) {
		*why = "expected an integer";
		return -EINVAL;
	}
	if (integer < 0) {
		*why = "must not be negative";
		return -EINVAL;
	}
	*out = (uint64_t)integer;
	return 0;
}

static json_t *
print_size(uint64_t v, char *buf, size_t len, int human)
{
	policy_size_format(v, buf, len, human);
	return human ? NULL : json_string(buf);
}

static json_t *
print_count(uint64_t v, char *buf, size_t len, int human)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return human ? NULL : json_integer((json_int_t)v);
}

int
policy_limit_parse(enum policy_limit_id id, const char *text,
    long long integer, bool is_text, unsigned long long *out,
    const char **why)
{
	const struct limit_info *info;
	uint64_t v = 0;

	if ((unsigned)id >= POLICY_NLIMITS)
		return -EINVAL;
	info = &limit_info[id];
	if (info->parse(text, integer, is_text, &v, why) < 0)
		return -EINVAL;
	if (v < info->min || v > info->max) {
		*why = info->range;
		return -EINVAL;
	}
	*out = v;
	return 0;
}

void
policy_limit_format(enum policy_limit_id id, unsigned long long v, char *buf,
    size_t len)
{
	char n[32];

	if ((unsigned)id >= POLICY_NLIMITS) {
		snprintf(buf, len, "%llu", v);
		return;
	}
	limit_info[id].print(v, n, sizeof(n), 1);
	snprintf(buf, len, "%s%s", limit_info[id].unit, n);
}

static int
find(struct policy_json *pj, const char *key)
{
	int i;

	for (i = 0; i < POLICY_NLIMITS; i++)
		if (!strcmp(limit_info[i].key, key))
			return i;
	for (i = 0; i < POLICY_NLIMITS; i++)
		if (policy_keys_near(key, limit_info[i].key)) {
			policy_json_report(pj, POLICY_ERROR, true, "unknown "
			    "limit \"%s\" (did you mean \"%s\"?)", key,
			    limit_info[i].key);
			return -1;
		}
	policy_json_report(pj, POLICY_ERROR, true, "unknown limit \"%s\"",
	    key);
	return -1;
}

static void
parse_limit(struct policy_json *pj, json_t *v, enum policy_limit_id id,
    struct policy *p)
{
	struct policy_limit *l = &p->limits[id];
	const char *why = limit_info[id].parse == parse_size ? "expected a "
	    "size such as \"512M\" or \"2G\"" : "expected an integer";
	unsigned long long n = 0;

	if ((!json_is_string(v) && !json_is_integer(v)) ||
	    policy_limit_parse(id, json_string_value(v),
	    json_is_integer(v) ? json_integer_value(v) : 0,
	    json_is_string(v), &n, &why) < 0) {
		if (!json_is_string(v) && !json_is_integer(v))
			policy_json_report(pj, POLICY_ERROR, false, "%s, got "
			    "%s", why, policy_json_type(v));
		else
			policy_json_report(pj, POLICY_ERROR, false, "%s", why);
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
		/* A note for people, as "_comment" is everywhere else. */
		if (!strcmp(key, "_comment") && json_is_string(v))
			continue;
		policy_json_push_key(pj, key);
		if ((id = find(pj, key)) >= 0)
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
	policy_limit_format(id, l->value, a, sizeof(a));
	policy_limit_format(id, above, b, sizeof(b));
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
	char buf[32], from[512];
	json_t *lim = NULL, *o;
	int i;

	for (i = 0; i < POLICY_NLIMITS; i++) {
		const struct policy_limit *l = &p->limits[i];

		if (!l->set)
			continue;
		if (!lim && (set_new(root, "limits", json_object()) < 0 ||
		    !(lim = json_object_get(root, "limits"))))
			return -ENOMEM;
		policy_render_origin(&l->origin, from, sizeof(from));
		if (set_new(lim, limit_info[i].key, o = json_object()) < 0 ||
		    set_new(o, "value", limit_info[i].print(l->value, buf,
		    sizeof(buf), 0)) < 0 ||
		    set_new(o, "from", json_string(from)) < 0 ||
		    (l->under_default && p->effective &&
		    set_new(o, "atMost", json_string("default")) < 0))
			return -ENOMEM;
	}
	return 0;
}

void
policy_limit_defaults(const struct policy_machine *m,
    struct policy_limit_defaults *out)
{
	unsigned long long pids = 4096, mem = m->ram / 2;

	if (m->threads_max > 0 && m->threads_max / 4 < pids)
		pids = m->threads_max / 4;
	if (m->nproc > 0 && m->nproc / 2 < pids)
		pids = m->nproc / 2;
	if (pids < POLICY_PIDS_MIN)
		pids = POLICY_PIDS_MIN;
	if (mem == 0)
		mem = 4ull << 30; /* unknown RAM: a size most machines have */
	if (mem < POLICY_MEMORY_MIN)
		mem = POLICY_MEMORY_MIN;
	memset(out, 0, sizeof(*out));
	out->v[POLICY_LIMIT_PIDS] = pids;
	out->v[POLICY_LIMIT_MEMORY] = mem;
	out->v[POLICY_LIMIT_CPU] = 50;
}

uint64_t
policy_limit_pick(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt, const struct policy_origin **origin)
{
	const struct policy_limit *l = &p->limits[id];
	/* A default of 0 is none (no limit): nothing for a value to stay
	 * under. */
	bool dflt_wins = !l->set || (l->under_default && dflt &&
				     l->value > dflt);

	if (origin)
		*origin = dflt_wins ? NULL : &l->origin;
	return dflt_wins ? dflt : l->value;
}

unsigned long long
policy_limit_resolve(const struct policy *eff, enum policy_limit_id id,
    const struct policy_limit_defaults *d,
    const struct policy_origin **origin)
{
	return policy_limit_pick(eff, id, d->v[id], origin);
}

uint64_t
policy_limit_value(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt)
{
	return policy_limit_pick(p, id, dflt, NULL);
}
