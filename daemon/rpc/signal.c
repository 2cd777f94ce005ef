/* SendSignal: a signal for a session of this connection, to its command,
 * its terminal's foreground process group, or all of it. */
#include <signal.h>

#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_signal(struct conn *c, const Sbx__Envelope *env)
{
	int sig = env->signal->signo, target = env->signal->target;

	/* SIGSTOP would freeze the sandbox init itself. */
	if (sig <= 0 || sig >= NSIG || sig == SIGSTOP) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "signal %d cannot be sent", sig);
		return;
	}
	if (target < SBX__SIGNAL_TARGET__SIGNAL_TARGET_COMMAND ||
	    target > SBX__SIGNAL_TARGET__SIGNAL_TARGET_SESSION) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "unknown signal target %d", target);
		return;
	}
	session_signal_to(session_of(c, c->req), sig, target);
}

const struct rpc_entry rpc_signal_entry = {
	SBX__ENVELOPE__MSG_SIGNAL, RPC_SESSION, rpc_signal,
};
