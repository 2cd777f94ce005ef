/* network.credentials: parse and merge; the values themselves are read at run time (proxy/cred.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/credential.h"
#include "daemon/policy/json.h"
#include "daemon/policy/netrule.h"
#include "daemon/policy/reqrule.h"
#include "daemon/policy/rule.h"

static void
cred_clear(struct policy_cred *c)
{
	size_t i;

	free(c->id);
	free(c->env);
	free(c->file);
	for (i = 0; c->command && c->command[i]; i++)
		free(c->command[i]);
	free(c->command);
	for (i = 0; i < c->nhosts; i++)
		free(c->hosts[i]);
	free(c->hosts);
	free(c->header);
	free(c->format);
	free(c->sigv4);
	policy_rule_origin_clear(&c->origin);
	memset(c, 0, sizeof(*c));
}

void
policy_cred_free(struct policy_cred *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cred_clear(&v[i]);
	free(v);
}

static int
push(struct policy_l7 *l7, struct policy_cred *c)
{
	struct policy_cred *v = realloc(l7->cred, (l7->ncred + 1) * sizeof(*v));

	if (v == NULL)
		return -ENOMEM;
	l7->cred = v;
	v[l7->ncred++] = *c;
	memset(c, 0, sizeof(*c));
	return 0;
}

static const char *
str(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* What is wrong with a command (NULL: none), or NULL. An argv, no shell:
 * the first word an absolute path or a bare name looked up in PATH (a
 * relative path would depend on the daemon's directory). */
static const char *
check_command(json_t *a)
{
	const char *w;
	json_t *e;
	size_t i;

	if (a == NULL)
		return NULL;
	if (!json_is_array(a) || json_array_size(a) == 0 ||
	    json_array_size(a) > 64)
		return "command: an array of 1 to 64 strings (the argv, no "
		    "shell)";
	json_array_foreach(a, i, e)
		if (!json_is_string(e) || strlen(json_string_value(e)) !=
		    json_string_length(e) || json_string_length(e) > 4096)
			return "command: each word a string (no NUL)";
	w = json_string_value(json_array_get(a, 0));
	if (w[0] == '\0' || (w[0] != '/' && strchr(w, '/') != NULL))
		return "command: the program an absolute path or a name looked "
		    "up in PATH";
	return NULL;
}

/* What is wrong with entry o, or NULL. */
static const char *
check(json_t *o)
{
	static const char *const keys[] = { "id", "env", "file", "command",
	    "hosts",
	    "header", "format", "sigv4", "body", "reason", "_comment", NULL };
	const char *k, *f = str(o, "format"), *h = str(o, "header"), *why;
	json_t *v, *hosts = json_object_get(o, "hosts"), *e;
	struct netrule nr;
	size_t i;

	json_object_foreach(o, k, v) {
		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (keys[i] == NULL)
			return "unknown key in a credential (id, env, file, "
			    "command, hosts, header, format, sigv4, body, "
			    "reason)";
		if (!strcmp(k, "body") && !json_is_boolean(v))
			return "body: true or false";
		if (strcmp(k, "hosts") && strcmp(k, "body") &&
		    strcmp(k, "command") && !json_is_string(v))
			return "credential fields are strings, but hosts, "
			    "command and body";
	}
	if (str(o, "id") == NULL || policy_rule_check_string(str(o, "id"),
	    100) != NULL)
		return "a credential needs an \"id\" (a short name for events)";
	if ((str(o, "env") != NULL) + (str(o, "file") != NULL) +
	    (json_object_get(o, "command") != NULL) != 1)
		return "a credential names one source: \"env\", \"file\" or "
		    "\"command\"";
	if ((why = check_command(json_object_get(o, "command"))) != NULL)
		return why;
	if (str(o, "env") && (!strcmp(str(o, "env"), "TMPDIR") ||
	    !strncmp(str(o, "env"), "SBX_", 4) || str(o, "env")[0] == '\0' ||
	    strchr(str(o, "env"), '=') != NULL))
		return "env: a variable name (not TMPDIR or SBX_*, which sbx "
		    "sets)";
	if (str(o, "sigv4") && (!strncmp(str(o, "sigv4"), "SBX_", 4) ||
	    str(o, "sigv4")[0] == '\0' || strchr(str(o, "sigv4"), '=')))
		return "sigv4: the variable holding the access key id";
	if (str(o, "file") && str(o, "file")[0] != '/')
		return "file: an absolute path";
	if (!json_is_array(hosts) || json_array_size(hosts) == 0)
		return "a credential needs \"hosts\": the domain rules it may "
		    "go to";
	json_array_foreach(hosts, i, e)
		if (!json_is_string(e) || netrule_parse(json_string_value(e),
		    strlen(json_string_value(e)), &nr, &why) < 0)
			return "hosts: each one a domain rule";
	if (h && (h[0] == '\0' || strpbrk(h, ": \t\r\n") != NULL))
		return "header: a field name";
	if (f && (strstr(f, "{}") == NULL || strstr(strstr(f, "{}") + 2,
	    "{}") != NULL || strpbrk(f, "\r\n") != NULL))
		return "format: one line with \"{}\" once, e.g. \"Bearer {}\"";
	return NULL;
}

static int
entry(struct policy_json *pj, json_t *o, struct policy_l7 *l7)
{
	struct policy_cred c = { 0 };
	const char *why = check(o), *s;
	json_t *hosts = json_object_get(o, "hosts"), *e;
	json_t *cmd = json_object_get(o, "command");
	size_t i;

	if (why != NULL) {
		policy_json_report(pj, POLICY_ERROR, false, "%s", why);
		return 0;
	}
	policy_json_where(pj, false, &c.origin.line, &c.origin.col);
	c.body = json_is_true(json_object_get(o, "body"));
	c.origin.layer = pj->ctx->layer;
	c.hosts = calloc(json_array_size(hosts), sizeof(*c.hosts));
	if (c.hosts == NULL || (c.id = strdup(str(o, "id"))) == NULL ||
	    ((s = str(o, "env")) && (c.env = strdup(s)) == NULL) ||
	    ((s = str(o, "file")) && (c.file = strdup(s)) == NULL) ||
	    ((s = str(o, "sigv4")) && (c.sigv4 = strdup(s)) == NULL) ||
	    (c.header = strdup(str(o, "header") ? str(o, "header") :
	    "Authorization")) == NULL ||
	    (c.format = strdup(str(o, "format") ? str(o, "format") : "{}")) ==
	    NULL || (c.origin.file = strdup(pj->ctx->file)) == NULL ||
	    (c.origin.id = strdup(c.id ? c.id : "")) == NULL)
		goto nomem;
	json_array_foreach(hosts, i, e) {
		if ((c.hosts[i] = strdup(json_string_value(e))) == NULL)
			goto nomem;
		c.nhosts++;
	}
	if (cmd && (c.command = calloc(json_array_size(cmd) + 1,
	    sizeof(*c.command))) == NULL)
		goto nomem;
	json_array_foreach(cmd, i, e)
		if ((c.command[i] = strdup(json_string_value(e))) == NULL)
			goto nomem;
	if (push(l7, &c) == 0)
		return 0;
nomem:
	cred_clear(&c);
	return -ENOMEM;
}

int
policy_cred_parse(struct policy_json *pj, json_t *v, struct policy_l7 *l7)
{
	json_t *o;
	size_t i;
	int r = 0;

	if (pj->ctx->layer != POLICY_LAYER_ORG &&
	    pj->ctx->layer != POLICY_LAYER_USER) {
		policy_json_report(pj, POLICY_ERROR, true, "credentials are "
		    "only accepted in an org or user policy: a workspace "
		    "could send a secret anywhere");
		return 0;
	}
	if (!json_is_array(v)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected an array "
		    "of credential objects, got %s", policy_json_type(v));
		return 0;
	}
	json_array_foreach(v, i, o) {
		policy_json_push_index(pj, i);
		if (!json_is_object(o))
			policy_json_report(pj, POLICY_ERROR, false,
			    "expected an object");
		else
			r = entry(pj, o, l7);
		policy_json_pop(pj);
		if (r < 0)
			return r;
	}
	return 0;
}

static int
copy(struct policy_cred *d, const struct policy_cred *s)
{
	size_t i, n;

	memset(d, 0, sizeof(*d));
	d->body = s->body;
	if ((d->hosts = calloc(s->nhosts, sizeof(*d->hosts))) == NULL ||
	    (d->id = strdup(s->id)) == NULL ||
	    (s->env && (d->env = strdup(s->env)) == NULL) ||
	    (s->file && (d->file = strdup(s->file)) == NULL) ||
	    (s->sigv4 && (d->sigv4 = strdup(s->sigv4)) == NULL) ||
	    (d->header = strdup(s->header)) == NULL ||
	    (d->format = strdup(s->format)) == NULL ||
	    policy_rule_origin_copy(&d->origin, &s->origin) < 0)
		return -ENOMEM;
	for (i = 0; i < s->nhosts; i++, d->nhosts++)
		if ((d->hosts[i] = strdup(s->hosts[i])) == NULL)
			return -ENOMEM;
	for (n = 0; s->command && s->command[n]; n++)
		;
	if (s->command && (d->command = calloc(n + 1, sizeof(*d->command))) ==
	    NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if ((d->command[i] = strdup(s->command[i])) == NULL)
			return -ENOMEM;
	return 0;
}

int
policy_cred_merge(const struct policy_l7 *src, struct policy_l7 *dst)
{
	struct policy_cred c;
	size_t i;

	for (i = 0; i < src->ncred; i++)
		if (copy(&c, &src->cred[i]) < 0 || push(dst, &c) < 0) {
			cred_clear(&c);
			return -ENOMEM;
		}
	return 0;
}
