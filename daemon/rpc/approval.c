/* ApprovalDecision: the session's client answers its proxy's question. */
#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_approval(struct conn *c, const Sbx__Envelope *env)
{
	struct session *s = session_of(c, c->req);

	/* A late answer after the session ended is not an error. */
	if (s)
		session_approval(s, env->approval_decision);
}

const struct rpc_entry rpc_approval_entry = {
	SBX__ENVELOPE__MSG_APPROVAL_DECISION, 0, rpc_approval,
};
