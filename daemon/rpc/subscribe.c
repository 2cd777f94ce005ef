/* Subscribe: this connection receives violation events as they happen
 * (`sbxctl events`), of one session or of all. */
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

	if (c->session) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "this connection runs a session");
		return;
	}
	if (id && !session_find(id)) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			  "no running session %llu", (unsigned long long)id);
		return;
	}
	switch (events_subscribe(c, id)) {
	case 0:
		break;
	case -EALREADY:
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "already subscribed");
		return;
	default:
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			  "out of memory");
		return;
	}
	out.msg_case = SBX__ENVELOPE__MSG_ACK;
	out.ack = &ack;
	conn_send(c, &out);
}

const struct rpc_entry rpc_subscribe_entry = {
	SBX__ENVELOPE__MSG_SUBSCRIBE, 0, rpc_subscribe,
};
