/* ApprovalDecision: the session's client (under its run's or attach's id)
 * or an approver (under its Subscribe's id) answers a proxy's question;
 * the first answer wins, and one for a request that is not pending is an
 * error about that decision alone. */
#include <errno.h>
#include <stdio.h>

#include "daemon/conn.h"
#include "daemon/events.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_approval(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__ApprovalDecision *d = env->approval_decision;
	struct session *s = session_of(c, c->req);
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__Error e = SBX__ERROR__INIT;
	char msg[160];
	int r;

	if (s)
		r = session_approval(s, d, c, c->req);
	else if (events_approver(c, c->req))
		r = session_approval_any(d, c, c->req);
	else
		r = -ENOENT;	/* its run ended, or it never asked */
	if (r == 0)
		return;
	snprintf(msg, sizeof(msg), "no pending approval request %llu (unknown, "
		 "answered already, or timed out)",
		 (unsigned long long)d->request_id);
	e.code = SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND;
	e.message = msg;
	/* Set: the error ends nothing, not the run its id names. */
	e.approval_request_id = d->request_id ? d->request_id : ~0ull;
	out.msg_case = SBX__ENVELOPE__MSG_ERROR;
	out.error = &e;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_approval_entry = {
	SBX__ENVELOPE__MSG_APPROVAL_DECISION, 0, rpc_approval,
};
