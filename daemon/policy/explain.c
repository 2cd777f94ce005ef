/* Decides a path, host or variable and names the rule that decided it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/domain.h"
#include "daemon/policy/envsecret.h"
#include "daemon/policy/explain.h"
#include "daemon/policy/glob.h"
#include "daemon/policy/render.h"

static bool
rule_covers(const struct policy_rule *r, const char *path)
{
	if (r->flags & POLICY_RULE_GLOB)
		return policy_glob_covers_path(r->value, path);
	return policy_path_covers(r->value, path);
}

static const struct policy_rule *
first_covering(const struct policy_rules *l, const char *path, int layer)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if ((layer < 0 || (int)l->v[i].origin.layer == layer) &&
		    rule_covers(&l->v[i], path))
			return &l->v[i];
	return NULL;
}

/* The denyRead rule that masks path, or NULL; *carve: an allowRead used. */
static const struct policy_rule *
read_denial(const struct policy *p, const char *path,
    const struct policy_rule **carve)
{
	const struct policy_rules *deny = &p->lists[POLICY_DENY_READ];
	const struct policy_rule *a;
	size_t i;

	*carve = NULL;
	for (i = 0; i < deny->n; i++) {
		if (!rule_covers(&deny->v[i], path))
			continue;
		a = first_covering(&p->lists[POLICY_ALLOW_READ], path,
		    (int)deny->v[i].origin.layer);
		if (a == NULL)
			return &deny->v[i];
		if (*carve == NULL)
			*carve = a;
	}
	return NULL;
}

static void
decide(struct policy_decision *d, enum policy_verdict v,
    const struct policy_rule *r, enum policy_list list, const char *why)
{
	d->verdict = v;
	d->rule = r;
	d->list = list;
	d->why = why;
}

/* Among the rules that would deny a write, the most authoritative. */
static bool
write_denial(const struct policy *p, const char *path,
    struct policy_decision *d)
{
	static const char *const whys[3] = {
		"reads are denied here, so writes are too",
		"protected from writes",
		"under a denyWrite path",
	};
	static const enum policy_list lists[3] = {
		POLICY_DENY_READ, POLICY_PROTECT, POLICY_DENY_WRITE
	};
	const struct policy_rule *r[3], *carve;
	int i, best = -1;

	r[0] = read_denial(p, path, &carve);
	r[1] = first_covering(&p->lists[POLICY_PROTECT], path, -1);
	r[2] = first_covering(&p->lists[POLICY_DENY_WRITE], path, -1);
	for (i = 0; i < 3; i++)
		if (r[i] != NULL && (best < 0 ||
		    r[i]->origin.layer < r[best]->origin.layer))
			best = i;
	if (best < 0)
		return false;
	decide(d, POLICY_VERDICT_DENY, r[best], lists[best], whys[best]);
	return true;
}

static void
explain_write(const struct policy *p, const char *path, const char *overlay,
    const char *ws, struct policy_decision *out)
{
	const struct policy_setting *s = &p->settings[POLICY_HOME];
	const struct policy_rule *r;

	if (write_denial(p, path, out))
		return;
	r = first_covering(&p->lists[POLICY_ALLOW_WRITE], path, -1);
	if (r != NULL) {
		decide(out, POLICY_VERDICT_ALLOW, r, POLICY_ALLOW_WRITE,
		    "inside an allowWrite path");
		return;
	}
	decide(out, POLICY_VERDICT_DENY, NULL, 0,
	    "outside every allowWrite path");
	/* The workspace is never shadowed by the overlay: what allowWrite
	 * leaves out of it stays read-only. */
	if (overlay == NULL || !policy_path_covers(overlay, path) ||
	    (ws != NULL && policy_path_covers(ws, path)))
		return;
	if (policy_setting_value(p, POLICY_HOME) == POLICY_HOME_OVERLAY)
		decide(out, POLICY_VERDICT_ALLOW, NULL, 0, "in the home "
		    "overlay: the write lands in this workspace's layer, "
		    "never in the real home");
	else
		out->why = "the home is read-only (filesystem.home)";
	out->setting_id = POLICY_HOME;
	if (s->value != POLICY_UNSET)
		out->setting = s;
}

static void
explain_read(const struct policy *p, const char *path,
    struct policy_decision *out)
{
	const struct policy_rule *r, *carve;

	if ((r = read_denial(p, path, &carve)) != NULL)
		decide(out, POLICY_VERDICT_DENY, r, POLICY_DENY_READ,
		    "under a denyRead path");
	else if (carve != NULL)
		decide(out, POLICY_VERDICT_ALLOW, carve, POLICY_ALLOW_READ,
		    "re-allowed by allowRead inside a denied path");
	else
		decide(out, POLICY_VERDICT_ALLOW, NULL, 0,
		    "reads are allowed where no rule denies them");
}

int
policy_explain_path(const struct policy *p, const char *path,
    enum policy_access access, const char *home, const char *overlay,
    const char *cwd, struct policy_decision *out)
{
	const char *why;
	char *abs;

	memset(out, 0, sizeof(*out));
	if (policy_path_resolve(path, home, cwd, &abs, &why) < 0)
		return -EINVAL;
	out->access = access == POLICY_ACCESS_WRITE ? POLICY_ACCESS_WRITE :
	    POLICY_ACCESS_READ;
	snprintf(out->target, sizeof(out->target), "%s", abs);
	if (out->access == POLICY_ACCESS_WRITE)
		explain_write(p, abs, overlay, cwd, out);
	else
		explain_read(p, abs, out);
	free(abs);
	return 0;
}

static const struct policy_rule *
first_domain(const struct policy_rules *l, const char *host, int port)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (policy_domain_match(l->v[i].dom, host, port))
			return &l->v[i];
	return NULL;
}

int
policy_explain_host(const struct policy *p, const char *hostport,
    struct policy_decision *out)
{
	const struct policy_setting *ask = &p->settings[POLICY_UNKNOWN_HOSTS];
	char raw[POLICY_HOST_MAX + 8], host[POLICY_HOST_MAX + 1];
	const struct policy_rule *r;
	const char *why;
	int port;

	memset(out, 0, sizeof(*out));
	out->access = POLICY_ACCESS_CONNECT;
	if (policy_domain_split(hostport, true, raw, sizeof(raw), &port,
	    &why) < 0 || policy_domain_canon_host(raw, host, sizeof(host),
	    &why) < 0)
		return -EINVAL;
	if (port == 0)
		port = 443;
	snprintf(out->target, sizeof(out->target), strchr(host, ':') ?
	    "[%s]:%d" : "%s:%d", host, port);
	if ((r = first_domain(&p->lists[POLICY_DENIED_DOMAINS], host,
	    port)) != NULL) {
		decide(out, POLICY_VERDICT_DENY, r, POLICY_DENIED_DOMAINS,
		    "matches deniedDomains");
	} else if ((r = first_domain(&p->lists[POLICY_ALLOWED_DOMAINS], host,
	    port)) != NULL) {
		decide(out, POLICY_VERDICT_ALLOW, r, POLICY_ALLOWED_DOMAINS,
		    "matches allowedDomains");
	} else {
		decide(out, ask->value == POLICY_HOSTS_ASK ?
		    POLICY_VERDICT_ASK : POLICY_VERDICT_DENY, NULL, 0,
		    "not in allowedDomains");
		out->setting_id = POLICY_UNKNOWN_HOSTS;
		if (ask->value != POLICY_UNSET)
			out->setting = ask;
	}
	return 0;
}

/* An env.pass rule that names the variable exactly, as a layer that may
 * grant (org, user) did (POLICY_RULE_NAMED, set by the merge): the one way
 * past the built-in secret rule. A rule a workspace or request layer
 * narrowed a glob to is not one, so a repository cannot ask for the
 * user's tokens. */
static const struct policy_rule *
pass_exact(const struct policy *p, const char *name)
{
	const struct policy_rules *l = &p->lists[POLICY_ENV_PASS];
	size_t i;

	for (i = 0; i < l->n; i++)
		if ((l->v[i].flags & POLICY_RULE_NAMED) &&
		    !strcmp(l->v[i].value, name))
			return &l->v[i];
	return NULL;
}

static const struct policy_rule *
first_env(const struct policy_rules *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (policy_glob_match_name(l->v[i].value, name))
			return &l->v[i];
	return NULL;
}

int
policy_explain_env(const struct policy *p, const char *name,
    const char *value, struct policy_decision *out)
{
	const struct policy_rule *r;
	const char *why;

	memset(out, 0, sizeof(*out));
	out->access = POLICY_ACCESS_ENV;
	snprintf(out->target, sizeof(out->target), "%s", name);
	if (p && (r = first_env(&p->lists[POLICY_ENV_DENY], name)) != NULL)
		decide(out, POLICY_VERDICT_DENY, r, POLICY_ENV_DENY,
		    "matches env.deny");
	else if (p && (r = pass_exact(p, name)) != NULL)
		decide(out, POLICY_VERDICT_ALLOW, r, POLICY_ENV_PASS,
		    "named in env.pass");
	else if (envsecret_is(name, value, &why))
		decide(out, POLICY_VERDICT_DENY, NULL, 0, why);
	else if (p && p->lists[POLICY_ENV_PASS].set) {
		if ((r = first_env(&p->lists[POLICY_ENV_PASS], name)) != NULL)
			decide(out, POLICY_VERDICT_ALLOW, r, POLICY_ENV_PASS,
			    "matches env.pass");
		else
			decide(out, POLICY_VERDICT_DENY, NULL, 0,
			    "not in env.pass");
	} else
		decide(out, POLICY_VERDICT_ALLOW, NULL, 0,
		    "not a secret by name or value");
	return 0;
}

int
policy_explain_format(const struct policy_decision *d, char *buf, size_t len)
{
	static const char *const verdicts[] = { "allow", "deny", "ask" };
	static const char *const accesses[] = { "read", "write", "connect",
	    "env" };
	const struct policy_origin *o = NULL;
	char from[512];
	size_t n = 0;
	int w;

#define OUT(...) do {							\
	w = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__);	\
	n += w > 0 ? (size_t)w : 0;					\
} while (0)
	OUT("%s %s %s: %s", verdicts[d->verdict], accesses[d->access],
	    d->target, d->why);
	if (d->rule != NULL) {
		o = &d->rule->origin;
		OUT("\n  rule: %s \"%s\"", policy_list_info(d->list)->name,
		    d->rule->value);
	} else if (d->setting != NULL) {
		o = &d->setting->origin;
		OUT("\n  rule: %s \"%s\"", policy_setting_name(d->setting_id),
		    policy_setting_text(d->setting_id, d->setting->value));
	} else {
		OUT("\n  rule: none, the default");
	}
	if (o != NULL) {
		if (o->id != NULL)
			OUT(" (id %s)", o->id);
		policy_render_origin(o, from, sizeof(from));
		OUT("\n  from: %s", from);
	}
	if (d->rule != NULL && d->rule->within != NULL) {
		policy_render_origin(d->rule->within, from, sizeof(from));
		OUT("\n  within: %s", from);
	}
	if (o != NULL && o->reason != NULL)
		OUT("\n  reason: %s", o->reason);
#undef OUT
	return n < len ? (int)n : -ENOSPC;
}
