/* What a command tool returns to the agent: its state or exit, its output
 * (bounded), and the sandbox's lines on what it blocked, as text and as
 * structured content. Pure. */
#ifndef SBX_MCP_RESULT_H
#define SBX_MCP_RESULT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "client/mcp-capture.h"
#include "proto/wire.h"

struct mcp_report {
	uint64_t id;		   /* start_command's id; 0: run_command */
	int pid;		   /* the command's host pid; 0: unknown */
	const Sbx__ExitStatus *es; /* NULL: not ended */
	const char *error;	   /* sbx could not run it: why */
	struct mcp_capture *out, *err;
	char *const *notes;	   /* our own "sbx: ..." lines */
	size_t nnotes;
};

/* A tools/call result (a new reference; NULL: out of memory). */
json_t *mcp_result_report(const struct mcp_report *r);

#endif
