/* StdinData / StdinClose: streaming-mode input for the running command. */
#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_stdin(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__StdinData *d = env->stdin_data;

	if (session_stdin(session_of(c, c->req), d->data.data, d->data.len) < 0)
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "stdin data for a session not in streaming mode "
			  "or after stdin was closed");
}

static void
rpc_stdin_close(struct conn *c, const Sbx__Envelope *env)
{
	if (session_stdin_close(session_of(c, c->req)) < 0)
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "stdin close for a session not in streaming mode");
}

const struct rpc_entry rpc_stdin_entry = {
	SBX__ENVELOPE__MSG_STDIN_DATA, RPC_SESSION, rpc_stdin,
};
const struct rpc_entry rpc_stdin_close_entry = {
	SBX__ENVELOPE__MSG_STDIN_CLOSE, RPC_SESSION, rpc_stdin_close,
};
