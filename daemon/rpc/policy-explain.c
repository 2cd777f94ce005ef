/* PolicyExplain: the decision on one path, host or variable in a
 * workspace, and the rule, layer and file:line that made it; or the value
 * of one of its limits and where it comes from. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/policy/explain-ignore.h"
#include "daemon/policy/explain.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/render.h"
#include "daemon/policy/rule.h"
#include "daemon/policy/store.h"
#include "daemon/rpc/policy.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"

static const char *const verdicts[] = { "allow", "deny", "ask" };
static const char *const accesses[] = { "read", "write", "connect", "env" };

/* The wire form of an origin; strings are borrowed from the policy. */
static void
origin(Sbx__PolicyOrigin *o, const struct policy_origin *from)
{
	/* The enums agree: builtin is UNSPECIFIED, then org .. request. */
	o->layer = (Sbx__PolicyLayer)from->layer;
	o->file = from->file ? from->file : (char *)"";
	o->line = from->line > 0 ? (uint32_t)from->line : 0;
	o->col = from->col > 0 ? (uint32_t)from->col : 0;
	o->id = from->id ? from->id : (char *)"";
	o->reason = from->reason ? from->reason : (char *)"";
}

static int
decide(const struct policy *eff, const Sbx__PolicyExplain *q, const char *ws,
       struct policy_decision *d)
{
	if (q->path[0])
		return policy_explain_path(eff, q->path, q->write ?
					   POLICY_ACCESS_WRITE :
					   POLICY_ACCESS_READ,
					   policy_store_home(),
					   sandbox_caps()->home_overlay ?
					   policy_store_home() : NULL, ws, d);
	if (q->host[0])
		return policy_explain_host(eff, q->host, d);
	return policy_explain_env(eff, q->env, q->env_value, d);
}

static void
reply(struct conn *c, const struct policy_decision *d, const char *text)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__PolicyExplainReply rep = SBX__POLICY_EXPLAIN_REPLY__INIT;
	Sbx__PolicyOrigin o = SBX__POLICY_ORIGIN__INIT;
	Sbx__PolicyOrigin w = SBX__POLICY_ORIGIN__INIT;

	rep.verdict = (char *)verdicts[d->verdict];
	rep.access = (char *)accesses[d->access];
	rep.target = (char *)d->target;
	rep.why = (char *)d->why;
	rep.text = (char *)text;
	if (d->rule) {
		rep.list = d->list == POLICY_IGNORE_FILES ?
			   (char *)"ignore file" :
			   (char *)policy_list_info(d->list)->name;
		rep.value = d->rule->value;
		origin(&o, &d->rule->origin);
		rep.origin = &o;
		if (d->rule->within) {
			origin(&w, d->rule->within);
			rep.within = &w;
		}
	} else if (d->setting) {
		rep.list = (char *)policy_setting_name(d->setting_id);
		rep.value = (char *)policy_setting_text(d->setting_id,
							d->setting->value);
		origin(&o, &d->setting->origin);
		rep.origin = &o;
	}
	out.msg_case = SBX__ENVELOPE__MSG_POLICY_EXPLAIN_REPLY;
	out.policy_explain_reply = &rep;
	conn_send_id(c, c->req, &out);
}

/* The policy allows the path but an ignore file masks it: the sandbox
 * denies it (reads, and so writes), and the ignore line is the rule. */
static void
reply_ignore(struct conn *c, struct policy_decision *d,
	     const struct explain_ignore_hit *hit)
{
	struct policy_rule r = { 0 };
	char text[POLICY_TARGET_MAX + sizeof(hit->file) + sizeof(hit->pattern) +
		  128];

	r.value = (char *)hit->pattern;
	r.origin.layer = POLICY_LAYER_WORKSPACE;
	r.origin.file = (char *)hit->file;
	r.origin.line = (int)hit->line;
	d->verdict = POLICY_VERDICT_DENY;
	d->rule = &r;
	d->list = POLICY_IGNORE_FILES;
	d->why = d->access == POLICY_ACCESS_WRITE ?
		 "masked by an ignore file, so not writable either" :
		 "masked by an ignore file";
	snprintf(text, sizeof(text), "deny %s %s: %s\n  rule: ignore pattern "
		 "\"%s\"\n  from: workspace %s:%u", accesses[d->access],
		 d->target, d->why, hit->pattern, hit->file, hit->line);
	reply(c, d, text);
}

/* limits.KEY: the value that applies to the workspace's sandboxes and
 * the layer that set it, or the machine's default. */
static void
explain_limit(struct conn *c, const struct policy *eff, const char *key)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__PolicyExplainReply rep = SBX__POLICY_EXPLAIN_REPLY__INIT;
	Sbx__PolicyOrigin o = SBX__POLICY_ORIGIN__INIT;
	const struct policy_origin *from = NULL;
	struct policy_limit_defaults d;
	char val[32], where[512], text[1024];
	unsigned long long v;
	int id;

	for (id = 0; id < POLICY_NLIMITS; id++)
		if (!strcmp(key, policy_limit_key(id)))
			break;
	if (id == POLICY_NLIMITS) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			  "no such limit: limits.%s (pids, memory, cpu, tmp, "
			  "home)", key);
		return;
	}
	session_limit_defaults(&d);
	v = policy_limit_resolve(eff, id, &d, &from);
	if (v == 0)
		snprintf(val, sizeof(val), "none");
	else
		policy_limit_format(id, v, val, sizeof(val));
	if (from)
		policy_render_origin(from, where, sizeof(where));
	snprintf(text, sizeof(text), "%s: %s per sandbox\n  from: %s%s",
		 policy_limit_name(id), val, from ? where : "default, sized "
		 "from this machine", sandbox_caps()->cgroups[0] ||
		 id == POLICY_LIMIT_TMP || id == POLICY_LIMIT_HOME ? "" :
		 "\n  not enforced here: sandboxes have no cgroups (sbxctl "
		 "status says why)");
	rep.verdict = (char *)"limit";
	rep.access = (char *)"limit";
	rep.target = (char *)policy_limit_name(id);
	rep.why = val;
	rep.text = text;
	rep.list = (char *)policy_limit_name(id);
	rep.value = val;
	if (from) {
		origin(&o, from);
		rep.origin = &o;
	}
	out.msg_case = SBX__ENVELOPE__MSG_POLICY_EXPLAIN_REPLY;
	out.policy_explain_reply = &rep;
	conn_send(c, &out);
}

static void
rpc_policy_explain(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__PolicyExplain *q = env->policy_explain;
	const char *t = q->path[0] ? q->path : q->host[0] ? q->host : q->env;
	struct explain_ignore_hit hit;
	struct policy_decision d;
	struct policy *eff = NULL;
	char ws[PATH_MAX], text[8192];
	int r = 0;

	if (q->limit[0] && !q->path[0] && !q->host[0] && !q->env[0]) {
		if (rpc_policy_effective(c, q->workspace, ws, &eff) == 0)
			explain_limit(c, eff, q->limit);
		policy_free(eff);
		return;
	}
	if (!!q->path[0] + !!q->host[0] + !!q->env[0] != 1 ||
	    policy_rule_check_string(t, POLICY_PATH_MAX)) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "explain takes one path, host or variable name");
		return;
	}
	if (rpc_policy_effective(c, q->workspace, ws, &eff) < 0)
		return;
	if (decide(eff, q, ws, &d) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "not a valid %s: %s", q->path[0] ? "path" :
			   q->host[0] ? "host" : "variable name", t);
		goto out;
	}
	if (q->path[0] && d.verdict == POLICY_VERDICT_ALLOW &&
	    (r = explain_ignore(eff, ws, d.target, &hit)) == 1) {
		reply_ignore(c, &d, &hit);
		goto out;
	}
	if (r < 0)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "ignore files: %s", r == -EINVAL ? hit.file :
			   strerror(-r));
	else {
		policy_explain_format(&d, text, sizeof(text));
		reply(c, &d, text);
	}
out:
	policy_free(eff);
}

const struct rpc_entry rpc_policy_explain_entry = {
	SBX__ENVELOPE__MSG_POLICY_EXPLAIN, 0, rpc_policy_explain,
};
