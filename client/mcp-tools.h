/* The tools `sbxctl mcp` offers: their definitions for tools/list (worded
 * from the daemon's describe text) and their arguments checked into
 * struct mcp_args. Pure. */
#ifndef SBX_MCP_TOOLS_H
#define SBX_MCP_TOOLS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mcp_tool {
	MCP_TOOL_RUN,	   /* run_command */
	MCP_TOOL_START,	   /* start_command */
	MCP_TOOL_READ,	   /* read_output */
	MCP_TOOL_WRITE,	   /* write_input */
	MCP_TOOL_STOP,	   /* stop_command */
	MCP_TOOL_DESCRIBE, /* describe_sandbox */
};

/* run_command's timeout when none is given, and the most any may ask. */
#define MCP_RUN_TIMEOUT_MS (10u * 60 * 1000)
#define MCP_TIMEOUT_MAX_MS (24u * 3600 * 1000)
/* read_output's and stop_command's longest wait. */
#define MCP_WAIT_MAX_MS (5u * 60 * 1000)
/* The most stdin or input one call may carry. */
#define MCP_INPUT_MAX (4u << 20)

struct mcp_args {
	enum mcp_tool tool;
	char **argv;		/* run, start: NULL-terminated, owned */
	size_t argc;
	char *cwd;		/* run, start: NULL for the workspace */
	uint32_t timeout_ms;	/* run, start: 0 none */
	char *input;		/* run's stdin, write's input; owned */
	size_t input_len;
	bool has_input;
	bool close_input;	/* write: then end its stdin */
	uint64_t id;		/* read, write, stop: start_command's id */
	uint32_t wait_ms;	/* read: wait this long for output or exit;
				 * stop: before SIGKILL */
	int signo;		/* stop: the first signal */
};

/* Checks a tools/call's arguments (args may be NULL) into a. -ENOENT: no
 * tool of that name; -EINVAL: err says what is wrong (for the agent);
 * -ENOMEM. */
int mcp_tools_parse(const char *name, const json_t *args,
		    struct mcp_args *a, char *err, size_t errlen);
void mcp_args_free(struct mcp_args *a);

/* tools/list's result: every tool, run_command's and start_command's
 * descriptions ending with describe (the sandbox's constraints, as the
 * daemon words them; NULL or "" when unknown). */
json_t *mcp_tools_list(const char *describe);

#endif
