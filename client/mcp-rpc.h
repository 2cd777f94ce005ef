/* JSON-RPC 2.0 as MCP's stdio transport carries it: one message a line,
 * classified and checked here, and the replies built. Pure: no I/O. */
#ifndef SBX_MCP_RPC_H
#define SBX_MCP_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* JSON-RPC 2.0's error codes. */
#define MCP_PARSE_ERROR -32700
#define MCP_INVALID_REQUEST -32600
#define MCP_METHOD_NOT_FOUND -32601
#define MCP_INVALID_PARAMS -32602
#define MCP_INTERNAL_ERROR -32603

/* A line longer than this is refused (a parse error) without being kept. */
#define MCP_LINE_MAX (8u << 20)

enum mcp_kind {
	MCP_INVALID,	  /* answer with err_code/err_msg under id (or null) */
	MCP_REQUEST,	  /* method, id, params */
	MCP_NOTIFICATION, /* method, params */
	MCP_RESPONSE,	  /* id, and result or error: to a request of ours */
};

struct mcp_msg {
	enum mcp_kind kind;
	json_t *root;	    /* owned: the parsed line */
	json_t *id;	    /* borrowed from root; NULL: none (or unusable) */
	const char *method; /* borrowed */
	json_t *params;	    /* borrowed; an object or NULL */
	json_t *result;	    /* borrowed: a response's */
	json_t *error;	    /* borrowed: an error response's */
	int err_code;	    /* MCP_INVALID: the error to answer */
	const char *err_msg;
};

/* Parses one line (without its newline) into m; never fails otherwise:
 * what is not a usable message is MCP_INVALID with the reply to make (a
 * batch is one: the revisions this server speaks have none). */
void mcp_rpc_parse(const char *line, size_t len, struct mcp_msg *m);
void mcp_msg_clear(struct mcp_msg *m);

/* Messages to send; each returns a new reference (NULL: out of memory).
 * id is borrowed (copied); result and params are stolen. */
json_t *mcp_rpc_result(json_t *id, json_t *result);
json_t *mcp_rpc_error(json_t *id, int code, const char *msg);
json_t *mcp_rpc_request(json_t *id, const char *method, json_t *params);
json_t *mcp_rpc_notification(const char *method, json_t *params);

/* msg as one line with its newline (JSON escapes every newline inside
 * strings), to free; NULL: out of memory. */
char *mcp_rpc_line(const json_t *msg, size_t *len);

/* The protocol revision to answer an initialize that asked for asked (NULL:
 * none given): asked itself when this server speaks it, else the newest it
 * speaks (the client then decides, as the lifecycle says). */
const char *mcp_rpc_negotiate(const char *asked);
/* The newest revision spoken. */
extern const char *const mcp_rpc_latest;

#endif
