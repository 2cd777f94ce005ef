/* JSON-RPC 2.0 messages of MCP's stdio transport: parsing and checking a
 * line, building replies, and the protocol revision to answer. */
#include <stdlib.h>
#include <string.h>

#include "client/mcp-rpc.h"

/*
 * The revisions spoken, newest first. Both carry no JSON-RPC batches
 * (2025-03-26 had them; a client asking for it, or for anything else, is
 * answered with the newest, as the lifecycle's negotiation says).
 */
static const char *const versions[] = { "2025-11-25", "2025-06-18" };
const char *const mcp_rpc_latest = "2025-11-25";

const char *
mcp_rpc_negotiate(const char *asked)
{
	size_t i;

	for (i = 0; asked && i < sizeof(versions) / sizeof(versions[0]); i++)
		if (!strcmp(asked, versions[i]))
			return versions[i];
	return versions[0];
}

static void
invalid(struct mcp_msg *m, int code, const char *msg)
{
	m->kind = MCP_INVALID;
	m->err_code = code;
	m->err_msg = msg;
}

/* MCP's ids are strings or integers (JSON-RPC's null is not allowed). */
static bool
good_id(const json_t *id)
{
	return id && (json_is_string(id) || json_is_integer(id));
}

static void
classify(struct mcp_msg *m)
{
	json_t *r = m->root, *v = json_object_get(r, "jsonrpc");
	json_t *id = json_object_get(r, "id"), *method;

	if (good_id(id))
		m->id = id;
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0")) {
		invalid(m, MCP_INVALID_REQUEST, "not JSON-RPC 2.0 "
			"(\"jsonrpc\": \"2.0\" is missing)");
		return;
	}
	if (id && !good_id(id)) {
		invalid(m, MCP_INVALID_REQUEST,
			"the id must be a string or an integer");
		return;
	}
	method = json_object_get(r, "method");
	m->params = json_object_get(r, "params");
	if (method) {
		if (!json_is_string(method)) {
			invalid(m, MCP_INVALID_REQUEST,
				"the method must be a string");
			return;
		}
		if (m->params && !json_is_object(m->params)) {
			invalid(m, MCP_INVALID_PARAMS,
				"params must be an object");
			return;
		}
		m->method = json_string_value(method);
		m->kind = id ? MCP_REQUEST : MCP_NOTIFICATION;
		return;
	}
	m->params = NULL;
	m->result = json_object_get(r, "result");
	m->error = json_object_get(r, "error");
	if (!id || !m->result == !m->error) {
		invalid(m, MCP_INVALID_REQUEST, "neither a request, a "
			"notification nor a response");
		return;
	}
	m->kind = MCP_RESPONSE;
}

void
mcp_rpc_parse(const char *line, size_t len, struct mcp_msg *m)
{
	json_error_t e;

	memset(m, 0, sizeof(*m));
	m->root = json_loadb(line, len, JSON_REJECT_DUPLICATES |
			     JSON_DECODE_ANY, &e);
	if (!m->root) {
		invalid(m, MCP_PARSE_ERROR, "parse error: not one JSON value");
		return;
	}
	if (json_is_array(m->root)) {
		invalid(m, MCP_INVALID_REQUEST, "JSON-RPC batches are not part "
			"of the MCP revisions this server speaks");
		return;
	}
	if (!json_is_object(m->root)) {
		invalid(m, MCP_INVALID_REQUEST, "a message is a JSON object");
		return;
	}
	classify(m);
}

void
mcp_msg_clear(struct mcp_msg *m)
{
	json_decref(m->root);
	memset(m, 0, sizeof(*m));
}

static json_t *
envelope(json_t *id)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "jsonrpc", json_string("2.0")) ||
		  json_object_set_new(o, "id", id ? json_deep_copy(id) :
				      json_null()))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
mcp_rpc_result(json_t *id, json_t *result)
{
	json_t *o = envelope(id);

	if (!o || !result || json_object_set_new(o, "result", result)) {
		if (!o)
			json_decref(result);
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
mcp_rpc_error(json_t *id, int code, const char *msg)
{
	json_t *o = envelope(id), *e = json_pack("{s:i,s:s}", "code", code,
						 "message", msg);

	if (!o || !e || json_object_set_new(o, "error", e)) {
		if (!o)
			json_decref(e);
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
mcp_rpc_request(json_t *id, const char *method, json_t *params)
{
	json_t *o = envelope(id);

	if (!o || json_object_set_new(o, "method", json_string(method)) ||
	    (params && json_object_set_new(o, "params", params))) {
		if (!o)
			json_decref(params);
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
mcp_rpc_notification(const char *method, json_t *params)
{
	json_t *o = json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method",
			      method);

	if (!o || (params && json_object_set_new(o, "params", params))) {
		if (!o)
			json_decref(params);
		json_decref(o);
		return NULL;
	}
	return o;
}

char *
mcp_rpc_line(const json_t *msg, size_t *len)
{
	char *s = json_dumps(msg, JSON_COMPACT), *line;
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	line = realloc(s, n + 2);
	if (!line) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	*len = n + 1;
	return line;
}
