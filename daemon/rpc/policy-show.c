/* PolicyShow: a workspace's effective policy as canonical JSON, each rule
 * with the layer and file:line it came from. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/policy/render.h"
#include "daemon/rpc/policy.h"
#include "daemon/rpc/rpc.h"

static void
rpc_policy_show(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__PolicyShowReply rep = SBX__POLICY_SHOW_REPLY__INIT;
	struct policy *eff = NULL;
	json_t *j = NULL;
	char ws[PATH_MAX], *text = NULL;

	if (rpc_policy_effective(c, env->policy_show->workspace, ws, &eff) < 0)
		return;
	if (policy_render_json(eff, &j) == 0)
		text = json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2));
	if (!text)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "out of memory");
	else if (strlen(text) > WIRE_FRAME_MAX - 1024)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_UNSUPPORTED,
			   "the effective policy is too large to send (%zu "
			   "bytes)", strlen(text));
	else {
		rep.json = text;
		out.msg_case = SBX__ENVELOPE__MSG_POLICY_SHOW_REPLY;
		out.policy_show_reply = &rep;
		conn_send_id(c, c->req, &out);
	}
	free(text);
	json_decref(j);
	policy_free(eff);
}

const struct rpc_entry rpc_policy_show_entry = {
	SBX__ENVELOPE__MSG_POLICY_SHOW, 0, rpc_policy_show,
};
