/* Computes the effective policy from its layers (rules in policy/merge.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/policy/builtin.h"
#include "daemon/policy/domain.h"
#include "daemon/policy/glob.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/reqrule.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/parent.h"
#include "daemon/policy/path.h"
#include "daemon/policy/rule.h"

struct merge {
	const struct policy **docs;	/* builtin first, then the caller's */
	size_t n;
	struct policy *eff;
	struct policy_diags *diags;
	json_t *seen;		/* "layer value" of the list being built */
	bool cut;		/* a grant list: cut at POLICY_MAX_RULES */
};

/* Only the layers the user or an admin wrote may grant. */
static bool
layer_grants(enum policy_layer layer)
{
	return layer <= POLICY_LAYER_USER;
}

static int
merge_warn(struct merge *m, const struct policy_origin *o, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static int
merge_warn(struct merge *m, const struct policy_origin *o, const char *fmt,
    ...)
{
	char text[512], where[64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (o->line > 0)
		snprintf(where, sizeof(where), ":%d:%d", o->line, o->col);
	return policy_diag_add(m->diags, POLICY_WARNING, "%s%s: warning: %s "
	    "%s", o->file ? o->file : "?", where, policy_layer_name(o->layer),
	    text);
}

/*
 * Whether value was already pushed for layer into the list being built (1),
 * else remembers it (0). A hash, because lists come from hostile files.
 */
static int
merge_seen(struct merge *m, enum policy_layer layer, const char *value,
    unsigned flags)
{
	char key[POLICY_PATH_MAX + 16];

	/* The same domain with and without allowPrivate are two rules. */
	snprintf(key, sizeof(key), "%d%s %s", (int)layer,
	    flags & POLICY_RULE_PRIVATE ? "p" : "", value);
	if (json_object_get(m->seen, key) != NULL)
		return 1;
	return json_object_set_new_nocheck(m->seen, key, json_true()) == 0 ?
	    0 : -ENOMEM;
}

/* Starts a new list to build: l holds what it already has. */
static int
merge_start(struct merge *m, const struct policy_rules *l, bool cut)
{
	size_t i;
	int r;

	m->cut = cut;
	json_object_clear(m->seen);
	for (i = 0; l != NULL && i < l->n; i++)
		if ((r = merge_seen(m, l->v[i].origin.layer,
		    l->v[i].value, l->v[i].flags)) < 0)
			return r;
	return 0;
}

/*
 * Appends a copy of r, with a new value, dom and within if given, unless
 * the list has it. Only grant lists are cut: cutting a deny list would
 * fail open.
 */
static int
merge_push(struct merge *m, struct policy_rules *l, const struct policy_rule *r,
    const char *value, const struct policy_domain *dom,
    const struct policy_origin *within, unsigned flags)
{
	struct policy_rule c;
	int ret;

	if ((ret = merge_seen(m, r->origin.layer, value, r->flags)) != 0)
		return ret < 0 ? ret : 0;
	if (m->cut && l->n >= POLICY_MAX_RULES)
		return merge_warn(m, &r->origin, "rule \"%.200s\" dropped: "
		    "more than %d rules in the list", value, POLICY_MAX_RULES);
	if ((ret = policy_rule_copy(&c, r)) < 0)
		return ret;
	if (value != r->value) {
		free(c.value);
		if ((c.value = strdup(value)) == NULL)
			goto fail;
	}
	c.flags |= flags;
	if (dom != NULL)
		*c.dom = *dom;
	if (within != NULL && ((c.within = calloc(1, sizeof(*c.within))) ==
	    NULL || policy_rule_origin_copy(c.within, within) < 0))
		goto fail;
	if (policy_rule_push(l, &c) == 0)
		return 0;
fail:
	policy_rule_clear(&c);
	return -ENOMEM;
}

static int
merge_union(struct merge *m, enum policy_list list)
{
	struct policy_rules *out = &m->eff->lists[list];
	const struct policy_rules *l;
	size_t i, k;
	int r;

	if ((r = merge_start(m, NULL, false)) < 0)
		return r;
	for (i = 0; i < m->n; i++) {
		l = &m->docs[i]->lists[list];
		out->set |= l->set;
		for (k = 0; k < l->n; k++)
			if ((r = merge_push(m, out, &l->v[k], l->v[k].value,
			    NULL, NULL, 0)) < 0)
				return r;
	}
	return 0;
}

/* POLICY_RULE_NAMED for an env.pass rule that names one variable exactly
 * when a granting layer's rule named it so (above: that rule's flags, or
 * the flag itself when the rule is a granting layer's own). */
static unsigned
named(enum policy_list list, const char *value, unsigned above)
{
	return list == POLICY_ENV_PASS && !strchr(value, '*') ?
	    above & POLICY_RULE_NAMED : 0;
}

/*
 * For kinds whose rules overlap only when one covers the other (paths are
 * trees; for env globs this is conservative), the meet is the inner one.
 */
static int
merge_nested(bool (*covers)(const char *, const char *),
    const struct policy_rule *lower, const struct policy_rule *upper,
    const char **value)
{
	if (covers(upper->value, lower->value))
		*value = lower->value;
	else if (covers(lower->value, upper->value))
		*value = upper->value;
	else
		return 0;
	return 1;
}

/*
 * The rule matching what both lower and upper match: 1 with *value (and
 * *dom for domains) set, or 0 when they do not overlap.
 */
static int
merge_meet(enum policy_list list, const struct policy_rule *lower,
    const struct policy_rule *upper, const char **value,
    struct policy_domain *dom, char *buf, size_t len)
{
	switch (policy_list_info(list)->kind) {
	case POLICY_VALUE_DOMAIN:
		if (!policy_domain_meet(lower->dom, upper->dom, dom) ||
		    policy_domain_format(dom, buf, len) < 0)
			return 0;
		*value = strcmp(buf, lower->value) == 0 ? lower->value : buf;
		return 1;
	case POLICY_VALUE_PATH:
		return merge_nested(policy_path_covers, lower, upper, value);
	case POLICY_VALUE_ENV:
		return merge_nested(policy_glob_match_name, lower, upper,
		    value);
	case POLICY_VALUE_FILENAME:
		break;
	}
	return 0;
}

static int
merge_clip(struct merge *m, enum policy_list list,
    const struct policy_rules *above, const struct policy_rule *r,
    struct policy_rules *next)
{
	struct policy_domain dom;
	char buf[POLICY_HOST_MAX + 16];
	const char *value;
	bool some = false, whole = false, lost_private = false;
	size_t i, n;
	int ret;

	for (i = 0; i < above->n && !whole; i++) {
		if (merge_meet(list, r, &above->v[i], &value, &dom, buf,
		    sizeof(buf)) == 0)
			continue;
		some = true;
		whole = value == r->value;
		n = next->n;
		if ((ret = merge_push(m, next, r, value, r->dom ? &dom : NULL,
		    &above->v[i].origin, named(list, value, above->v[i].flags |
		    (layer_grants(r->origin.layer) && value == r->value ?
		    POLICY_RULE_NAMED : 0)))) < 0)
			return ret;
		/* allowPrivate widens: it stays only where the rule above
		 * has it too. */
		if (next->n > n && (r->flags & POLICY_RULE_PRIVATE) &&
		    !(above->v[i].flags & POLICY_RULE_PRIVATE)) {
			next->v[n].flags &= ~POLICY_RULE_PRIVATE;
			lost_private = true;
		}
	}
	if (!some)
		return merge_warn(m, &r->origin, "%s \"%.200s\" dropped: no "
		    "higher layer allows it", policy_list_info(list)->name,
		    r->value);
	if (lost_private)
		return merge_warn(m, &r->origin, "%s \"%.200s\": allowPrivate "
		    "ignored where no higher layer's rule has it",
		    policy_list_info(list)->name, r->value);
	if (!whole)
		return merge_warn(m, &r->origin, "%s \"%.200s\" narrowed to "
		    "what a higher layer allows", policy_list_info(list)->name,
		    r->value);
	return 0;
}

/* Folds the docs[i..j) of one layer into *cur (see policy/merge.h). */
static int
merge_grant_layer(struct merge *m, enum policy_list list, size_t i, size_t j,
    struct policy_rules *cur, bool bounded)
{
	struct policy_rules next = { .set = true };
	const struct policy_rules *l;
	const struct policy_rule *r;
	size_t k, x;
	int ret;

	ret = merge_start(m, NULL, true);
	for (k = i; k < j && ret >= 0; k++) {
		l = &m->docs[k]->lists[list];
		for (x = 0; x < l->n && ret >= 0; x++) {
			r = &l->v[x];
			if (bounded)
				ret = merge_clip(m, list, cur, r, &next);
			else if (layer_grants(m->docs[k]->layer))
				ret = merge_push(m, &next, r, r->value, NULL,
				    NULL, named(list, r->value,
				    POLICY_RULE_NAMED));
			else
				ret = merge_warn(m, &r->origin, "%s \"%.200s\" "
				    "dropped: only org and user policies grant",
				    policy_list_info(list)->name, r->value);
		}
	}
	policy_rule_free_list(cur);
	*cur = next;
	return ret;
}

static int
merge_grant(struct merge *m, enum policy_list list)
{
	struct policy_rules *cur = &m->eff->lists[list];
	enum policy_layer layer;
	bool set;
	size_t i, j;
	int r;

	for (i = 0; i < m->n; i = j) {
		layer = m->docs[i]->layer;
		set = false;
		for (j = i; j < m->n && m->docs[j]->layer == layer; j++)
			set |= m->docs[j]->lists[list].set;
		if (set && (r = merge_grant_layer(m, list, i, j, cur,
		    cur->set)) < 0)
			return r;
	}
	return 0;
}

static int
merge_setting(struct merge *m, enum policy_setting_id id)
{
	const struct policy_setting *s, *no = NULL, *yes = NULL;
	struct policy_setting *out = &m->eff->settings[id];
	size_t i;
	int r;

	for (i = 0; i < m->n; i++) {
		s = &m->docs[i]->settings[id];
		if (s->value == POLICY_NO && no == NULL)
			no = s;
		if (s->value != POLICY_YES || yes != NULL)
			continue;
		/* Saying yes to a setting that is yes by default (home
		 * "overlay") widens nothing. */
		if (layer_grants(m->docs[i]->layer) ||
		    policy_setting_default(id) == POLICY_YES)
			yes = s;
		else if (no == NULL && (r = merge_warn(m, &s->origin,
		    "%s ignored: only org and user policies may widen",
		    policy_setting_name(id))) < 0)
			return r;
	}
	if ((s = no ? no : yes) == NULL)
		return 0;
	out->value = s->value;
	return policy_rule_origin_copy(&out->origin, &s->origin);
}

/* An ignore file decides what is masked: the sandbox must not rewrite it. */
static int
merge_protect_ignores(struct merge *m)
{
	const struct policy_rules *ign = &m->eff->lists[POLICY_IGNORE_FILES];
	struct policy_rules *prot = &m->eff->lists[POLICY_PROTECT];
	char path[300];
	size_t i, n;
	int r;

	if ((r = merge_start(m, prot, false)) < 0)
		return r;
	for (i = 0; i < ign->n; i++) {
		snprintf(path, sizeof(path), "/**/%s", ign->v[i].value);
		n = prot->n;
		if ((r = merge_push(m, prot, &ign->v[i], path, NULL, NULL,
		    0)) < 0)
			return r;
		if (prot->n > n)
			prot->v[n].flags |= POLICY_RULE_GLOB;
	}
	return 0;
}

static int
merge_run(struct merge *m)
{
	int i, r = 0;
	size_t k;

	for (i = 0; i < POLICY_NLISTS && r >= 0; i++)
		r = policy_list_info(i)->grant ? merge_grant(m, i) :
		    merge_union(m, i);
	for (i = 0; i < POLICY_NSETTINGS && r >= 0; i++)
		r = merge_setting(m, i);
	if (r >= 0)
		r = policy_limits_merge(m->docs, m->n, m->eff, m->diags);
	if (r >= 0)
		r = policy_parent_merge(m->docs, m->n, m->eff, m->diags);
	if (r >= 0)
		r = merge_protect_ignores(m);
	if (r >= 0)
		r = policy_reqrule_merge(m->docs, m->n, m->eff);
	for (k = 0; k < m->n; k++)
		if (m->docs[k]->layer == POLICY_LAYER_ORG &&
		    m->docs[k]->serial > m->eff->serial)
			m->eff->serial = m->docs[k]->serial;
	return r;
}

int
policy_merge(const struct policy *const *docs, size_t n, const char *home,
    struct policy **out, struct policy_diags *diags)
{
	struct merge m = { .n = n + 1, .diags = diags };
	struct policy *builtin = NULL;
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		if (docs[i]->effective ||
		    docs[i]->layer <= POLICY_LAYER_BUILTIN ||
		    docs[i]->layer >= POLICY_NLAYERS ||
		    (i > 0 && docs[i]->layer < docs[i - 1]->layer))
			return -EINVAL;
	if ((r = policy_builtin_new(home, &builtin)) < 0)
		return r;
	m.docs = malloc(m.n * sizeof(*m.docs));
	m.seen = json_object();
	m.eff = policy_new(POLICY_LAYER_BUILTIN);
	if (m.docs == NULL || m.eff == NULL || m.seen == NULL) {
		r = -ENOMEM;
	} else {
		m.eff->effective = true;
		m.docs[0] = builtin;
		for (i = 0; i < n; i++)
			m.docs[i + 1] = docs[i];
		r = merge_run(&m);
	}
	free(m.docs);
	json_decref(m.seen);
	policy_free(builtin);
	if (r < 0) {
		policy_free(m.eff);
		return r;
	}
	*out = m.eff;
	return 0;
}
