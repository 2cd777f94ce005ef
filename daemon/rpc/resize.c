/* Resize: the client's terminal changed size (streaming tty sessions). */
#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_resize(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__WindowSize *ws = env->resize->winsize;

	if (!ws || ws->rows > 10000 || ws->cols > 10000) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "window size out of range");
		return;
	}
	session_resize(session_of(c, c->req), ws->rows, ws->cols);
}

const struct rpc_entry rpc_resize_entry = {
	SBX__ENVELOPE__MSG_RESIZE, RPC_SESSION, rpc_resize,
};
