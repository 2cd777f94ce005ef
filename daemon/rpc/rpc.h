/* Request dispatch: one table of verbs, each in its own file in rpc/, with the
 * permission flags checked before any handler runs. */
#ifndef SBX_RPC_H
#define SBX_RPC_H

#include <stdbool.h>

#include "proto/wire.h"

struct conn;

#define RPC_BEFORE_HELLO 0x1  /* the only request allowed first (Hello) */
#define RPC_ADMIN 0x2         /* root peers only */
#define RPC_SESSION 0x4       /* for the session of this connection's run
				 or attach with the request's id */
#define RPC_NEW_ID 0x8        /* starts an operation that lasts (run,
				 attach, subscribe): its id must be free */

struct rpc_entry {
	Sbx__Envelope__MsgCase msg;
	unsigned flags;
	/* Handles one request; on a fatal error it calls conn_fail(). */
	void (*fn)(struct conn *c, const Sbx__Envelope *env);
};

void rpc_dispatch(struct conn *c, const Sbx__Envelope *env);

struct policy;
/* rpc/run.c, for CreateSandbox too: req's run fields checked (argv only
 * when argv), cwd and workspace resolved into cwd and ws (PATH_MAX each;
 * req points at them), the request's policy layer into *pol. On failure
 * the error is sent and fds closed: -1. */
int rpc_run_prepare(struct conn *c, Sbx__RunRequest *req, bool argv,
		    char *cwd, char *ws, struct policy **pol, int *fds,
		    int nfds);

extern const struct rpc_entry rpc_hello_entry;
extern const struct rpc_entry rpc_run_entry;
extern const struct rpc_entry rpc_stdin_entry;
extern const struct rpc_entry rpc_stdin_close_entry;
extern const struct rpc_entry rpc_signal_entry;
extern const struct rpc_entry rpc_resize_entry;
extern const struct rpc_entry rpc_ps_entry;
extern const struct rpc_entry rpc_kill_entry;
extern const struct rpc_entry rpc_status_entry;
extern const struct rpc_entry rpc_policy_push_entry;
extern const struct rpc_entry rpc_policy_explain_entry;
extern const struct rpc_entry rpc_policy_lint_entry;
extern const struct rpc_entry rpc_policy_show_entry;
extern const struct rpc_entry rpc_describe_entry;
extern const struct rpc_entry rpc_reset_entry;
extern const struct rpc_entry rpc_approval_entry;
extern const struct rpc_entry rpc_subscribe_entry;
extern const struct rpc_entry rpc_shutdown_entry;
extern const struct rpc_entry rpc_attach_entry;
extern const struct rpc_entry rpc_sandbox_create_entry;
extern const struct rpc_entry rpc_sandbox_destroy_entry;
extern const struct rpc_entry rpc_sandbox_list_entry;

#endif
