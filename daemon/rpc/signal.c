/* SendSignal: a signal for this connection's command. */
#include <signal.h>

#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_signal(struct conn *c, const Sbx__Envelope *env)
{
	int sig = env->signal->signo;

	/* SIGSTOP would freeze the sandbox init itself. */
	if (sig <= 0 || sig >= NSIG || sig == SIGSTOP) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "signal %d cannot be sent", sig);
		return;
	}
	session_signal(c->session, sig);
}

const struct rpc_entry rpc_signal_entry = {
	SBX__ENVELOPE__MSG_SIGNAL, RPC_SESSION, rpc_signal,
};
