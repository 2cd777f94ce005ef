/* Compiling a policy's network section into netrules, and the proxy's two decisions. */

/*
 * The first decision is on the destination as the client named it; the
 * second on each address a name resolved to, because an allowed name may
 * resolve anywhere. Rules are compiled by policy/netrule.c with the same host
 * canonicaliser the proxy applies to requests, so a rule and a request
 * that mean the same host compare equal byte for byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/domain.h"
#include "daemon/proxy/rules.h"
#include "daemon/proxy/upstream.h"

static void
origin_clear(struct proxy_origin *o)
{
	free(o->value);
	free(o->file);
	free(o->id);
	free(o->reason);
	memset(o, 0, sizeof(*o));
}

static int
dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	return src != NULL && (*dst = strdup(src)) == NULL ? -ENOMEM : 0;
}

static int
origin_set(struct proxy_origin *o, const char *list, const char *value,
    const struct policy_origin *po)
{
	o->list = list;
	if (po != NULL) {
		o->has_layer = true;
		o->layer = po->layer;
	}
	if (dup_opt(&o->value, value) < 0 ||
	    (po != NULL && (dup_opt(&o->file, po->file) < 0 ||
	    dup_opt(&o->id, po->id) < 0 ||
	    dup_opt(&o->reason, po->reason) < 0))) {
		origin_clear(o);
		return -ENOMEM;
	}
	return 0;
}

static int
compile_list(const struct policy_rules *l, const char *name,
    struct proxy_rule **out, size_t *n, char *err, size_t errlen)
{
	struct proxy_rule *v;
	const char *why;
	size_t i;

	*n = 0;
	*out = NULL;
	if (l->n == 0)
		return 0;
	if ((v = calloc(l->n, sizeof(*v))) == NULL)
		return -ENOMEM;
	*out = v;
	for (i = 0; i < l->n; i++) {
		const struct policy_rule *pr = &l->v[i];

		if (pr->dom != NULL && pr->dom->kind == POLICY_DOMAIN_ANY) {
			v[i].any = true;
			v[i].nr.port = (uint16_t)pr->dom->port;
		} else if (netrule_parse(pr->value, strlen(pr->value),
		    &v[i].nr, &why) < 0) {
			snprintf(err, errlen, "%s \"%s\": %s", name, pr->value,
			    why);
			return -EINVAL;
		}
		v[i].allow_private = pr->flags & POLICY_RULE_PRIVATE;
		if (origin_set(&v[i].o, name, pr->value, &pr->origin) < 0)
			return -ENOMEM;
		*n = i + 1;
	}
	return 0;
}

int
proxy_rules_compile(const struct policy *p, struct proxy_rules **out,
    char *err, size_t errlen)
{
	const struct policy_setting *s;
	struct proxy_rules *r = calloc(1, sizeof(*r));
	int ret = 0;

	if (r == NULL)
		return -ENOMEM;
	s = p ? &p->settings[POLICY_UNKNOWN_HOSTS] : NULL;
	r->ask = s != NULL && s->value == POLICY_HOSTS_ASK;
	if (p != NULL)
		ret = compile_list(&p->lists[POLICY_DENIED_DOMAINS],
		    "network.deniedDomains", &r->deny, &r->ndeny, err, errlen);
	if (ret == 0 && p != NULL)
		ret = compile_list(&p->lists[POLICY_ALLOWED_DOMAINS],
		    "network.allowedDomains", &r->allow, &r->nallow, err,
		    errlen);
	if (ret == 0)
		ret = upstream_compile(p, &r->up, err, errlen);
	if (ret == 0)
		ret = origin_set(&r->unknown, "network.unknownHosts",
		    r->ask ? "ask" : "deny",
		    s != NULL && s->value != POLICY_UNSET ? &s->origin : NULL);
	if (ret < 0) {
		proxy_rules_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

static void
free_list(struct proxy_rule *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		origin_clear(&v[i].o);
	free(v);
}

void
proxy_rules_free(struct proxy_rules *r)
{
	if (r == NULL)
		return;
	free_list(r->deny, r->ndeny);
	free_list(r->allow, r->nallow);
	free_list(r->grant, r->ngrant);
	origin_clear(&r->unknown);
	upstream_free(r->up);
	free(r);
}

int
proxy_rules_grant(struct proxy_rules *r, const struct host *h, uint16_t port)
{
	struct proxy_rule *g;
	char text[HOST_TEXT_MAX + 16];
	size_t cap;

	if (r->ngrant == r->grant_cap) {
		cap = r->grant_cap ? r->grant_cap * 2 : 4;
		if ((g = realloc(r->grant, cap * sizeof(*g))) == NULL)
			return -ENOMEM;
		r->grant = g;
		r->grant_cap = cap;
	}
	g = &r->grant[r->ngrant];
	memset(g, 0, sizeof(*g));
	g->nr.host = *h;
	g->nr.port = port;
	if (host_format(h, port, text, sizeof(text)) < 0 ||
	    origin_set(&g->o, "approval", text, NULL) < 0)
		return -ENOMEM;
	r->ngrant++;
	return 0;
}

static bool
rule_match(const struct proxy_rule *r, const struct host *h, uint16_t port)
{
	if (r->any)
		return r->nr.port == 0 || r->nr.port == port;
	return netrule_match(&r->nr, h, port);
}

static const struct proxy_rule *
first(const struct proxy_rule *v, size_t n, const struct host *h,
    uint16_t port, bool exact)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((!exact || (!v[i].any && !v[i].nr.wildcard)) &&
		    rule_match(&v[i], h, port))
			return &v[i];
	return NULL;
}

/* The first allowing rule, grant or extra that matches. */
static const struct proxy_rule *
allowing(const struct proxy_rules *r, const struct host *h, uint16_t port,
    const struct proxy_rule *extra, bool exact)
{
	const struct proxy_rule *m;

	if ((m = first(r->allow, r->nallow, h, port, exact)) != NULL ||
	    (m = first(r->grant, r->ngrant, h, port, exact)) != NULL)
		return m;
	if (extra != NULL && (!exact || !extra->nr.wildcard) &&
	    rule_match(extra, h, port))
		return extra;
	return NULL;
}

/* The first allowedDomains rule matching h:port whose allowPrivate is
 * want. Grants and approvals never carry it. */
static const struct proxy_rule *
private_rule(const struct proxy_rules *r, const struct host *h,
    uint16_t port, bool want)
{
	size_t i;

	for (i = 0; i < r->nallow; i++)
		if (r->allow[i].allow_private == want &&
		    rule_match(&r->allow[i], h, port))
			return &r->allow[i];
	return NULL;
}

enum netrule_verdict
proxy_rules_decide(const struct proxy_rules *r, const struct host *h,
    uint16_t port, const struct proxy_rule *extra,
    const struct proxy_rule **rule)
{
	const struct proxy_rule *m;

	if ((m = first(r->deny, r->ndeny, h, port, false)) != NULL) {
		*rule = m;
		return NETRULE_DENY;
	}
	if ((m = allowing(r, h, port, extra, false)) != NULL) {
		*rule = m;
		return NETRULE_ALLOW;
	}
	return NETRULE_UNKNOWN;
}

bool
proxy_rules_localhost(const struct host *h)
{
	static const char suffix[] = ".localhost";
	size_t n = sizeof(suffix) - 1;

	return h->kind == HOST_NAME && (strcmp(h->text, "localhost") == 0 ||
	    (h->len > n && strcmp(h->text + h->len - n, suffix) == 0));
}

enum netrule_verdict
proxy_rules_address(const struct proxy_rules *r, const struct host *h,
    bool by_exact, const struct host *addr, uint16_t port,
    const struct proxy_rule *extra, const struct proxy_rule **rule,
    enum addr_class *cls)
{
	const struct proxy_rule *m;
	enum addr_class c;

	*rule = NULL;
	if ((m = first(r->deny, r->ndeny, addr, port, false)) != NULL) {
		*rule = m;
		return NETRULE_DENY;
	}
	if (addr_class_host(addr, &c) < 0)
		c = ADDR_RESERVED;	/* not an address: never public */
	*cls = c;
	if (c == ADDR_PUBLIC)
		return NETRULE_ALLOW;
	if (allowing(r, addr, port, extra, true) != NULL)
		return NETRULE_ALLOW;
	if (c == ADDR_LOOPBACK && by_exact && proxy_rules_localhost(h))
		return NETRULE_ALLOW;
	if (proxy_rules_private_ok(c) && h->kind == HOST_NAME &&
	    private_rule(r, h, port, true) != NULL)
		return NETRULE_ALLOW;
	return NETRULE_DENY;
}

bool
proxy_rules_private_ok(enum addr_class cls)
{
	return cls == ADDR_PRIVATE || cls == ADDR_CGNAT ||
	    cls == ADDR_RESERVED;
}

const struct proxy_rule *
proxy_rules_private_fix(const struct proxy_rules *r, const struct host *h,
    uint16_t port)
{
	return h->kind == HOST_NAME ? private_rule(r, h, port, false) : NULL;
}

bool
proxy_rule_exact(const struct proxy_rule *r)
{
	return !r->any && !r->nr.wildcard;
}

int
proxy_rules_describe(const struct proxy_origin *o, char *buf, size_t size)
{
	int n;

	if (o->list == NULL)
		n = snprintf(buf, size, "%s", o->value ? o->value : "sbx");
	else if (o->value == NULL)
		n = snprintf(buf, size, "%s", o->list);
	else
		n = snprintf(buf, size, "%s \"%s\"", o->list, o->value);
	if (n >= 0 && (size_t)n < size && o->id != NULL)
		n += snprintf(buf + n, size - (size_t)n, " id %s", o->id);
	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}
