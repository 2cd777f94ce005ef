/* PolicyPush: an org policy from an admin (root, or signed by a trusted
 * key), stored and in force for new runs. */
#include <errno.h>

#include "daemon/conn.h"
#include "daemon/log.h"
#include "daemon/policy/org.h"
#include "daemon/rpc/rpc.h"

static void
rpc_policy_push(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__PolicyPush *p = env->policy_push;
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__PolicyPushReply rep = SBX__POLICY_PUSH_REPLY__INIT;
	struct policy_org_result res;
	char err[1024];
	int r;

	r = policy_org_push(p->policy.data, p->policy.len, p->signature.data,
			    p->signature.len, c->uid == 0, &res, err,
			    sizeof(err));
	if (r < 0) {
		log_warn("org policy push by uid %u (pid %d) refused: %s",
			 (unsigned)c->uid, (int)c->pid, err);
		conn_error(c, r == -EPERM ?
			   SBX__ERROR_CODE__ERROR_CODE_PERMISSION :
			   r == -EINVAL || r == -ENODATA || r == -ESTALE ?
			   SBX__ERROR_CODE__ERROR_CODE_INVALID :
			   SBX__ERROR_CODE__ERROR_CODE_INTERNAL, "%s", err);
		return;
	}
	rep.serial = res.serial;
	rep.stored = res.stored;
	rep.key_id = res.key_id;
	out.msg_case = SBX__ENVELOPE__MSG_POLICY_PUSH_REPLY;
	out.policy_push_reply = &rep;
	conn_send_id(c, c->req, &out);
}

/* Any served peer: policy_org_push decides who may. */
const struct rpc_entry rpc_policy_push_entry = {
	SBX__ENVELOPE__MSG_POLICY_PUSH, 0, rpc_policy_push,
};
