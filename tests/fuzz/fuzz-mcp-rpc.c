/* libFuzzer target for sbxctl mcp's input: lines of JSON-RPC through
 * client/mcp-server.c (parse, lifecycle, tool argument checks). Every
 * message it sends is one JSON-RPC 2.0 object that dumps to one line; a
 * checked tools/call has a NULL-terminated argv; the output capture and the
 * report take the input as a command's output. */
#include <stdlib.h>
#include <string.h>

#include "client/mcp-result.h"
#include "client/mcp-rpc.h"
#include "client/mcp-server.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_send(void *arg, const json_t *msg)
{
	size_t len;
	char *line = mcp_rpc_line(msg, &len);

	if (!json_is_object(msg) || !line || memchr(line, '\n', len - 1) ||
	    strcmp(json_string_value(json_object_get(msg, "jsonrpc")), "2.0"))
		abort();
	free(line);
}

static void
check_call(void *arg, json_t *id, struct mcp_args *a,
	   const struct mcp_call_ctx *ctx)
{
	if (!json_is_string(id) && !json_is_integer(id))
		abort();
	if ((a->tool == MCP_TOOL_RUN || a->tool == MCP_TOOL_START) &&
	    (!a->argv || !a->argc || a->argv[a->argc]))
		abort();
	mcp_args_free(a);
}

static void
nop_cancel(void *arg, const json_t *id)
{
}

static void
nop_response(void *arg, const json_t *id, const json_t *r, const json_t *e)
{
	if (!id || !r == !e)
		abort();
}

static json_t *
tools(void *arg)
{
	return mcp_tools_list(arg);
}

static void
report(const uint8_t *data, size_t size)
{
	struct mcp_capture out, err;
	struct mcp_report r = { .out = &out, .err = &err };
	json_t *j;

	mcp_capture_init(&out, 16, 32);
	mcp_capture_init(&err, 0, 8);
	mcp_capture_add(&out, data, size);
	mcp_capture_add(&err, data, size / 2);
	mcp_capture_add(&out, data, size / 3);
	j = mcp_result_report(&r);
	if (!j)
		abort();
	json_decref(j);
	mcp_capture_free(&out);
	mcp_capture_free(&err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct mcp_server_hooks hooks = {
		.arg = (void *)"rules", .send = check_send, .call = check_call,
		.cancelled = nop_cancel, .response = nop_response,
		.tools = tools,
	};
	struct mcp_server s;
	const char *p = (const char *)data, *end = p + size, *nl;

	mcp_server_init(&s, &hooks);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		mcp_server_input(&s, p, (size_t)(nl - p));
		p = nl + 1;
	}
	report(data, size);
	return 0;
}
