/* Kernel-reported denials (Landlock audit records) matched to the policy:
 * a path's deciding rule comes from policy_explain_path(), as `sbxctl
 * policy explain` would give it; scopes are sbx's own Landlock scoping. */
#include <stdio.h>
#include <string.h>

#include "daemon/policy/fsdenial.h"

static void
describe_path(const struct policy *p, const char *home, const char *overlay,
	      const char *ws, const char *target, struct fsdenial *f,
	      struct violation *v)
{
	const struct policy_rule *r;

	v->rule = "filesystem.allowWrite";
	v->detail = "outside the writable paths";
	if (!p || policy_explain_path(p, target, POLICY_ACCESS_WRITE, home,
				      overlay, ws, &f->d) < 0)
		return;
	if (f->d.why)
		v->detail = f->d.why;
	if (!(r = f->d.rule) && f->d.setting) {
		snprintf(f->rule, sizeof(f->rule), "%s \"%s\"",
			 policy_setting_name(f->d.setting_id),
			 policy_setting_text(f->d.setting_id,
					     f->d.setting->value));
		v->rule = f->rule;
		v->layer = (int)f->d.setting->origin.layer;
		v->file = f->d.setting->origin.file;
		return;
	}
	if (!r)
		return;
	snprintf(f->rule, sizeof(f->rule), "%s \"%s\"",
		 policy_list_info(f->d.list)->name, r->value);
	v->rule = f->rule;
	v->rule_id = r->origin.id;
	v->layer = (int)r->origin.layer;
	v->file = r->origin.file;
	v->reason = r->origin.reason;
}

void
fsdenial_describe(const struct policy *p, const char *home,
		  const char *overlay, const char *workspace, int kind, const char *access,
		  const char *target, struct fsdenial *f, struct violation *v)
{
	memset(v, 0, sizeof(*v));
	v->kind = (enum violation_kind)kind;
	v->target = target;
	v->layer = VIOLATION_NO_LAYER;
	/* "fs.write_file" -> "write_file" */
	v->operation = strchr(access, '.') ? strchr(access, '.') + 1 : access;
	switch (kind) {
	case VIOLATION_FS_WRITE:
	case VIOLATION_FS_CREATE:
		describe_path(p, home, overlay, workspace, target, f, v);
		break;
	case VIOLATION_SIGNAL:
	case VIOLATION_IPC:
		snprintf(f->rule, sizeof(f->rule), "builtin Landlock scope");
		snprintf(f->detail, sizeof(f->detail), "landlock.%s", access);
		v->rule = f->rule;
		v->rule_id = f->detail;
		v->layer = POLICY_LAYER_BUILTIN;
		v->detail = "outside the sandbox's Landlock domain";
		break;
	default:
		snprintf(f->detail, sizeof(f->detail), "landlock.%s", access);
		v->rule = "builtin Landlock rules";
		v->rule_id = f->detail;
		v->layer = POLICY_LAYER_BUILTIN;
		break;
	}
}
