/* Owns policy rules: their memory, and what makes a value valid. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/domain.h"
#include "daemon/policy/path.h"
#include "daemon/policy/rule.h"

int
policy_rule_push(struct policy_rules *l, struct policy_rule *r)
{
	struct policy_rule *nv;
	size_t cap;

	if (l->n == l->cap) {
		cap = l->cap ? l->cap * 2 : 8;
		if ((nv = realloc(l->v, cap * sizeof(*nv))) == NULL)
			return -ENOMEM;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = *r;
	memset(r, 0, sizeof(*r));
	return 0;
}

static int
dup_or_null(char **dst, const char *src)
{
	*dst = NULL;
	if (src != NULL && (*dst = strdup(src)) == NULL)
		return -ENOMEM;
	return 0;
}

int
policy_rule_origin_copy(struct policy_origin *dst,
    const struct policy_origin *src)
{
	*dst = *src;
	dst->file = dst->id = dst->reason = NULL;
	if (dup_or_null(&dst->file, src->file) < 0 ||
	    dup_or_null(&dst->id, src->id) < 0 ||
	    dup_or_null(&dst->reason, src->reason) < 0) {
		policy_rule_origin_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

void
policy_rule_origin_clear(struct policy_origin *o)
{
	free(o->file);
	free(o->id);
	free(o->reason);
	o->file = o->id = o->reason = NULL;
}

int
policy_rule_copy(struct policy_rule *dst, const struct policy_rule *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->flags = src->flags;
	if (dup_or_null(&dst->value, src->value) < 0)
		goto fail;
	if (src->dom != NULL) {
		if ((dst->dom = malloc(sizeof(*dst->dom))) == NULL)
			goto fail;
		*dst->dom = *src->dom;
	}
	if (policy_rule_origin_copy(&dst->origin, &src->origin) < 0)
		goto fail;
	if (src->within != NULL) {
		if ((dst->within = calloc(1, sizeof(*dst->within))) == NULL ||
		    policy_rule_origin_copy(dst->within, src->within) < 0)
			goto fail;
	}
	return 0;
fail:
	policy_rule_clear(dst);
	return -ENOMEM;
}

void
policy_rule_clear(struct policy_rule *r)
{
	free(r->value);
	free(r->dom);
	policy_rule_origin_clear(&r->origin);
	if (r->within != NULL)
		policy_rule_origin_clear(r->within);
	free(r->within);
	memset(r, 0, sizeof(*r));
}

void
policy_rule_free_list(struct policy_rules *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		policy_rule_clear(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int
rule_path(const struct policy_list_info *info, const char *text,
    const struct policy_ctx *ctx, struct policy_rule *r, const char **why)
{
	if (ctx->layer <= POLICY_LAYER_ORG && !policy_path_is_anchored(text)) {
		*why = "relative path in an org policy, which has no "
		    "workspace: write an absolute or ~/ path";
		return -EINVAL;
	}
	if (policy_path_is_glob(text)) {
		/* Landlock and bind mounts grant whole files and trees. */
		if (!info->globs) {
			*why = "glob patterns are not supported in this list "
			    "(sbx grants literal paths); entry ignored";
			return 1;
		}
		r->flags |= POLICY_RULE_GLOB;
	}
	return policy_path_resolve(text, ctx->home, ctx->workspace, &r->value,
	    why);
}

static int
rule_domain(const struct policy_list_info *info, const char *text,
    struct policy_rule *r, const char **why)
{
	char buf[POLICY_HOST_MAX + 16];

	if ((r->dom = malloc(sizeof(*r->dom))) == NULL)
		return -ENOMEM;
	if (policy_domain_parse(text, info->any, r->dom, why) < 0)
		return -EINVAL;
	if (policy_domain_format(r->dom, buf, sizeof(buf)) < 0) {
		*why = "domain rule too long";
		return -EINVAL;
	}
	return (r->value = strdup(buf)) ? 0 : -ENOMEM;
}

/* A host service: one loopback address (or "localhost": 127.0.0.1 and
 * ::1) and one port, bound inside the sandbox by its unprivileged command
 * process (so not below 1024), and never the proxy's own ports there
 * (SANDBOX_HTTP_PROXY_PORT, SANDBOX_SOCKS_PROXY_PORT). */
static int
rule_service(const struct policy_list_info *info, const char *text,
    struct policy_rule *r, const char **why)
{
	const struct policy_domain *d;
	struct in_addr a4;
	int e = rule_domain(info, text, r, why);

	if (e < 0)
		return e;
	d = r->dom;
	if (d->kind != POLICY_DOMAIN_EXACT || d->port == 0) {
		*why = "a host service is one address and one port "
		    "(\"localhost:5432\", \"127.0.0.1:6379\", \"[::1]:8080\")";
		return -EINVAL;
	}
	if (strcmp(d->host, "localhost") != 0 && strcmp(d->host, "::1") != 0 &&
	    (inet_pton(AF_INET, d->host, &a4) != 1 ||
	     (ntohl(a4.s_addr) >> 24) != 127)) {
		*why = "a host service is on the host's loopback (localhost, "
		    "127.0.0.0/8 or [::1])";
		return -EINVAL;
	}
	/* The sandbox's loopback ports sbx takes: the proxy's 3128 and
	 * 1080, transparent capture's 3127 (SANDBOX_*_PORT in sandbox.h);
	 * the DNS stub's 53 is below 1024. */
	if (d->port < 1024 || d->port == 3128 || d->port == 1080 ||
	    d->port == 3127) {
		*why = "port below 1024, or sbx's own 3127, 3128 or 1080: "
		    "it cannot be bound inside the sandbox";
		return -EINVAL;
	}
	return 0;
}

/* A name glob: letters, digits, _ and *, not starting with a digit. */
static int
rule_env(const char *text, struct policy_rule *r, const char **why)
{
	size_t n = strlen(text);

	if (n == 0 || n > 255 || (text[0] >= '0' && text[0] <= '9') ||
	    strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_*") != n) {
		*why = "not a variable name or name glob (letters, digits, _ "
		    "and *, not starting with a digit)";
		return -EINVAL;
	}
	return (r->value = strdup(text)) ? 0 : -ENOMEM;
}

static int
rule_filename(const char *text, struct policy_rule *r, const char **why)
{
	if (text[0] == '\0' || strchr(text, '/') != NULL ||
	    strcmp(text, ".") == 0 || strcmp(text, "..") == 0 ||
	    strlen(text) > 255) {
		*why = "not a file name (one path component, no /)";
		return -EINVAL;
	}
	return (r->value = strdup(text)) ? 0 : -ENOMEM;
}

const char *
policy_rule_check_string(const char *s, size_t max)
{
	size_t n;

	for (n = 0; s[n] != '\0'; n++) {
		if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f)
			return "control character in string";
		if (n == max)
			return "string too long";
	}
	return NULL;
}

int
policy_rule_value(enum policy_list list, const char *text,
    const struct policy_ctx *ctx, struct policy_rule *r, const char **why)
{
	const struct policy_list_info *info = policy_list_info(list);

	switch (info->kind) {
	case POLICY_VALUE_PATH:
		return rule_path(info, text, ctx, r, why);
	case POLICY_VALUE_DOMAIN:
		if (list == POLICY_HOST_SERVICES)
			return rule_service(info, text, r, why);
		return rule_domain(info, text, r, why);
	case POLICY_VALUE_ENV:
		return rule_env(text, r, why);
	case POLICY_VALUE_FILENAME:
		return rule_filename(text, r, why);
	}
	*why = "unknown list";
	return -EINVAL;
}

int
policy_rule_add_text(struct policy *p, enum policy_list list,
    const char *text, const struct policy_ctx *ctx, struct policy_diags *d)
{
	const struct policy_list_info *info = policy_list_info(list);
	struct policy_rule r = { 0 };
	const char *why = NULL;
	int ret;

	if ((why = policy_rule_check_string(text, POLICY_RULE_TEXT_MAX)))
		ret = -EINVAL;
	else
		ret = policy_rule_value(list, text, ctx, &r, &why);
	if (ret == 0 || ret == 1)
		p->lists[list].set = true;
	if (ret == 0) {
		r.origin.layer = ctx->layer;
		if ((r.origin.file = strdup(ctx->file)) == NULL)
			ret = -ENOMEM;
	}
	if (ret == 0)
		ret = policy_rule_push(&p->lists[list], &r);
	if (ret == -EINVAL || ret == 1) {
		if (policy_diag_add(d, ret < 0 ? POLICY_ERROR : POLICY_WARNING,
		    "%s: %s: %s \"%.200s\": %s", ctx->file, ret < 0 ?
		    "error" : "warning", info->name, text, why) < 0)
			ret = -ENOMEM;
		else if (ret == 1)
			ret = 0;
	}
	policy_rule_clear(&r);
	return ret;
}
