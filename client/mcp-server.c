/* MCP's lifecycle and methods over JSON-RPC: what a message asks, checked,
 * answered or handed to the hooks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "client/mcp-rpc.h"
#include "client/mcp-server.h"
#include "proto/wire.h"

void
mcp_server_init(struct mcp_server *s, const struct mcp_server_hooks *h)
{
	memset(s, 0, sizeof(*s));
	s->h = *h;
	s->version = mcp_rpc_latest;
}

static void
send_msg(struct mcp_server *s, json_t *msg)
{
	if (msg)
		s->h.send(s->h.arg, msg);
	json_decref(msg);
}

void
mcp_server_reply(struct mcp_server *s, const json_t *id, json_t *result)
{
	if (!result) {
		mcp_server_error(s, id, MCP_INTERNAL_ERROR, "out of memory");
		return;
	}
	send_msg(s, mcp_rpc_result((json_t *)id, result));
}

void
mcp_server_error(struct mcp_server *s, const json_t *id, int code,
		 const char *msg)
{
	send_msg(s, mcp_rpc_error((json_t *)id, code, msg));
}

json_t *
mcp_server_tool_text(const char *text, bool is_error)
{
	return json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text",
			 "text", text, "isError", is_error);
}

static json_t *
server_info(void)
{
	return json_pack("{s:s,s:s,s:s}", "name", "sbx", "title",
			 "sbx sandbox", "version", SBX_VERSION);
}

json_t *
mcp_server_complete(json_t *result, bool modern)
{
	if (!result || !modern)
		return result;
	json_object_set_new(result, "resultType", json_string("complete"));
	json_object_set_new(result, "_meta", json_pack("{s:o}",
			    "io.modelcontextprotocol/serverInfo",
			    server_info()));
	return result;
}

/* Form elicitation: "elicitation": {} (the form mode, as revisions before
 * modes had it) or one naming "form". */
static bool
takes_form(const json_t *caps)
{
	const json_t *e = json_object_get(caps, "elicitation");

	return json_is_object(e) &&
	       (!json_object_size(e) || json_is_object(json_object_get(e,
								       "form")));
}

static void
initialize(struct mcp_server *s, const struct mcp_msg *m)
{
	const json_t *v = json_object_get(m->params, "protocolVersion");
	const json_t *info = json_object_get(m->params, "clientInfo");
	const char *name = json_string_value(json_object_get(info, "name"));
	json_t *res;
	size_t i;

	if (s->state != MCP_STATE_NEW) {
		mcp_server_error(s, m->id, MCP_INVALID_REQUEST,
				 "already initialized");
		return;
	}
	if (!json_is_string(v)) {
		mcp_server_error(s, m->id, MCP_INVALID_PARAMS,
				 "initialize needs params.protocolVersion");
		return;
	}
	s->version = mcp_rpc_negotiate(json_string_value(v));
	s->elicit = takes_form(json_object_get(m->params, "capabilities"));
	snprintf(s->client, sizeof(s->client), "%s", name ? name : "");
	for (i = 0; s->client[i]; i++)
		if ((unsigned char)s->client[i] < 0x20 ||
		    s->client[i] == 0x7f)
			s->client[i] = '?';
	res = json_pack("{s:s,s:{s:{s:b}},s:o}", "protocolVersion", s->version,
			"capabilities", "tools", "listChanged", 0,
			"serverInfo", server_info());
	if (res && s->instructions)
		json_object_set_new(res, "instructions",
				    json_string(s->instructions));
	s->state = MCP_STATE_INITIALIZING;
	mcp_server_reply(s, m->id, res);
}

static void
tools_call(struct mcp_server *s, const struct mcp_msg *m,
	   struct mcp_call_ctx *ctx)
{
	const json_t *name = json_object_get(m->params, "name");
	const json_t *state = json_object_get(m->params, "requestState");
	struct mcp_args a;
	char err[256], msg[320];
	int r;

	if (!json_is_string(name)) {
		mcp_server_error(s, m->id, MCP_INVALID_PARAMS,
				 "tools/call needs params.name");
		return;
	}
	r = mcp_tools_parse(json_string_value(name),
			    json_object_get(m->params, "arguments"), &a, err,
			    sizeof(err));
	if (r == -ENOENT) {
		snprintf(msg, sizeof(msg), "unknown tool: %.200s",
			 json_string_value(name));
		mcp_server_error(s, m->id, MCP_INVALID_PARAMS, msg);
		return;
	}
	if (r == -ENOMEM) {
		mcp_server_error(s, m->id, MCP_INTERNAL_ERROR, err);
		return;
	}
	/* Bad arguments are the model's to fix: a tool error it reads. */
	if (r < 0) {
		mcp_server_reply(s, m->id, mcp_server_complete(
				 mcp_server_tool_text(err, true), ctx->modern));
		return;
	}
	if (!ctx->modern)
		ctx->elicit = s->elicit;
	ctx->request_state = json_string_value(state);
	ctx->input_responses = json_object_get(m->params, "inputResponses");
	s->h.call(s->h.arg, m->id, &a, ctx);
}

static json_t *
versions(void)
{
	return json_pack("[sss]", MCP_MODERN, "2025-11-25", "2025-06-18");
}

/* server/discover, which every client may call, of either era. */
static void
discover(struct mcp_server *s, const struct mcp_msg *m, bool modern)
{
	json_t *res = json_pack("{s:o,s:{s:{s:b}},s:o,s:i,s:s}",
				"supportedVersions", versions(),
				"capabilities", "tools", "listChanged", 0,
				"serverInfo", server_info(), "ttlMs", 60000,
				"cacheScope", "private");

	if (res && s->instructions)
		json_object_set_new(res, "instructions",
				    json_string(s->instructions));
	/* Its result carries resultType whoever asks: a client that
	 * probes with it reads the answer as a modern server's. */
	if (res && !modern)
		json_object_set_new(res, "resultType", json_string("complete"));
	mcp_server_reply(s, m->id, mcp_server_complete(res, modern));
}

/* A request that says its revision in _meta is served by itself
 * (stateless); false when it has answered (an error). */
static bool
modern_request(struct mcp_server *s, const struct mcp_msg *m,
	       struct mcp_call_ctx *ctx)
{
	const json_t *meta = json_object_get(m->params, "_meta");
	const json_t *v = json_object_get(meta,
					  "io.modelcontextprotocol/protocolVersion");
	const json_t *caps = json_object_get(meta,
		"io.modelcontextprotocol/clientCapabilities");
	json_t *e;

	if (!v)
		return true;
	ctx->modern = true;
	if (!json_is_string(v) || strcmp(json_string_value(v), MCP_MODERN)) {
		e = mcp_rpc_error(m->id, MCP_UNSUPPORTED_VERSION,
				  "Unsupported protocol version");
		json_object_set_new(json_object_get(e, "error"), "data",
				    json_pack("{s:o,s:s}", "supported",
					      versions(), "requested",
					      json_is_string(v) ?
					      json_string_value(v) : ""));
		if (e)
			s->h.send(s->h.arg, e);
		json_decref(e);
		return false;
	}
	if (!json_is_object(caps)) {
		mcp_server_error(s, m->id, MCP_INVALID_PARAMS, "_meta needs "
				 "io.modelcontextprotocol/clientCapabilities");
		return false;
	}
	ctx->elicit = takes_form(caps);
	return true;
}

static void
tools_list(struct mcp_server *s, const struct mcp_msg *m, bool modern)
{
	json_t *res;

	if (json_object_get(m->params, "cursor")) {
		mcp_server_error(s, m->id, MCP_INVALID_PARAMS,
				 "no such cursor: the list has one page");
		return;
	}
	res = s->h.tools(s->h.arg);
	/* Cache hints: the list changes only with the policy; it names
	 * the user's workspace, so no shared cache keeps it. */
	if (res && modern) {
		json_object_set_new(res, "ttlMs", json_integer(60000));
		json_object_set_new(res, "cacheScope", json_string("private"));
	}
	mcp_server_reply(s, m->id, mcp_server_complete(res, modern));
}

static void
request(struct mcp_server *s, const struct mcp_msg *m)
{
	struct mcp_call_ctx ctx = { 0 };
	char msg[160];

	if (!strcmp(m->method, "initialize")) {
		initialize(s, m);
		return;
	}
	if (!modern_request(s, m, &ctx))
		return;
	if (!strcmp(m->method, "ping")) {
		mcp_server_reply(s, m->id, json_object());
		return;
	}
	if (!strcmp(m->method, "server/discover")) {
		discover(s, m, ctx.modern);
		return;
	}
	if (s->state == MCP_STATE_NEW && !ctx.modern) {
		mcp_server_error(s, m->id, MCP_INVALID_REQUEST, "not "
				 "initialized: initialize comes first (or "
				 "name the revision in _meta)");
		return;
	}
	if (!strcmp(m->method, "tools/list")) {
		tools_list(s, m, ctx.modern);
		return;
	}
	if (!strcmp(m->method, "tools/call")) {
		tools_call(s, m, &ctx);
		return;
	}
	snprintf(msg, sizeof(msg), "method not found: %.100s", m->method);
	mcp_server_error(s, m->id, MCP_METHOD_NOT_FOUND, msg);
}

static void
notification(struct mcp_server *s, const struct mcp_msg *m)
{
	const json_t *id;

	if (!strcmp(m->method, "notifications/initialized")) {
		if (s->state == MCP_STATE_INITIALIZING)
			s->state = MCP_STATE_READY;
		return;
	}
	if (!strcmp(m->method, "notifications/cancelled")) {
		id = json_object_get(m->params, "requestId");
		if (id && (json_is_string(id) || json_is_integer(id)))
			s->h.cancelled(s->h.arg, id);
	}
	/* Any other notification asks nothing of us. */
}

void
mcp_server_input(struct mcp_server *s, const char *line, size_t len)
{
	struct mcp_msg m;

	mcp_rpc_parse(line, len, &m);
	switch (m.kind) {
	case MCP_INVALID:
		mcp_server_error(s, m.id, m.err_code, m.err_msg);
		break;
	case MCP_REQUEST:
		request(s, &m);
		break;
	case MCP_NOTIFICATION:
		notification(s, &m);
		break;
	case MCP_RESPONSE:
		s->h.response(s->h.arg, m.id, m.result, m.error);
		break;
	}
	mcp_msg_clear(&m);
}
