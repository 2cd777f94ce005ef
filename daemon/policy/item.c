/* Parses the items of one rule list: strings or rule objects. */
#include <errno.h>
#include <string.h>

#include "daemon/policy/item.h"
#include "daemon/policy/rule.h"

struct item {
	const char *text;
	const char *id;
	const char *reason;
	bool allow_private;	/* "allowPrivate": true */
	bool text_in_object;	/* report value errors at the member */
};

static bool
item_string(struct policy_json *pj, json_t *v, size_t max, const char **out)
{
	const char *why;

	if (!json_is_string(v)) {
		policy_json_report(pj, POLICY_ERROR, false,
		    "expected a string, got %s", policy_json_type(v));
		return false;
	}
	if ((why = policy_rule_check_string(json_string_value(v), max))) {
		policy_json_report(pj, POLICY_ERROR, false, "%s", why);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

static bool
item_id(struct policy_json *pj, const char *id)
{
	json_t *first;

	if (id[0] == '\0' || strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(id)) {
		policy_json_report(pj, POLICY_ERROR, false, "rule id \"%s\" "
		    "may only have letters, digits, '.', '_' and '-'", id);
		return false;
	}
	if ((first = json_object_get(pj->ids, id)) != NULL) {
		policy_json_report(pj, POLICY_ERROR, false, "duplicate rule id "
		    "\"%s\" (first used at line %d)", id,
		    (int)json_integer_value(first));
		return false;
	}
	return true;
}

/* Only an allow rule for names can mean it: what a deny rule or a path
 * resolves to is not judged by address. */
static bool
item_private(struct policy_json *pj, const struct policy_list_info *info,
    json_t *v, struct item *it)
{
	if (info->kind != POLICY_VALUE_DOMAIN || !info->grant) {
		policy_json_report(pj, POLICY_ERROR, true, "allowPrivate is "
		    "only for network.allowedDomains rules");
		return false;
	}
	if (!json_is_boolean(v)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected true or "
		    "false, got %s", policy_json_type(v));
		return false;
	}
	it->allow_private = json_is_true(v);
	return true;
}

static bool
item_member(struct policy_json *pj, const struct policy_list_info *info,
    const char *name, json_t *v, struct item *it)
{
	const char *comment;

	if (strcmp(name, info->item_key) == 0) {
		it->text_in_object = true;
		return item_string(pj, v, POLICY_RULE_TEXT_MAX, &it->text);
	}
	if (strcmp(name, "id") == 0)
		return item_string(pj, v, POLICY_ITEM_ID_MAX, &it->id) &&
		    item_id(pj, it->id);
	if (strcmp(name, "reason") == 0)
		return item_string(pj, v, POLICY_ITEM_REASON_MAX, &it->reason);
	if (strcmp(name, "_comment") == 0)
		return item_string(pj, v, POLICY_ITEM_REASON_MAX, &comment);
	if (strcmp(name, "allowPrivate") == 0)
		return item_private(pj, info, v, it);
	policy_json_report(pj, POLICY_ERROR, true, "unknown key in a rule "
	    "(expected \"%s\", \"id\", \"reason\" or \"_comment\")",
	    info->item_key);
	return false;
}

static bool
item_object(struct policy_json *pj, const struct policy_list_info *info,
    json_t *obj, struct item *it)
{
	const char *name;
	json_t *v;
	bool ok = true;

	json_object_foreach(obj, name, v) {
		policy_json_push_key(pj, name);
		ok = item_member(pj, info, name, v, it) && ok;
		policy_json_pop(pj);
	}
	if (ok && it->text == NULL) {
		policy_json_report(pj, POLICY_ERROR, false,
		    "a rule object needs \"%s\"", info->item_key);
		ok = false;
	}
	return ok;
}

static int
item_keep(struct policy_json *pj, const struct item *it,
    struct policy_rule *r, struct policy_rules *l)
{
	struct policy_origin *o = &r->origin;
	json_t *line;

	policy_json_where(pj, false, &o->line, &o->col);
	o->layer = pj->ctx->layer;
	if ((o->file = strdup(pj->ctx->file)) == NULL ||
	    (it->id && (o->id = strdup(it->id)) == NULL) ||
	    (it->reason && (o->reason = strdup(it->reason)) == NULL))
		return -ENOMEM;
	if (it->id != NULL) {
		if ((line = json_integer(o->line)) == NULL ||
		    json_object_set_new(pj->ids, it->id, line) < 0)
			return -ENOMEM;
	}
	return policy_rule_push(l, r);
}

static void
item_parse(struct policy_json *pj, json_t *v, enum policy_list list,
    struct policy *p)
{
	const struct policy_list_info *info = policy_list_info(list);
	struct policy_rule r = { 0 };
	struct item it = { 0 };
	const char *why = NULL;
	int ret;

	if (json_is_object(v)) {
		if (!item_object(pj, info, v, &it))
			return;
	} else if (!json_is_string(v)) {
		policy_json_report(pj, POLICY_ERROR, false, "expected a string "
		    "or a rule object, got %s", policy_json_type(v));
		return;
	} else if (!item_string(pj, v, POLICY_RULE_TEXT_MAX, &it.text)) {
		return;
	}
	ret = policy_rule_value(list, it.text, pj->ctx, &r, &why);
	if (ret == -EINVAL || ret == 1) {
		if (it.text_in_object)
			policy_json_push_key(pj, info->item_key);
		policy_json_report(pj, ret < 0 ? POLICY_ERROR : POLICY_WARNING,
		    false, "\"%.200s\": %s", it.text, why);
		if (it.text_in_object)
			policy_json_pop(pj);
	} else if (ret == 0) {
		if (it.allow_private)
			r.flags |= POLICY_RULE_PRIVATE;
		ret = item_keep(pj, &it, &r, &p->lists[list]);
	}
	if (ret == -ENOMEM && pj->err == 0)
		pj->err = -ENOMEM;
	policy_rule_clear(&r);
}

void
policy_item_parse_list(struct policy_json *pj, json_t *arr,
    enum policy_list list, struct policy *p)
{
	json_t *v;
	size_t i;

	if (!json_is_array(arr)) {
		policy_json_report(pj, POLICY_ERROR, false,
		    "expected an array, got %s", policy_json_type(arr));
		return;
	}
	p->lists[list].set = true;
	if (json_array_size(arr) > POLICY_MAX_RULES) {
		policy_json_report(pj, POLICY_ERROR, false, "more than %d "
		    "rules", POLICY_MAX_RULES);
		return;
	}
	json_array_foreach(arr, i, v) {
		policy_json_push_index(pj, i);
		item_parse(pj, v, list, p);
		policy_json_pop(pj);
	}
}
