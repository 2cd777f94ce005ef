/* client/mcp-rpc.c and client/mcp-server.c: JSON-RPC classification, the
 * replies to bad input, version negotiation and the lifecycle, with hooks
 * that record what the server would do. */
#include <jansson.h>

#include "client/mcp-rpc.h"
#include "client/mcp-server.h"
#include "unit.h"

static json_t *sent;	/* every message the server sent */
static int calls, cancels, responses;
static struct mcp_call_ctx last_ctx;

static void
rec_send(void *arg, const json_t *msg)
{
	json_array_append(sent, (json_t *)msg);
}

static void
rec_call(void *arg, json_t *id, struct mcp_args *a,
	 const struct mcp_call_ctx *ctx)
{
	calls++;
	last_ctx = *ctx;
	last_ctx.request_state = NULL; /* borrowed from the line */
	mcp_args_free(a);
}

static void
rec_cancel(void *arg, const json_t *id)
{
	cancels++;
}

static void
rec_response(void *arg, const json_t *id, const json_t *r, const json_t *e)
{
	responses++;
}

static json_t *
rec_tools(void *arg)
{
	return mcp_tools_list("rules here");
}

static const struct mcp_server_hooks hooks = {
	.send = rec_send, .call = rec_call, .cancelled = rec_cancel,
	.response = rec_response, .tools = rec_tools,
};

/* Feeds line; returns the last message sent (borrowed) or NULL. */
static json_t *
feed(struct mcp_server *s, const char *line)
{
	size_t before = json_array_size(sent);

	mcp_server_input(s, line, strlen(line));
	return json_array_size(sent) > before ?
	       json_array_get(sent, json_array_size(sent) - 1) : NULL;
}

static int
err_code(const json_t *m)
{
	return (int)json_integer_value(json_object_get(json_object_get(m,
						"error"), "code"));
}

static void
parse_str(const char *s, struct mcp_msg *m)
{
	mcp_rpc_parse(s, strlen(s), m);
}

static void
test_parse(void)
{
	struct mcp_msg m;

	parse_str("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", &m);
	CHECK_INT(m.kind, MCP_REQUEST);
	CHECK_STR(m.method, "ping");
	CHECK_INT(json_integer_value(m.id), 7);
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"2.0\",\"method\":\"n\"}", &m);
	CHECK_INT(m.kind, MCP_NOTIFICATION);
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}", &m);
	CHECK_INT(m.kind, MCP_RESPONSE);
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}", &m);
	CHECK_INT(m.kind, MCP_INVALID);
	CHECK_INT(m.err_code, MCP_INVALID_REQUEST);
	CHECK(m.id == NULL);
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"x\"}", &m);
	CHECK_INT(m.kind, MCP_INVALID);
	CHECK_INT(json_integer_value(m.id), 3); /* answered under its id */
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"x\",\"params\""
		      ":[1]}", &m);
	CHECK_INT(m.err_code, MCP_INVALID_PARAMS);
	mcp_msg_clear(&m);
	parse_str("{\"a\":1,\"a\":2}", &m);
	CHECK_INT(m.err_code, MCP_PARSE_ERROR); /* duplicate keys */
	mcp_msg_clear(&m);
	parse_str("{\"jsonrpc\":\"2.0\"} x", &m);
	CHECK_INT(m.err_code, MCP_PARSE_ERROR); /* trailing bytes */
	mcp_msg_clear(&m);
	parse_str("[{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}]", &m);
	CHECK_INT(m.err_code, MCP_INVALID_REQUEST); /* no batches */
	mcp_msg_clear(&m);
	parse_str("5", &m);
	CHECK_INT(m.err_code, MCP_INVALID_REQUEST);
	mcp_msg_clear(&m);
}

static void
test_negotiate(void)
{
	CHECK_STR(mcp_rpc_negotiate("2025-11-25"), "2025-11-25");
	CHECK_STR(mcp_rpc_negotiate("2025-06-18"), "2025-06-18");
	/* Batches (2025-03-26) or unknown: the newest, the client decides. */
	CHECK_STR(mcp_rpc_negotiate("2025-03-26"), "2025-11-25");
	CHECK_STR(mcp_rpc_negotiate("2099-01-01"), "2025-11-25");
	CHECK_STR(mcp_rpc_negotiate(NULL), "2025-11-25");
}

static void
test_line(void)
{
	json_t *m = json_pack("{s:s}", "t", "a\nb");
	size_t len;
	char *l = mcp_rpc_line(m, &len);

	CHECK(l && len == strlen(l) && l[len - 1] == '\n');
	CHECK(l && !memchr(l, '\n', len - 1));
	free(l);
	json_decref(m);
}

static void
test_lifecycle(void)
{
	struct mcp_server s;
	json_t *r;

	mcp_server_init(&s, &hooks);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
	CHECK_INT(err_code(r), MCP_INVALID_REQUEST); /* before initialize */
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
	CHECK(json_is_object(json_object_get(r, "result")));
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\","
		 "\"params\":{}}");
	CHECK_INT(err_code(r), MCP_INVALID_PARAMS);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\","
		 "\"params\":{\"protocolVersion\":\"2024-11-05\","
		 "\"capabilities\":{\"elicitation\":{}},\"clientInfo\":"
		 "{\"name\":\"c\\u0001\",\"version\":\"1\"}}}");
	CHECK_STR(json_string_value(json_object_get(json_object_get(r,
		  "result"), "protocolVersion")), "2025-11-25");
	CHECK(json_is_object(json_object_get(json_object_get(json_object_get(
		r, "result"), "capabilities"), "tools")));
	CHECK(s.elicit);
	CHECK_STR(s.client, "c?");
	CHECK_INT(s.state, MCP_STATE_INITIALIZING);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\","
		 "\"params\":{\"protocolVersion\":\"2025-11-25\"}}");
	CHECK_INT(err_code(r), MCP_INVALID_REQUEST);
	CHECK(!feed(&s, "{\"jsonrpc\":\"2.0\",\"method\":"
		    "\"notifications/initialized\"}"));
	CHECK_INT(s.state, MCP_STATE_READY);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}");
	CHECK_INT(json_array_size(json_object_get(json_object_get(r, "result"),
						  "tools")), 6);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\","
		 "\"params\":{\"cursor\":\"x\"}}");
	CHECK_INT(err_code(r), MCP_INVALID_PARAMS);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"nope\"}");
	CHECK_INT(err_code(r), MCP_METHOD_NOT_FOUND);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
		 "\"params\":{\"name\":\"nope\"}}");
	CHECK_INT(err_code(r), MCP_INVALID_PARAMS);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\","
		 "\"params\":{\"name\":\"run_command\",\"arguments\":{}}}");
	CHECK(json_is_true(json_object_get(json_object_get(r, "result"),
					   "isError")));
	CHECK_INT(calls, 0);
	feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\","
	     "\"params\":{\"name\":\"run_command\",\"arguments\":"
	     "{\"command\":\"true\"}}}");
	CHECK_INT(calls, 1);
	CHECK(!feed(&s, "{\"jsonrpc\":\"2.0\",\"method\":"
		    "\"notifications/cancelled\",\"params\":{\"requestId\":11}}"));
	CHECK_INT(cancels, 1);
	CHECK(!feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":\"sbx-1\",\"result\":"
		    "{\"action\":\"accept\"}}"));
	CHECK_INT(responses, 1);
	r = feed(&s, "not json");
	CHECK_INT(err_code(r), MCP_PARSE_ERROR);
	CHECK(json_is_null(json_object_get(r, "id")));
}

static void
test_elicit_caps(void)
{
	struct mcp_server s;

	mcp_server_init(&s, &hooks);
	feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
	     "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":"
	     "{\"elicitation\":{\"url\":{}}}}}");
	CHECK(!s.elicit); /* URL mode only: no form to ask with */
	CHECK_STR(s.version, "2025-06-18");
	mcp_server_init(&s, &hooks);
	feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
	     "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
	     "{\"elicitation\":{\"form\":{}}}}}");
	CHECK(s.elicit);
	mcp_server_init(&s, &hooks);
	feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
	     "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
	     "{}}}");
	CHECK(!s.elicit);
}

#define META "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"

/* The stateless revision, per request, with no initialize. */
static void
test_modern(void)
{
	struct mcp_server s;
	json_t *r, *res;

	mcp_server_init(&s, &hooks);
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
		 "\"server/discover\",\"params\":{" META "\"2026-07-28\","
		 "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
	res = json_object_get(r, "result");
	CHECK_STR(json_string_value(json_object_get(res, "resultType")),
		  "complete");
	CHECK_STR(json_string_value(json_array_get(json_object_get(res,
		  "supportedVersions"), 0)), "2026-07-28");
	CHECK(json_is_object(json_object_get(json_object_get(res,
		"capabilities"), "tools")));
	CHECK(json_is_integer(json_object_get(res, "ttlMs")));
	CHECK_INT(s.state, MCP_STATE_NEW); /* no session made */
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
		 "\"tools/list\",\"params\":{" META "\"1900-01-01\","
		 "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
	CHECK_INT(err_code(r), MCP_UNSUPPORTED_VERSION);
	CHECK_STR(json_string_value(json_object_get(json_object_get(
		  json_object_get(r, "error"), "data"), "requested")),
		  "1900-01-01");
	CHECK_STR(json_string_value(json_array_get(json_object_get(
		  json_object_get(json_object_get(r, "error"), "data"),
		  "supported"), 1)), "2025-11-25");
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
		 "\"tools/list\",\"params\":{" META "\"2026-07-28\"}}}");
	CHECK_INT(err_code(r), MCP_INVALID_PARAMS); /* no capabilities */
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
		 "\"tools/list\",\"params\":{" META "\"2026-07-28\","
		 "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
	res = json_object_get(r, "result");
	CHECK_INT(json_array_size(json_object_get(res, "tools")), 6);
	CHECK_STR(json_string_value(json_object_get(res, "cacheScope")),
		  "private");
	CHECK_STR(json_string_value(json_object_get(res, "resultType")),
		  "complete");
	CHECK(json_is_object(json_object_get(json_object_get(res, "_meta"),
		"io.modelcontextprotocol/serverInfo")));
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":"
		 "\"tools/call\",\"params\":{" META "\"2026-07-28\","
		 "\"io.modelcontextprotocol/clientCapabilities\":{}},"
		 "\"name\":\"run_command\",\"arguments\":{}}}");
	CHECK_STR(json_string_value(json_object_get(json_object_get(r,
		  "result"), "resultType")), "complete");
	calls = 0;
	feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":"
	     "\"tools/call\",\"params\":{" META "\"2026-07-28\","
	     "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":"
	     "{\"form\":{}}}},\"name\":\"run_command\",\"arguments\":"
	     "{\"command\":\"true\"},\"requestState\":\"x\"}}");
	CHECK_INT(calls, 1);
	CHECK(last_ctx.modern && last_ctx.elicit);
	/* Legacy calls take the session's elicitation. */
	r = feed(&s, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
		 "\"tools/list\"}");
	CHECK_INT(err_code(r), MCP_INVALID_REQUEST);
}

int
main(void)
{
	sent = json_array();
	test_parse();
	test_negotiate();
	test_line();
	test_lifecycle();
	test_elicit_caps();
	test_modern();
	json_decref(sent);
	UNIT_DONE();
}
