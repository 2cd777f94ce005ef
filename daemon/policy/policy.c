/* Parses one policy document: keys, sections, settings and serial. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/domain.h"
#include "daemon/policy/item.h"
#include "daemon/policy/json.h"
#include "daemon/policy/keys.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/parent.h"
#include "daemon/policy/reqrule.h"
#include "daemon/policy/rule.h"

static const struct policy_list_info list_info[POLICY_NLISTS] = {
	[POLICY_DENY_READ] = { "filesystem", "denyRead",
	    "filesystem.denyRead", "path", POLICY_VALUE_PATH, false, true,
	    false },
	[POLICY_ALLOW_READ] = { "filesystem", "allowRead",
	    "filesystem.allowRead", "path", POLICY_VALUE_PATH, false, false,
	    false },
	[POLICY_ALLOW_WRITE] = { "filesystem", "allowWrite",
	    "filesystem.allowWrite", "path", POLICY_VALUE_PATH, true, false,
	    false },
	[POLICY_DENY_WRITE] = { "filesystem", "denyWrite",
	    "filesystem.denyWrite", "path", POLICY_VALUE_PATH, false, true,
	    false },
	[POLICY_ALLOWED_DOMAINS] = { "network", "allowedDomains",
	    "network.allowedDomains", "domain", POLICY_VALUE_DOMAIN, true,
	    false, false },
	[POLICY_DENIED_DOMAINS] = { "network", "deniedDomains",
	    "network.deniedDomains", "domain", POLICY_VALUE_DOMAIN, false,
	    false, true },
	[POLICY_UNIX_SOCKETS] = { "network", "allowUnixSockets",
	    "network.allowUnixSockets", "path", POLICY_VALUE_PATH, true, false,
	    false },
	[POLICY_ENV_PASS] = { "env", "pass", "env.pass", "name",
	    POLICY_VALUE_ENV, true, false, false },
	[POLICY_ENV_DENY] = { "env", "deny", "env.deny", "name",
	    POLICY_VALUE_ENV, false, false, false },
	[POLICY_IGNORE_FILES] = { NULL, "ignoreFiles", "ignoreFiles", "name",
	    POLICY_VALUE_FILENAME, false, false, false },
	[POLICY_PROTECT] = { NULL, "protect", "protect", "path",
	    POLICY_VALUE_PATH, false, true, false },
	[POLICY_HOST_SERVICES] = { "network", "hostServices",
	    "network.hostServices", "service", POLICY_VALUE_DOMAIN, true,
	    false, false },
};

struct doc {
	struct policy_json pj;
	struct policy *p;
	json_t *reasons;	/* network.deniedDomainReasons, borrowed */
};

/* Within a document the narrow value wins whichever key came first. */
static void
doc_setting(struct doc *d, enum policy_setting_id id, enum policy_tri v)
{
	struct policy_setting *s = &d->p->settings[id];

	if (s->value == POLICY_NO)
		return;
	policy_rule_origin_clear(&s->origin);
	s->value = v;
	s->origin.layer = d->pj.ctx->layer;
	policy_json_where(&d->pj, true, &s->origin.line, &s->origin.col);
	if ((s->origin.file = strdup(d->pj.ctx->file)) == NULL)
		d->pj.err = -ENOMEM;
}

/* A setting spelled as one of two words: the narrow one, or the other. */
static void
doc_choice(struct doc *d, enum policy_setting_id id, json_t *v)
{
	const char *no = policy_setting_text(id, POLICY_NO);
	const char *yes = policy_setting_text(id, POLICY_YES);
	const char *s = json_is_string(v) ? json_string_value(v) : "";

	if (strcmp(s, no) == 0 || strcmp(s, yes) == 0)
		doc_setting(d, id, strcmp(s, no) == 0 ? POLICY_NO : POLICY_YES);
	else
		policy_json_report(&d->pj, POLICY_ERROR, false,
		    "expected \"%s\" or \"%s\"", no, yes);
}

static bool
doc_expect(struct doc *d, json_t *v, bool ok, const char *what)
{
	if (!ok)
		policy_json_report(&d->pj, POLICY_ERROR, false,
		    "expected %s, got %s", what, policy_json_type(v));
	return ok;
}

static void
doc_comment(struct doc *d, json_t *v)
{
	json_t *e;
	size_t i;
	bool ok = json_is_string(v) || json_is_array(v);

	if (json_is_array(v))
		json_array_foreach(v, i, e)
			ok = ok && json_is_string(e);
	doc_expect(d, v, ok, "a string or an array of strings");
}

static void
doc_serial(struct doc *d, json_t *v)
{
	json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;

	if (n < 1 || n > POLICY_SERIAL_MAX)
		policy_json_report(&d->pj, POLICY_ERROR, false, "serial must "
		    "be an integer from 1 to %lld", POLICY_SERIAL_MAX);
	else if (d->pj.ctx->layer != POLICY_LAYER_ORG)
		policy_json_report(&d->pj, POLICY_ERROR, true, "serial is "
		    "only accepted in an org policy");
	else
		d->p->serial = n;
}

static void doc_object(struct doc *d, json_t *obj, enum policy_section sec);

static void
doc_key(struct doc *d, const struct policy_key *k, json_t *v)
{
	switch (k->kind) {
	case POLICY_KEY_SECTION:
		if (doc_expect(d, v, json_is_object(v), "an object"))
			doc_object(d, v, k->arg);
		break;
	case POLICY_KEY_LIST:
		policy_item_parse_list(&d->pj, v, k->arg, d->p);
		break;
	case POLICY_KEY_BOOL:
		if (doc_expect(d, v, json_is_boolean(v), "true or false"))
			doc_setting(d, k->arg, json_is_true(v) ? POLICY_YES :
			    POLICY_NO);
		break;
	case POLICY_KEY_STRICT:
		if (doc_expect(d, v, json_is_boolean(v), "true or false") &&
		    json_is_true(v))
			doc_setting(d, POLICY_UNKNOWN_HOSTS, POLICY_HOSTS_DENY);
		break;
	case POLICY_KEY_HOSTS:
		doc_choice(d, POLICY_UNKNOWN_HOSTS, v);
		break;
	case POLICY_KEY_HOME:
		doc_choice(d, POLICY_HOME, v);
		break;
	case POLICY_KEY_REASONS:
		if (doc_expect(d, v, json_is_object(v), "an object"))
			d->reasons = v;
		break;
	case POLICY_KEY_SERIAL:
		doc_serial(d, v);
		break;
	case POLICY_KEY_LIMITS:
		if (doc_expect(d, v, json_is_object(v), "an object"))
			policy_limits_parse(&d->pj, v, d->p);
		break;
	case POLICY_KEY_PARENT:
		policy_parent_parse(&d->pj, v, d->p);
		break;
	case POLICY_KEY_COMMENT:
		doc_comment(d, v);
		break;
	case POLICY_KEY_L7:
		policy_reqrule_parse(&d->pj, v, k->arg, d->p);
		break;
	case POLICY_KEY_SRT:
		policy_json_report(&d->pj, POLICY_WARNING, true, "srt setting "
		    "that sbx does not implement, ignored: %s", k->note);
		break;
	}
}

static void
doc_object(struct doc *d, json_t *obj, enum policy_section sec)
{
	const struct policy_key *k;
	const char *name;
	json_t *v;

	json_object_foreach(obj, name, v) {
		policy_json_push_key(&d->pj, name);
		if ((k = policy_keys_find(sec, name)) == NULL)
			policy_keys_unknown(&d->pj, sec, name);
		else
			doc_key(d, k, v);
		policy_json_pop(&d->pj);
	}
}

/* srt keys reasons by the exact deniedDomains entry; ours live on rules. */
static void
doc_reason(struct doc *d, const char *entry, json_t *v)
{
	struct policy_rules *l = &d->p->lists[POLICY_DENIED_DOMAINS];
	struct policy_domain dom;
	const char *why;
	size_t i;

	if (!doc_expect(d, v, json_is_string(v), "a string"))
		return;
	if ((why = policy_rule_check_string(json_string_value(v), 1000))) {
		policy_json_report(&d->pj, POLICY_ERROR, false, "%s", why);
		return;
	}
	if (policy_domain_parse(entry, true, &dom, &why) < 0) {
		policy_json_report(&d->pj, POLICY_ERROR, true, "%s", why);
		return;
	}
	for (i = 0; i < l->n; i++) {
		if (l->v[i].dom->kind != dom.kind ||
		    l->v[i].dom->port != dom.port ||
		    strcmp(l->v[i].dom->host, dom.host) != 0)
			continue;
		if (l->v[i].origin.reason == NULL &&
		    (l->v[i].origin.reason = strdup(json_string_value(v))) ==
		    NULL)
			d->pj.err = -ENOMEM;
		return;
	}
	policy_json_report(&d->pj, POLICY_WARNING, true, "no such entry in "
	    "deniedDomains; reason unused");
}

static void
doc_reasons(struct doc *d)
{
	const char *entry;
	json_t *v;

	policy_json_push_key(&d->pj, "network");
	policy_json_push_key(&d->pj, "deniedDomainReasons");
	json_object_foreach(d->reasons, entry, v) {
		policy_json_push_key(&d->pj, entry);
		doc_reason(d, entry, v);
		policy_json_pop(&d->pj);
	}
	d->pj.depth = 0;
}

static int
doc_run(struct doc *d, json_t *root, const char *buf, size_t len)
{
	size_t errors = d->pj.diags->errors;
	int r;

	if ((r = policy_json_init(&d->pj, d->pj.ctx, d->pj.diags, buf,
	    len)) < 0)
		return r;
	if (!json_is_object(root))
		policy_json_report(&d->pj, POLICY_ERROR, false,
		    "a policy is a JSON object, not %s",
		    policy_json_type(root));
	else
		doc_object(d, root, POLICY_SEC_TOP);
	if (d->reasons != NULL)
		doc_reasons(d);
	if (d->pj.err < 0)
		return d->pj.err;
	return d->pj.diags->errors > errors ? -EINVAL : 0;
}

int
policy_parse(const void *buf, size_t len, const struct policy_ctx *ctx,
    struct policy **out, struct policy_diags *diags)
{
	struct doc d = { .pj = { .ctx = ctx, .diags = diags } };
	json_error_t jerr;
	json_t *root;
	int r;

	if (ctx->file == NULL || ctx->home == NULL || ctx->home[0] != '/')
		return -EINVAL;
	if (len > POLICY_MAX_BYTES)
		return policy_diag_add(diags, POLICY_ERROR, "%s: error: larger "
		    "than %d bytes", ctx->file, POLICY_MAX_BYTES) < 0 ?
		    -ENOMEM : -EINVAL;
	if ((root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr)) ==
	    NULL)
		return policy_diag_add(diags, POLICY_ERROR, "%s:%d:%d: error: "
		    "%s", ctx->file, jerr.line > 0 ? jerr.line : 1,
		    jerr.column > 0 ? jerr.column : 1, jerr.text) < 0 ?
		    -ENOMEM : -EINVAL;
	if ((d.p = policy_new(ctx->layer)) == NULL)
		r = -ENOMEM;
	else
		r = doc_run(&d, root, buf, len);
	policy_json_fini(&d.pj);
	json_decref(root);
	if (r < 0) {
		policy_free(d.p);
		return r;
	}
	*out = d.p;
	return 0;
}

int
policy_serial_check(const struct policy *org, long long current)
{
	if (org->serial <= 0)
		return -ENODATA;
	return org->serial > current ? 0 : -ESTALE;
}

struct policy *
policy_new(enum policy_layer layer)
{
	struct policy *p = calloc(1, sizeof(*p));

	if (p != NULL)
		p->layer = layer;
	return p;
}

struct policy *
policy_ref(struct policy *p)
{
	p->extra_refs++;
	return p;
}

void
policy_free(struct policy *p)
{
	int i;

	if (p == NULL)
		return;
	if (p->extra_refs > 0) {
		p->extra_refs--;
		return;
	}
	for (i = 0; i < POLICY_NLISTS; i++)
		policy_rule_free_list(&p->lists[i]);
	for (i = 0; i < POLICY_NSETTINGS; i++)
		policy_rule_origin_clear(&p->settings[i].origin);
	for (i = 0; i < POLICY_NLIMITS; i++)
		policy_rule_origin_clear(&p->limits[i].origin);
	policy_parent_clear(&p->parent);
	policy_reqrule_free(p->l7);
	free(p);
}

const struct policy_list_info *
policy_list_info(enum policy_list list)
{
	return &list_info[list];
}

const char *
policy_setting_name(enum policy_setting_id id)
{
	static const char *const names[POLICY_NSETTINGS] = {
		[POLICY_LOCAL_BINDING] = "network.allowLocalBinding",
		[POLICY_ALL_UNIX_SOCKETS] = "network.allowAllUnixSockets",
		[POLICY_UNKNOWN_HOSTS] = "network.unknownHosts",
		[POLICY_HOME] = "filesystem.home",
		[POLICY_PTRACE] = "process.allowPtrace",
	};

	return (unsigned)id < POLICY_NSETTINGS ? names[id] : "?";
}

enum policy_tri
policy_setting_default(enum policy_setting_id id)
{
	/* Debugging the sandbox's own processes reaches nothing outside
	 * it (docs/security.md, Debuggers): on unless a layer says no. */
	return id == POLICY_HOME || id == POLICY_PTRACE ? POLICY_YES :
	    POLICY_NO;
}

const char *
policy_setting_text(enum policy_setting_id id, enum policy_tri v)
{
	bool yes = (v == POLICY_UNSET ? policy_setting_default(id) : v) ==
	    POLICY_YES;

	if (id == POLICY_UNKNOWN_HOSTS)
		return yes ? "ask" : "deny";
	if (id == POLICY_HOME)
		return yes ? "overlay" : "read-only";
	return yes ? "true" : "false";
}

enum policy_tri
policy_setting_value(const struct policy *p, enum policy_setting_id id)
{
	enum policy_tri v = p->settings[id].value;

	return v == POLICY_UNSET ? policy_setting_default(id) : v;
}

const char *
policy_layer_name(enum policy_layer layer)
{
	static const char *const names[POLICY_NLAYERS] = {
		"builtin", "org", "user", "workspace", "request"
	};

	return (unsigned)layer < POLICY_NLAYERS ? names[layer] : "?";
}
