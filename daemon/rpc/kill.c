/* KillSession: a signal for any session of this daemon, by id. */
#include <signal.h>

#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static void
rpc_kill(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__KillSession *k = env->kill_session;
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__Ack ack = SBX__ACK__INIT;
	struct session *s = session_find(k->session_id);
	int sig = k->signo ? k->signo : SIGTERM;

	if (sig <= 0 || sig >= NSIG || sig == SIGSTOP) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "signal %d cannot be sent", sig);
		return;
	}
	if (!s) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			   "no session %llu",
			   (unsigned long long)k->session_id);
		return;
	}
	session_signal(s, sig);
	out.msg_case = SBX__ENVELOPE__MSG_ACK;
	out.ack = &ack;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_kill_entry = {
	SBX__ENVELOPE__MSG_KILL_SESSION, 0, rpc_kill,
};
