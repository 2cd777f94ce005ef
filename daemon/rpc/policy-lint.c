/* PolicyLint: a candidate policy file merged below the daemon's current
 * higher layers, to say what of it would be cut ("widens beyond a higher
 * layer"). The client reports parse errors itself. */
#include <stdlib.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/policy/rule.h"
#include "daemon/policy/store.h"
#include "daemon/rpc/policy.h"
#include "daemon/rpc/rpc.h"

static void
reply(struct conn *c, const struct policy_diags *d, const char *file,
      size_t errors)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__PolicyLintReply rep = SBX__POLICY_LINT_REPLY__INIT;
	char **v = calloc(d->n + 1, sizeof(*v));
	size_t i, n = strlen(file);

	/* Only what is about this file: the layers above are not on trial. */
	for (i = 0; v && i < d->n; i++)
		if (!strncmp(d->v[i].msg, file, n) && d->v[i].msg[n] == ':')
			v[rep.n_diagnostics++] = d->v[i].msg;
	rep.diagnostics = v;
	rep.errors = (uint32_t)errors;
	out.msg_case = SBX__ENVELOPE__MSG_POLICY_LINT_REPLY;
	out.policy_lint_reply = &rep;
	conn_send_id(c, c->req, &out);
	free(v);
}

static void
rpc_policy_lint(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__PolicyLint *q = env->policy_lint;
	struct policy_ctx ctx = { POLICY_LAYER_ORG, q->file,
				  policy_store_home(), NULL };
	struct policy_diags parse = { 0 }, merge = { 0 };
	struct policy *doc = NULL;
	char ws[PATH_MAX], err[512];

	if (q->layer < SBX__POLICY_LAYER__POLICY_LAYER_ORG ||
	    q->layer > SBX__POLICY_LAYER__POLICY_LAYER_REQUEST ||
	    !q->file[0] || policy_rule_check_string(q->file, PATH_MAX) ||
	    q->policy.len > POLICY_MAX_BYTES) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "lint needs a layer, a file name and at most %d "
			   "bytes", POLICY_MAX_BYTES);
		return;
	}
	if (rpc_policy_workspace(c, q->workspace, ws) < 0)
		return;
	ctx.layer = (enum policy_layer)q->layer;
	ctx.workspace = ws;
	if (policy_parse(q->policy.data, q->policy.len, &ctx, &doc,
			 &parse) < 0)
		reply(c, &merge, q->file, parse.errors ? parse.errors : 1);
	else if (policy_store_lint(doc, ws, &merge, err, sizeof(err)) < 0)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "cannot check against the layers above: %s", err);
	else
		reply(c, &merge, q->file, merge.errors);
	policy_diag_free(&parse);
	policy_diag_free(&merge);
	policy_free(doc);
}

const struct rpc_entry rpc_policy_lint_entry = {
	SBX__ENVELOPE__MSG_POLICY_LINT, 0, rpc_policy_lint,
};
