/* sbxctl mcp's effects, shared by its files: the session (one MCP client,
 * one daemon connection, one long-lived sandbox), the commands run in it
 * (mcp-proc.c), the approvals asked through elicitation (mcp-ask.c), the
 * daemon connection (mcp-daemon.c); cmd-mcp.c sets it up and runs the loop.
 * The protocol itself is pure: mcp-server.c, mcp-rpc.c, mcp-tools.c. */
#ifndef SBX_MCP_H
#define SBX_MCP_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "client/client.h"
#include "client/mcp-server.h"

struct event_base;
struct mcp_daemon;
struct mcp_ask;
struct proc;

struct mcp {
	struct event_base *base;
	struct mcp_server srv;
	struct mcp_daemon *d;
	struct mcp_ask *ask;
	struct proc *procs;	/* the commands and queries in flight */
	uint64_t next_op;	/* request ids on the daemon connection */
	uint64_t sandbox;	/* the session's long-lived sandbox */
	char workspace[PATH_MAX];
	char *describe;		/* the daemon's describe text, owned */
	bool on_ask_deny;	/* --on-ask=deny: never ask the client */
	bool lost;		/* the daemon connection is gone */
	uint64_t destroy_op;	/* the DestroySandbox's: its answer ends */
};

/* --- the daemon connection (mcp-daemon.c) --- */
/* Takes over c's socket (non-blocking from here on); frames come to
 * mcp_proc_frame, a lost connection to mcp_proc_lost. */
struct mcp_daemon *mcp_daemon_new(struct mcp *m, struct client *c);
/* Queues env under request id op. -EMSGSIZE: larger than a frame may be
 * (nothing queued); -EPIPE: the connection is gone. */
int mcp_daemon_send(struct mcp_daemon *d, const Sbx__Envelope *env,
		    uint64_t op);
/* Writes what is queued, blocking (before exit). */
void mcp_daemon_flush(struct mcp_daemon *d);
void mcp_daemon_free(struct mcp_daemon *d);

/* --- commands and queries (mcp-proc.c) --- */
/* A checked tools/call (id borrowed, args taken). */
void mcp_proc_call(struct mcp *m, json_t *id, struct mcp_args *a,
		   const struct mcp_call_ctx *ctx);
/* Whether a call of the stateless revision waits on op's command (and
 * whether its client takes elicitation). */
bool mcp_proc_call_modern(struct mcp *m, uint64_t op, bool *elicit);
/* Answers that call with an input_required result (requests taken): its
 * retry with state comes back through mcp_ask_retry. false: none waits. */
bool mcp_proc_input_required(struct mcp *m, uint64_t op, json_t *requests,
			     const char *state);
/* A frame from the daemon (env borrowed). */
void mcp_proc_frame(struct mcp *m, const Sbx__Envelope *env);
void mcp_proc_cancelled(struct mcp *m, const json_t *id);
/* The daemon is gone: every waiting call fails saying why. */
void mcp_proc_lost(struct mcp *m, const char *why);
/* A line for the command of op's next report ("sbx: ..."). */
void mcp_proc_note(struct mcp *m, uint64_t op, const char *note);
void mcp_proc_free_all(struct mcp *m);

/* --- approvals (mcp-ask.c) --- */
struct mcp_ask *mcp_ask_new(struct mcp *m);
/* The daemon asks about a connection of the command of op. */
void mcp_ask_request(struct mcp_ask *a, uint64_t op,
		     const Sbx__ApprovalRequest *req);
/* It was settled (by us, another approver, or the daemon's timeout). */
void mcp_ask_settled(struct mcp_ask *a, uint64_t op,
		     const Sbx__ApprovalAnswered *aa);
/* A retried tools/call's requestState and inputResponses: decides what
 * it answers; returns the command's op (0: the state is not ours). */
uint64_t mcp_ask_retry(struct mcp_ask *a, const char *state,
		       const json_t *responses);
/* The client answered one of our requests; false: not one of ours. */
bool mcp_ask_response(struct mcp_ask *a, const json_t *id,
		      const json_t *result, const json_t *error);
void mcp_ask_free(struct mcp_ask *a);

#endif
