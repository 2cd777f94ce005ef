/* Attach: a session kept past its client (keep_on_disconnect) goes on with
 * this connection. */
#include <errno.h>

#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_attach(struct conn *c, const Sbx__Envelope *env)
{
	uint64_t id = env->attach->session_id;
	struct session *s = session_find_any(id);
	int r = s ? session_attach(s, c, env->attach->stdin_credit) : -ENOENT;

	if (r == -EBUSY)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_BUSY,
			   "session %llu has a client attached",
			   (unsigned long long)id);
	else if (r < 0)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			   "no session %llu to attach (it was not kept on "
			   "disconnect, or it has ended)",
			   (unsigned long long)id);
}

const struct rpc_entry rpc_attach_entry = {
	SBX__ENVELOPE__MSG_ATTACH, RPC_NEW_ID, rpc_attach,
};
