/* Request rules and TLS inspection settings: the policy side (parse, merge) and the pure match of one request. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/credential.h"
#include "daemon/policy/json.h"
#include "daemon/policy/render.h"
#include "daemon/policy/netrule.h"
#include "daemon/policy/reqrule.h"
#include "daemon/policy/rule.h"

static const struct {
	const char *name;
	unsigned bit;
} methods[] = {
	{ "GET", REQRULE_GET }, { "HEAD", REQRULE_HEAD },
	{ "POST", REQRULE_POST }, { "PUT", REQRULE_PUT },
	{ "DELETE", REQRULE_DELETE }, { "PATCH", REQRULE_PATCH },
	{ "OPTIONS", REQRULE_OPTIONS }, { "TRACE", REQRULE_TRACE },
};

/* Methods are case-sensitive (RFC 9110 9.1). */
unsigned
policy_reqrule_method(const char *m, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strlen(methods[i].name) == len &&
		    memcmp(methods[i].name, m, len) == 0)
			return methods[i].bit;
	return 0;
}

int
policy_reqrule_spec(const char *s, unsigned *mout, char **path,
    const char **why)
{
	const char *sp = strchr(s, ' '), *p, *e;
	unsigned m = 0, bit;
	char *dup;

	if (sp == NULL || sp == s) {
		*why = "a request rule is \"METHODS PATH\", e.g. \"GET /*\"";
		return -EINVAL;
	}
	if (sp - s == 1 && s[0] == '*') {
		m = REQRULE_ANY;
	} else {
		for (p = s; p < sp; p = e + 1) {
			if ((e = memchr(p, ',', (size_t)(sp - p))) == NULL)
				e = sp;
			if ((bit = policy_reqrule_method(p, (size_t)(e - p))) ==
			    0) {
				*why = "methods are GET, HEAD, POST, PUT, "
				    "DELETE, PATCH, OPTIONS, TRACE (comma-"
				    "separated) or *";
				return -EINVAL;
			}
			m |= bit;
		}
	}
	p = sp + 1;
	if ((p[0] != '/' && strcmp(p, "*") != 0) || strpbrk(p, " \t") != NULL) {
		*why = "the path pattern starts with '/' (or is \"*\") and "
		    "has no spaces";
		return -EINVAL;
	}
	if ((dup = strdup(p)) == NULL)
		return -ENOMEM;
	*mout = m;
	*path = dup;
	return 0;
}

/* Iterative glob with one backtrack point: linear enough for any input. */
static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

int
policy_reqrule_path_norm(const char *t, size_t len, char *out,
    size_t *olen)
{
	size_t i = 0, n = 0, seg = 0;
	int hi, lo;
	char c;

	for (; i < len && t[i] != '?'; i++) {
		c = t[i];
		if (c == '%' && i + 2 < len && (hi = hexval(t[i + 1])) >= 0 &&
		    (lo = hexval(t[i + 2])) >= 0) {
			c = (char)(hi << 4 | lo);
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
			    c == '_' || c == '~')
				i += 2;
			else
				c = '%';
		}
		if (c == '/') {
			if ((n - seg == 1 && out[seg] == '.') ||
			    (n - seg == 2 && out[seg] == '.' &&
			    out[seg + 1] == '.'))
				return -EINVAL;
			if (n > 0 && out[n - 1] == '/')
				continue;
			seg = n + 1;
		}
		out[n++] = c;
	}
	if ((n - seg == 1 && out[seg] == '.') ||
	    (n - seg == 2 && out[seg] == '.' && out[seg + 1] == '.'))
		return -EINVAL;
	memcpy(out + n, t + i, len - i);
	*olen = n + len - i;
	return 0;
}

bool
policy_reqrule_path_match(const char *pat, const char *t, size_t len)
{
	const char *star = NULL;
	size_t i = 0, mark = 0;

	while (i < len) {
		if (*pat == '*') {
			star = pat++;
			mark = i;
		} else if (*pat != '\0' && *pat == t[i]) {
			pat++;
			i++;
		} else if (star != NULL) {
			pat = star + 1;
			i = ++mark;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

int
policy_reqrule_l7(struct policy *p, struct policy_l7 **out)
{
	if (p->l7 == NULL && (p->l7 = calloc(1, sizeof(*p->l7))) == NULL)
		return -ENOMEM;
	*out = p->l7;
	return 0;
}

static int
rule_push(struct policy_l7 *l7, struct policy_reqrule *r)
{
	struct policy_reqrule *v;
	size_t cap;

	if (l7->n == l7->cap) {
		cap = l7->cap ? l7->cap * 2 : 8;
		if ((v = realloc(l7->rule, cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		l7->rule = v;
		l7->cap = cap;
	}
	l7->rule[l7->n++] = *r;
	memset(r, 0, sizeof(*r));
	return 0;
}

static void
rule_clear(struct policy_reqrule *r)
{
	free(r->host);
	free(r->path);
	free(r->text);
	policy_rule_origin_clear(&r->origin);
	memset(r, 0, sizeof(*r));
}

static const char *
opt_string(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* One "METHODS PATH" of obj's allow or deny list. */
static int
entry_add(struct policy_json *pj, struct policy_l7 *l7, json_t *obj,
    const char *host, bool allow, const char *spec)
{
	struct policy_reqrule r = { 0 };
	const char *why = NULL, *id = opt_string(obj, "id"),
	    *reason = opt_string(obj, "reason");
	int ret;

	if ((why = policy_rule_check_string(spec, 1000)) != NULL ||
	    (ret = policy_reqrule_spec(spec, &r.methods, &r.path, &why)) ==
	    -EINVAL) {
		policy_json_report(pj, POLICY_ERROR, false, "%s", why);
		return 0;
	}
	if (ret < 0)
		return ret;
	r.allow = allow;
	policy_json_where(pj, false, &r.origin.line, &r.origin.col);
	r.origin.layer = pj->ctx->layer;
	if ((r.text = malloc(strlen(spec) + 7)) != NULL)
		sprintf(r.text, "%s %s", allow ? "allow" : "deny", spec);
	if ((r.host = strdup(host)) == NULL || r.text == NULL ||
	    (r.origin.file = strdup(pj->ctx->file)) == NULL ||
	    (id && (r.origin.id = strdup(id)) == NULL) ||
	    (reason && (r.origin.reason = strdup(reason)) == NULL) ||
	    rule_push(l7, &r) < 0) {
		rule_clear(&r);
		return -ENOMEM;
	}
	return 0;
}

static int
entry_list(struct policy_json *pj, struct policy_l7 *l7, json_t *obj,
    const char *host, bool allow)
{
	json_t *arr = json_object_get(obj, allow ? "allow" : "deny"), *e;
	size_t i;
	int r = 0;

	if (arr == NULL)
		return 0;
	policy_json_push_key(pj, allow ? "allow" : "deny");
	if (!json_is_array(arr))
		policy_json_report(pj, POLICY_ERROR, false, "expected an array "
		    "of \"METHODS PATH\" strings, got %s",
		    policy_json_type(arr));
	else
		json_array_foreach(arr, i, e) {
			policy_json_push_index(pj, i);
			if (!json_is_string(e))
				policy_json_report(pj, POLICY_ERROR, false,
				    "expected a string");
			else
				r = entry_add(pj, l7, obj, host, allow,
				    json_string_value(e));
			policy_json_pop(pj);
			if (r < 0)
				break;
		}
	policy_json_pop(pj);
	return r;
}

static bool
host_ok(struct policy_json *pj, const char *host)
{
	struct netrule nr;
	const char *why = NULL;

	if (host == NULL) {
		policy_json_report(pj, POLICY_ERROR, false, "a request rule "
		    "needs \"host\" (a domain rule)");
		return false;
	}
	if (netrule_parse(host, strlen(host), &nr, &why) < 0) {
		policy_json_report(pj, POLICY_ERROR, false, "host: %s", why);
		return false;
	}
	return true;
}

static int
object_parse(struct policy_json *pj, struct policy_l7 *l7, json_t *obj)
{
	static const char *const keys[] = { "host", "allow", "deny",
	    "readOnly", "id", "reason", "_comment", NULL };
	const char *host = opt_string(obj, "host"), *k;
	json_t *ro = json_object_get(obj, "readOnly"), *v;
	size_t i;
	int r;

	json_object_foreach(obj, k, v) {
		for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++)
			;
		if (keys[i] == NULL)
			policy_json_report(pj, POLICY_ERROR, false, "unknown "
			    "key \"%s\" in a request rule", k);
	}
	if (!host_ok(pj, host))
		return 0;
	if (ro != NULL && !json_is_boolean(ro))
		policy_json_report(pj, POLICY_ERROR, false, "readOnly: "
		    "expected true or false");
	if (json_is_true(ro) &&
	    (r = entry_add(pj, l7, obj, host, true, "GET,HEAD,OPTIONS *")) < 0)
		return r;
	if ((r = entry_list(pj, l7, obj, host, true)) < 0 ||
	    (r = entry_list(pj, l7, obj, host, false)) < 0)
		return r;
	return 0;
}

static int
tls_parse(struct policy_json *pj, struct policy_l7 *l7, json_t *obj)
{
	json_t *arr = json_object_get(obj, "excludeDomains"), *e;
	const char *k;
	char **v;
	size_t i;
	json_t *x;

	json_object_foreach(obj, k, x)
		if (strcmp(k, "excludeDomains") != 0 &&
		    strcmp(k, "_comment") != 0)
			policy_json_report(pj, POLICY_ERROR, false, "unknown "
			    "key \"%s\" in network.tls", k);
	if (arr == NULL)
		return 0;
	policy_json_push_key(pj, "excludeDomains");
	if (!json_is_array(arr)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected an "
		    "array of domain rules");
		policy_json_pop(pj);
		return 0;
	}
	json_array_foreach(arr, i, e) {
		policy_json_push_index(pj, i);
		if (!json_is_string(e)) {
			policy_json_report(pj, POLICY_ERROR, false,
			    "expected a string");
		} else if (host_ok(pj, json_string_value(e))) {
			v = realloc(l7->exclude, (l7->nexclude + 1) *
			    sizeof(*v));
			if (v == NULL || (v[l7->nexclude] =
			    strdup(json_string_value(e))) == NULL) {
				if (v != NULL)
					l7->exclude = v;
				policy_json_pop(pj);
				policy_json_pop(pj);
				return -ENOMEM;
			}
			l7->exclude = v;
			l7->nexclude++;
		}
		policy_json_pop(pj);
	}
	policy_json_pop(pj);
	return 0;
}

void
policy_reqrule_parse(struct policy_json *pj, json_t *v, int which,
    struct policy *p)
{
	struct policy_l7 *l7;
	json_t *e;
	size_t i;
	int r = 0;

	if (policy_reqrule_l7(p, &l7) < 0) {
		pj->err = -ENOMEM;
		return;
	}
	if (which == 2) {
		r = policy_cred_parse(pj, v, l7);
	} else if (which == 1) {
		if (!json_is_object(v))
			policy_json_report(pj, POLICY_ERROR, false, "expected "
			    "an object, got %s", policy_json_type(v));
		else
			r = tls_parse(pj, l7, v);
	} else if (!json_is_array(v)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected an array "
		    "of request rule objects, got %s", policy_json_type(v));
	} else {
		json_array_foreach(v, i, e) {
			policy_json_push_index(pj, i);
			if (!json_is_object(e))
				policy_json_report(pj, POLICY_ERROR, false,
				    "expected an object");
			else
				r = object_parse(pj, l7, e);
			policy_json_pop(pj);
			if (r < 0)
				break;
		}
	}
	if (r < 0)
		pj->err = r;
}

static int
rule_copy(struct policy_reqrule *d, const struct policy_reqrule *s)
{
	memset(d, 0, sizeof(*d));
	d->allow = s->allow;
	d->methods = s->methods;
	if ((d->host = strdup(s->host)) == NULL ||
	    (d->path = strdup(s->path)) == NULL ||
	    (d->text = strdup(s->text)) == NULL ||
	    policy_rule_origin_copy(&d->origin, &s->origin) < 0) {
		rule_clear(d);
		return -ENOMEM;
	}
	return 0;
}

int
policy_reqrule_merge(const struct policy *const *docs, size_t n,
    struct policy *eff)
{
	const struct policy_l7 *s;
	struct policy_reqrule r;
	struct policy_l7 *l7;
	char **v;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if ((s = docs[i]->l7) == NULL)
			continue;
		if (policy_reqrule_l7(eff, &l7) < 0)
			return -ENOMEM;
		for (j = 0; j < s->n; j++)
			if (rule_copy(&r, &s->rule[j]) < 0 ||
			    rule_push(l7, &r) < 0) {
				rule_clear(&r);
				return -ENOMEM;
			}
		for (j = 0; j < s->nexclude; j++) {
			v = realloc(l7->exclude, (l7->nexclude + 1) *
			    sizeof(*v));
			if (v == NULL)
				return -ENOMEM;
			l7->exclude = v;
			if ((v[l7->nexclude] = strdup(s->exclude[j])) == NULL)
				return -ENOMEM;
			l7->nexclude++;
		}
		if (policy_cred_merge(s, l7) < 0)
			return -ENOMEM;
	}
	return 0;
}

static json_t *
with_from(json_t *o, const struct policy_origin *origin)
{
	char buf[512];

	policy_render_origin(origin, buf, sizeof(buf));
	if (o != NULL && json_object_set_new(o, "from", json_string(buf)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Where c's value comes from: "env": NAME, "file": path or "command":
 * argv, set on o with "source" naming which. 0 or -1. */
static int
render_source(const struct policy_cred *c, json_t *o)
{
	json_t *argv;
	size_t i;

	if (c->env || c->file)
		return json_object_set_new(o, "source", json_string(c->env ?
		    "env" : "file")) || json_object_set_new(o, c->env ? "env" :
		    "file", json_string(c->env ? c->env : c->file)) ? -1 : 0;
	if ((argv = json_array()) == NULL)
		return -1;
	for (i = 0; c->command && c->command[i]; i++)
		json_array_append_new(argv, json_string(c->command[i]));
	return json_object_set_new(o, "source", json_string("command")) ||
	    json_object_set_new(o, "command", argv) ? -1 : 0;
}

static json_t *
render_creds(const struct policy_l7 *l7)
{
	const struct policy_cred *c;
	json_t *a = json_array(), *h, *o, *rest;
	size_t i, j;

	for (i = 0; a != NULL && i < l7->ncred; i++) {
		c = &l7->cred[i];
		h = json_array();
		for (j = 0; h != NULL && j < c->nhosts; j++)
			json_array_append_new(h, json_string(c->hosts[j]));
		/* In this order: id, the source, the rest. */
		o = json_pack("{s:s}", "id", c->id);
		rest = json_pack("{s:o, s:s, s:s, s:b}", "hosts", h, "header",
		    c->header, "format", c->format, "body", c->body);
		if (o != NULL && (rest == NULL || render_source(c, o) < 0 ||
		    json_object_update(o, rest) < 0)) {
			json_decref(o);
			o = NULL;
		}
		json_decref(rest);
		if (json_array_append_new(a, with_from(o, &c->origin)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int
policy_reqrule_render(const struct policy *p, json_t *root)
{
	const struct policy_l7 *l7 = p->l7;
	json_t *net, *rules, *ex;
	size_t i;

	if (l7 == NULL)
		return 0;
	if ((net = json_object_get(root, "network")) == NULL &&
	    (json_object_set_new(root, "network", json_object()) < 0 ||
	    (net = json_object_get(root, "network")) == NULL))
		return -ENOMEM;
	if ((rules = json_array()) == NULL ||
	    json_object_set_new(net, "requestRules", rules) < 0)
		return -ENOMEM;
	for (i = 0; i < l7->n; i++)
		if (json_array_append_new(rules, with_from(json_pack("{s:s, s:s}",
		    "host", l7->rule[i].host, "rule", l7->rule[i].text),
		    &l7->rule[i].origin)) < 0)
			return -ENOMEM;
	if ((ex = json_array()) == NULL || json_object_set_new(net, "tls",
	    json_pack("{s:o}", "excludeDomains", ex)) < 0)
		return -ENOMEM;
	for (i = 0; i < l7->nexclude; i++)
		if (json_array_append_new(ex, json_string(l7->exclude[i])) < 0)
			return -ENOMEM;
	return json_object_set_new(net, "credentials", render_creds(l7)) < 0 ?
	    -ENOMEM : 0;
}

void
policy_reqrule_describe(FILE *f, const struct policy *p)
{
	const struct policy_l7 *l7 = p->l7;
	size_t i, j;

	if (l7 == NULL)
		return;
	if (l7->n > 0) {
		fputs("- Requests to these hosts are inspected (TLS through "
		    "sbx's CA, which the sandbox's tools trust) and decided "
		    "by method and path; a refused one gets a 403 naming the "
		    "rule:", f);
		for (i = 0; i < l7->n; i++)
			fprintf(f, "%s %s %s", i ? ";" : "", l7->rule[i].host,
			    l7->rule[i].text);
		fputs(".\n", f);
	}
	for (i = 0; i < l7->ncred; i++) {
		if (l7->cred[i].env)
			fprintf(f, "- $%s holds a placeholder that sbx replaces "
			    "with the real credential on the way to",
			    l7->cred[i].env);
		else
			fprintf(f, "- The credential \"%s\" is added by sbx on "
			    "the way to", l7->cred[i].id);
		for (j = 0; j < l7->cred[i].nhosts; j++)
			fprintf(f, "%s %s", j ? "," : "", l7->cred[i].hosts[j]);
		fputs(" only; use it as usual there, sending it anywhere "
		    "else is refused.\n", f);
	}
}

bool
policy_reqrule_inspects(const struct policy *p)
{
	return p != NULL && p->l7 != NULL &&
	    (p->l7->n > 0 || p->l7->ncred > 0);
}

void
policy_reqrule_free(struct policy_l7 *l7)
{
	size_t i;

	if (l7 == NULL)
		return;
	for (i = 0; i < l7->n; i++)
		rule_clear(&l7->rule[i]);
	for (i = 0; i < l7->nexclude; i++)
		free(l7->exclude[i]);
	policy_cred_free(l7->cred, l7->ncred);
	free(l7->rule);
	free(l7->exclude);
	free(l7);
}
