/* ShutdownRequest: the daemon stops exactly as on SIGTERM. Any peer the
 * socket admits may ask (the served user and root, by SO_PEERCRED);
 * sandboxes cannot reach the socket at all. */
#include <signal.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/rpc/rpc.h"

static void
rpc_shutdown(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__Ack ack = SBX__ACK__INIT;

	out.msg_case = SBX__ENVELOPE__MSG_ACK;
	out.ack = &ack;
	conn_send_id(c, c->req, &out);
	if (sbxd.stopping)
		return;
	log_info("shutdown asked by uid %u (pid %d)", (unsigned)c->uid,
		 (int)c->pid);
	/* One way to stop: the SIGTERM handler, run from the event loop
	 * like any signal. The Ack is flushed before the connections close;
	 * this one closes as the daemon exits, which tells the client. */
	kill(getpid(), SIGTERM);
}

const struct rpc_entry rpc_shutdown_entry = {
	SBX__ENVELOPE__MSG_SHUTDOWN, 0, rpc_shutdown,
};
