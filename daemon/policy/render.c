/* Turns policies into canonical JSON with the origin of every rule. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/limits.h"
#include "daemon/policy/parent.h"
#include "daemon/policy/render.h"
#include "daemon/policy/reqrule.h"

void
policy_render_origin(const struct policy_origin *o, char *buf, size_t len)
{
	if (o->line > 0)
		snprintf(buf, len, "%s %s:%d:%d", policy_layer_name(o->layer),
		    o->file, o->line, o->col);
	else
		snprintf(buf, len, "%s %s", policy_layer_name(o->layer),
		    o->file ? o->file : "?");
}

static int
set_new(json_t *obj, const char *key, json_t *v)
{
	return v != NULL && json_object_set_new(obj, key, v) == 0 ? 0 :
	    -ENOMEM;
}

static int
render_origin(json_t *obj, const char *key, const struct policy_origin *o)
{
	char buf[512];

	policy_render_origin(o, buf, sizeof(buf));
	return set_new(obj, key, json_string(buf));
}

static json_t *
render_rule(const struct policy_rule *r, const struct policy_list_info *info)
{
	json_t *o = json_object();

	if (o == NULL ||
	    set_new(o, info->item_key, json_string(r->value)) < 0 ||
	    render_origin(o, "from", &r->origin) < 0 ||
	    (r->origin.id && set_new(o, "id", json_string(r->origin.id)) < 0) ||
	    (r->origin.reason &&
	    set_new(o, "reason", json_string(r->origin.reason)) < 0) ||
	    ((r->flags & POLICY_RULE_PRIVATE) &&
	    set_new(o, "allowPrivate", json_true()) < 0) ||
	    (r->within && render_origin(o, "within", r->within) < 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
render_list(const struct policy_rules *l, const struct policy_list_info *info)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < l->n; i++) {
		if (json_array_append_new(a, render_rule(&l->v[i], info)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
render_setting(const struct policy_setting *s, enum policy_setting_id id)
{
	json_t *o = json_object(), *v;
	enum policy_tri val = s->value == POLICY_UNSET ?
	    policy_setting_default(id) : s->value;

	if (id == POLICY_UNKNOWN_HOSTS || id == POLICY_HOME)
		v = json_string(policy_setting_text(id, val));
	else
		v = json_boolean(val == POLICY_YES);
	if (o == NULL || set_new(o, "value", v) < 0 ||
	    (s->value == POLICY_UNSET ? set_new(o, "from",
	    json_string("default")) : render_origin(o, "from",
	    &s->origin)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The object a list or setting lives in, made on first use. */
static json_t *
render_section(json_t *root, const char *section)
{
	json_t *s;

	if (section == NULL)
		return root;
	if ((s = json_object_get(root, section)) != NULL)
		return s;
	if (set_new(root, section, json_object()) < 0)
		return NULL;
	return json_object_get(root, section);
}

static int
render_all(const struct policy *p, json_t *root)
{
	const struct policy_list_info *info;
	json_t *sec;
	int i;

	for (i = 0; i < POLICY_NLISTS; i++) {
		info = policy_list_info(i);
		if (!p->effective && !p->lists[i].set)
			continue;
		if ((sec = render_section(root, info->section)) == NULL ||
		    set_new(sec, info->key, render_list(&p->lists[i],
		    info)) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < POLICY_NSETTINGS; i++) {
		const char *name = policy_setting_name(i);
		const char *dot = strchr(name, '.');
		char section[16];

		if (!p->effective && p->settings[i].value == POLICY_UNSET)
			continue;
		/* Every setting is "<section>.<key>". */
		snprintf(section, sizeof(section), "%.*s", (int)(dot - name),
		    name);
		if ((sec = render_section(root, section)) == NULL ||
		    set_new(sec, dot + 1, render_setting(&p->settings[i],
		    i)) < 0)
			return -ENOMEM;
	}
	if (policy_limits_render(p, root) < 0 ||
	    policy_parent_render(p, root) < 0 ||
	    policy_reqrule_render(p, root) < 0)
		return -ENOMEM;
	if (p->serial > 0 && set_new(root, "serial",
	    json_integer(p->serial)) < 0)
		return -ENOMEM;
	return 0;
}

int
policy_render_json(const struct policy *p, json_t **out)
{
	json_t *root = json_object();

	if (root == NULL || render_all(p, root) < 0) {
		json_decref(root);
		return -ENOMEM;
	}
	*out = root;
	return 0;
}
