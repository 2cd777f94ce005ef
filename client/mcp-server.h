/* The MCP server's protocol side: the lifecycle (initialize, version
 * negotiation, initialized), ping, tools/list, tools/call checked and handed
 * on, cancellations and responses to our own requests. Pure: what it does
 * goes through the hooks. */
#ifndef SBX_MCP_SERVER_H
#define SBX_MCP_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "client/mcp-tools.h"

/* What a tools/call says about itself beyond its tool's arguments. */
struct mcp_call_ctx {
	bool modern;	/* stateless 2026-07-28: results carry resultType,
			 * questions go in an input_required result */
	bool elicit;	/* its client takes form elicitation */
	const char *request_state;	  /* a retry's, or NULL */
	const json_t *input_responses;	  /* a retry's answers, or NULL */
};

struct mcp_server_hooks {
	void *arg;
	/* Writes one message (borrowed). */
	void (*send)(void *arg, const json_t *msg);
	/* A checked tools/call: answer it with mcp_server_reply (now or
	 * later) unless it is cancelled. id is borrowed (json_incref to
	 * keep it); args is the hook's to free (mcp_args_free). */
	void (*call)(void *arg, json_t *id, struct mcp_args *args,
		     const struct mcp_call_ctx *ctx);
	/* notifications/cancelled for request id (borrowed): it is not to
	 * be answered. */
	void (*cancelled)(void *arg, const json_t *id);
	/* The client answered a request of ours: result or error is set. */
	void (*response)(void *arg, const json_t *id, const json_t *result,
			 const json_t *error);
	/* tools/list's result, a new reference (NULL: internal error). */
	json_t *(*tools)(void *arg);
};

enum mcp_state {
	MCP_STATE_NEW,	       /* waiting for initialize */
	MCP_STATE_INITIALIZING, /* answered; initialized not yet seen */
	MCP_STATE_READY,
};

struct mcp_server {
	struct mcp_server_hooks h;
	enum mcp_state state;
	const char *version; /* negotiated revision */
	bool elicit;	     /* the client takes form elicitation */
	char client[64];     /* clientInfo.name, scrubbed */
	const char *instructions; /* borrowed, or NULL */
};

void mcp_server_init(struct mcp_server *s, const struct mcp_server_hooks *h);
/* One line from the client (without its newline). */
void mcp_server_input(struct mcp_server *s, const char *line, size_t len);
/* Answers request id with result (stolen). */
void mcp_server_reply(struct mcp_server *s, const json_t *id, json_t *result);
void mcp_server_error(struct mcp_server *s, const json_t *id, int code,
		      const char *msg);
/* A tool's result: text as its content; is_error marks a failed call. */
json_t *mcp_server_tool_text(const char *text, bool is_error);
/* result (taken and returned) as a final result of a request of the era:
 * a modern one's carries resultType "complete" and the server's identity. */
json_t *mcp_server_complete(json_t *result, bool modern);

/* The stateless revision, served per request to a client that sends its
 * version in _meta; the others are negotiated by initialize. */
#define MCP_MODERN "2026-07-28"
/* The JSON-RPC error for a request of a revision not served. */
#define MCP_UNSUPPORTED_VERSION -32022

#endif
