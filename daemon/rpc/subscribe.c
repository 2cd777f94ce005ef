/* Subscribe: this connection receives violation events as they happen
 * (`sbxctl events`), of one session or of all, as frames of the
 * Subscribe's request id, beside whatever else it does; and, as it asks,
 * approval requests to answer, lifecycle events, a session's output. */
#include <errno.h>

#include "daemon/conn.h"
#include "daemon/events.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_subscribe(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__Ack ack = SBX__ACK__INIT;
	const Sbx__Subscribe *sub = env->subscribe;
	struct events_want w = { sub->session_id, sub->approver, 0,
				 sub->mirror_output };
	size_t i;

	for (i = 0; i < sub->n_kinds; i++) {
		if (sub->kinds[i] <= 0 ||
		    sub->kinds[i] > SBX__EVENT_KIND__EVENT_KIND_SANDBOXES) {
			conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
				   "unknown event kind %d", sub->kinds[i]);
			return;
		}
		w.kinds |= 1u << sub->kinds[i];
	}
	if ((w.session_id && !session_find(w.session_id)) ||
	    (w.mirror && !session_find(w.mirror))) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			   "no running session %llu", (unsigned long long)
			   (w.session_id && !session_find(w.session_id) ?
			    w.session_id : w.mirror));
		return;
	}
	if (events_subscribe(c, c->req, &w) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "out of memory");
		return;
	}
	out.msg_case = SBX__ENVELOPE__MSG_ACK;
	out.ack = &ack;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_subscribe_entry = {
	SBX__ENVELOPE__MSG_SUBSCRIBE, RPC_NEW_ID, rpc_subscribe,
};
