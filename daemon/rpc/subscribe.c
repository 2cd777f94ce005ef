/* Subscribe: this connection receives violation events as they happen
 * (`sbxctl events`), of one session or of all, as frames of the
 * Subscribe's request id, beside whatever else it does. */
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
	uint64_t id = env->subscribe->session_id;

	if (id && !session_find(id)) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			   "no running session %llu", (unsigned long long)id);
		return;
	}
	if (events_subscribe(c, id, c->req) < 0) {
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
