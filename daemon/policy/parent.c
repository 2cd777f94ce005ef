/* network.parentProxy: parsing (org and user layers only), the merge (most authoritative wins), rendering without credentials. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/parent.h"
#include "daemon/policy/render.h"
#include "daemon/policy/rule.h"
#include "daemon/proxy/upstream-parse.h"

void
policy_parent_clear(struct policy_parent_proxy *pp)
{
	if (pp->http != NULL)
		memset(pp->http, 0, strlen(pp->http));
	if (pp->https != NULL)
		memset(pp->https, 0, strlen(pp->https));
	free(pp->http);
	free(pp->https);
	free(pp->no_proxy);
	policy_rule_origin_clear(&pp->origin);
	memset(pp, 0, sizeof(*pp));
}

static bool
parent_url(struct policy_json *pj, json_t *v, char **out)
{
	struct upstream_url u;
	const char *why;

	if (!json_is_string(v)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected a URL "
		    "string, got %s", policy_json_type(v));
		return false;
	}
	if (upstream_url_parse(json_string_value(v), json_string_length(v),
	    &u, &why) < 0) {
		policy_json_report(pj, POLICY_ERROR, false, "%s", why);
		return false;
	}
	memset(&u, 0, sizeof(u));
	if ((*out = strdup(json_string_value(v))) == NULL)
		pj->err = -ENOMEM;
	return *out != NULL;
}

/* A string, or an array of strings joined with commas. */
static bool
parent_no_proxy(struct policy_json *pj, json_t *v, char **out)
{
	struct noproxy *np;
	const char *why;
	json_t *e;
	size_t i, len = 0;
	char *s;

	if (json_is_string(v)) {
		s = strdup(json_string_value(v));
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			if (!json_is_string(e) || json_string_length(e) >
			    POLICY_RULE_TEXT_MAX) {
				policy_json_report(pj, POLICY_ERROR, false,
				    "expected a string or an array of strings");
				return false;
			}
			len += json_string_length(e) + 1;
		}
		if ((s = calloc(1, len + 1)) != NULL)
			json_array_foreach(v, i, e) {
				if (i > 0)
					strcat(s, ",");
				strcat(s, json_string_value(e));
			}
	} else {
		policy_json_report(pj, POLICY_ERROR, false, "expected a string "
		    "or an array of strings, got %s", policy_json_type(v));
		return false;
	}
	if (s == NULL) {
		pj->err = -ENOMEM;
		return false;
	}
	if (noproxy_parse(s, strlen(s), &np, &why) < 0) {
		policy_json_report(pj, POLICY_ERROR, false, "%s", why);
		free(s);
		return false;
	}
	noproxy_free(np);
	*out = s;
	return true;
}

static bool
parent_member(struct policy_json *pj, const char *name, json_t *v,
    struct policy_parent_proxy *pp)
{
	const char *why;

	if (strcmp(name, "http") == 0)
		return parent_url(pj, v, &pp->http);
	if (strcmp(name, "https") == 0)
		return parent_url(pj, v, &pp->https);
	if (strcmp(name, "noProxy") == 0)
		return parent_no_proxy(pj, v, &pp->no_proxy);
	if (strcmp(name, "_comment") == 0) {
		if (json_is_string(v) && (why = policy_rule_check_string(
		    json_string_value(v), POLICY_RULE_TEXT_MAX)) == NULL)
			return true;
		policy_json_report(pj, POLICY_ERROR, false, "a comment is a "
		    "line of text");
		return false;
	}
	policy_json_report(pj, POLICY_ERROR, true, "unknown key (expected "
	    "\"http\", \"https\", \"noProxy\" or \"_comment\")");
	return false;
}

void
policy_parent_parse(struct policy_json *pj, json_t *v, struct policy *p)
{
	struct policy_parent_proxy pp = { 0 };
	const char *name;
	json_t *m;
	bool ok = true;

	if (pj->ctx->layer != POLICY_LAYER_ORG &&
	    pj->ctx->layer != POLICY_LAYER_USER) {
		policy_json_report(pj, POLICY_ERROR, true, "only an org or "
		    "user policy may set the upstream proxy: a %s policy "
		    "cannot redirect traffic", policy_layer_name(
		    pj->ctx->layer));
		return;
	}
	if (json_is_string(v) && strcmp(json_string_value(v), "env") == 0) {
		pp.from_env = true;
	} else if (json_is_object(v)) {
		json_object_foreach(v, name, m) {
			policy_json_push_key(pj, name);
			ok = parent_member(pj, name, m, &pp) && ok;
			policy_json_pop(pj);
		}
		if (ok && pp.http == NULL && pp.https == NULL) {
			policy_json_report(pj, POLICY_ERROR, false, "needs "
			    "\"http\" or \"https\" (or say \"env\")");
			ok = false;
		}
	} else {
		policy_json_report(pj, POLICY_ERROR, false, "expected {\"http\", "
		    "\"https\", \"noProxy\"} or \"env\"");
		ok = false;
	}
	if (!ok) {
		policy_parent_clear(&pp);
		return;
	}
	pp.set = true;
	pp.origin.layer = pj->ctx->layer;
	policy_json_where(pj, false, &pp.origin.line, &pp.origin.col);
	if ((pp.origin.file = strdup(pj->ctx->file)) == NULL) {
		pj->err = -ENOMEM;
		policy_parent_clear(&pp);
		return;
	}
	policy_parent_clear(&p->parent);
	p->parent = pp;
}

static int
dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	return src != NULL && (*dst = strdup(src)) == NULL ? -ENOMEM : 0;
}

static bool
has_userinfo(const char *url)
{
	const char *p = url ? strstr(url, "://") : NULL;

	for (p = p ? p + 3 : NULL; p != NULL && *p != '\0' && *p != '/'; p++)
		if (*p == '@')
			return true;
	return false;
}

/*
 * A file that holds the upstream's password is masked in every sandbox
 * (a denyRead rule of its own): the user's policy file is readable there
 * otherwise, and so is an org's under /etc.
 */
static int
mask_file(struct policy *eff, const struct policy_parent_proxy *pp)
{
	struct policy_rule r = { 0 };
	const char *file = pp->origin.file;

	if (!has_userinfo(pp->http) && !has_userinfo(pp->https))
		return 0;
	if (file == NULL || file[0] != '/' || strpbrk(file, "*?[") != NULL)
		return 0;
	if ((r.value = strdup(file)) == NULL ||
	    policy_rule_origin_copy(&r.origin, &pp->origin) < 0)
		goto fail;
	free(r.origin.id);
	free(r.origin.reason);
	r.origin.id = strdup("parent-proxy-credentials");
	r.origin.reason = strdup("holds the upstream proxy's credentials "
	    "(network.parentProxy)");
	if (r.origin.id == NULL || r.origin.reason == NULL ||
	    policy_rule_push(&eff->lists[POLICY_DENY_READ], &r) < 0) {
fail:
		policy_rule_clear(&r);
		return -ENOMEM;
	}
	eff->lists[POLICY_DENY_READ].set = true;
	return 0;
}

int
policy_parent_merge(const struct policy *const *docs, size_t n,
    struct policy *eff, struct policy_diags *diags)
{
	const struct policy_parent_proxy *win = NULL, *pp;
	struct policy_parent_proxy *out = &eff->parent;
	size_t i;

	for (i = 0; i < n; i++) {
		pp = &docs[i]->parent;
		if (!pp->set)
			continue;
		if (win == NULL) {
			win = pp;
			continue;
		}
		if (policy_diag_add(diags, POLICY_WARNING, "%s:%d:%d: warning: "
		    "%s network.parentProxy ignored: %s %s sets the upstream "
		    "proxy", pp->origin.file, pp->origin.line, pp->origin.col,
		    policy_layer_name(pp->origin.layer),
		    policy_layer_name(win->origin.layer), win->origin.file) < 0)
			return -ENOMEM;
	}
	if (win == NULL)
		return 0;
	out->set = true;
	out->from_env = win->from_env;
	if (dup_opt(&out->http, win->http) < 0 ||
	    dup_opt(&out->https, win->https) < 0 ||
	    dup_opt(&out->no_proxy, win->no_proxy) < 0 ||
	    policy_rule_origin_copy(&out->origin, &win->origin) < 0)
		return -ENOMEM;
	return mask_file(eff, win);
}

void
policy_parent_redact(const char *url, char *buf, size_t size)
{
	const char *host = url, *p;

	if ((p = strstr(url, "://")) != NULL) {
		for (p += 3; *p != '\0' && *p != '/'; p++)
			if (*p == '@')
				host = p + 1;
	}
	if (host == url)
		snprintf(buf, size, "%s", url);
	else
		snprintf(buf, size, "%.*s***@%s", (int)(strstr(url, "://") + 3 -
		    url), url, host);
}

static int
set_new(json_t *obj, const char *key, json_t *v)
{
	return v != NULL && json_object_set_new(obj, key, v) == 0 ? 0 :
	    -ENOMEM;
}

static int
render_url(json_t *o, const char *key, const char *url, char *sum,
    size_t size)
{
	char red[UPSTREAM_URL_MAX + 8];
	size_t n = strlen(sum);

	if (url == NULL)
		return 0;
	policy_parent_redact(url, red, sizeof(red));
	snprintf(sum + n, size - n, "%s%s %s", n ? ", " : "", key, red);
	return set_new(o, key, json_string(red));
}

int
policy_parent_render(const struct policy *p, json_t *root)
{
	const struct policy_parent_proxy *pp = &p->parent;
	char sum[2 * UPSTREAM_URL_MAX + 64] = "", from[512];
	json_t *o, *net;

	if (!pp->set)
		return 0;
	if ((net = json_object_get(root, "network")) == NULL) {
		if (set_new(root, "network", json_object()) < 0)
			return -ENOMEM;
		net = json_object_get(root, "network");
	}
	if ((o = json_object()) == NULL || set_new(net, "parentProxy", o) < 0)
		return -ENOMEM;
	if (pp->from_env)
		snprintf(sum, sizeof(sum), "env");
	if (render_url(o, "http", pp->http, sum, sizeof(sum)) < 0 ||
	    render_url(o, "https", pp->https, sum, sizeof(sum)) < 0 ||
	    (pp->no_proxy && set_new(o, "noProxy",
	    json_string(pp->no_proxy)) < 0))
		return -ENOMEM;
	if (pp->no_proxy)
		snprintf(sum + strlen(sum), sizeof(sum) - strlen(sum),
		    ", noProxy %s", pp->no_proxy);
	policy_render_origin(&pp->origin, from, sizeof(from));
	if (set_new(o, "value", json_string(sum)) < 0 ||
	    set_new(o, "from", json_string(from)) < 0)
		return -ENOMEM;
	return 0;
}
