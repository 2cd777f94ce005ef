/* The verb table and the checks every request passes first. */
#include <stddef.h>

#include "daemon/conn.h"
#include "daemon/events.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"

static const struct rpc_entry *const rpc_table[] = {
	&rpc_hello_entry,  &rpc_run_entry,    &rpc_stdin_entry,
	&rpc_stdin_close_entry, &rpc_signal_entry, &rpc_resize_entry,
	&rpc_ps_entry,     &rpc_kill_entry,   &rpc_status_entry,
	&rpc_policy_push_entry, &rpc_policy_explain_entry,
	&rpc_policy_lint_entry, &rpc_policy_show_entry,
	&rpc_describe_entry, &rpc_approval_entry, &rpc_subscribe_entry,
	&rpc_reset_entry, &rpc_shutdown_entry, &rpc_attach_entry,
	&rpc_sandbox_create_entry, &rpc_sandbox_destroy_entry,
	&rpc_sandbox_list_entry,
};

static const struct rpc_entry *
rpc_find(Sbx__Envelope__MsgCase msg)
{
	size_t i;

	for (i = 0; i < sizeof(rpc_table) / sizeof(rpc_table[0]); i++)
		if (rpc_table[i]->msg == msg)
			return rpc_table[i];
	return NULL;
}

void
rpc_dispatch(struct conn *c, const Sbx__Envelope *env)
{
	const struct rpc_entry *e = rpc_find(env->msg_case);

	/* Replies and errors from here on echo it. */
	c->req = env->request_id;
	/* Replies (HelloReply, OutputData, ...) sent by a client land here
	 * too: they are not requests. */
	if (!e) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_UNKNOWN_MESSAGE,
			  "unknown or unexpected message (%s)",
			  env->msg_case == SBX__ENVELOPE__MSG__NOT_SET ?
				  "none" : wire_msg_name(env->msg_case));
		return;
	}
	if ((e->flags & RPC_BEFORE_HELLO) && c->hello) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "second hello");
		return;
	}
	if (!(e->flags & RPC_BEFORE_HELLO) && !c->hello) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "%s before hello", wire_msg_name(env->msg_case));
		return;
	}
	if ((e->flags & RPC_ADMIN) && c->uid != 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_PERMISSION,
			   "%s needs root", wire_msg_name(env->msg_case));
		return;
	}
	/* Input the client sent as its command ended (a StdinClose crossing
	 * the exit status) is dropped as a closed pipe drops it. */
	if ((e->flags & RPC_SESSION) && !session_of(c, c->req) &&
	    conn_op_was(c, c->req))
		return;
	if ((e->flags & RPC_SESSION) && !session_of(c, c->req)) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "%s without a running session",
			  wire_msg_name(env->msg_case));
		return;
	}
	/* A request id names one operation while it is in flight: frames
	 * for two would be told apart by nothing. */
	if ((e->flags & RPC_NEW_ID) &&
	    (session_of(c, c->req) || events_subscribed(c, &c->req))) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "request id %llu is in flight already",
			  (unsigned long long)c->req);
		return;
	}
	e->fn(c, env);
}
