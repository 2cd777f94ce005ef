/* sbxctl mcp's tools: definitions for tools/list and argument checks. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/mcp-tools.h"
#include "client/signame.h"

static const struct {
	const char *name;
	enum mcp_tool tool;
} names[] = {
	{ "run_command", MCP_TOOL_RUN },     { "start_command", MCP_TOOL_START },
	{ "read_output", MCP_TOOL_READ },    { "write_input", MCP_TOOL_WRITE },
	{ "stop_command", MCP_TOOL_STOP },
	{ "describe_sandbox", MCP_TOOL_DESCRIBE },
};

static int
bad(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return -EINVAL;
}

/* "command" (a shell line) or "argv" (words): exactly one. */
static int
take_argv(const json_t *args, struct mcp_args *a, char *err, size_t errlen)
{
	const json_t *cmd = json_object_get(args, "command");
	const json_t *av = json_object_get(args, "argv"), *w;
	size_t i;

	if (!cmd == !av)
		return bad(err, errlen, "give either \"command\" (a shell "
			   "command line) or \"argv\" (an array of words)");
	if (cmd) {
		if (!json_is_string(cmd) || !json_string_length(cmd))
			return bad(err, errlen, "\"command\" must be a "
				   "non-empty string");
		if (memchr(json_string_value(cmd), 0, json_string_length(cmd)))
			return bad(err, errlen, "\"command\" holds a NUL");
		a->argc = 3;
		if (!(a->argv = calloc(4, sizeof(char *))) ||
		    !(a->argv[0] = strdup("/bin/sh")) ||
		    !(a->argv[1] = strdup("-c")) ||
		    !(a->argv[2] = strdup(json_string_value(cmd))))
			return -ENOMEM;
		return 0;
	}
	if (!json_is_array(av) || !json_array_size(av) ||
	    json_array_size(av) > 4096)
		return bad(err, errlen, "\"argv\" must be an array of 1 "
			   "to 4096 strings");
	if (!(a->argv = calloc(json_array_size(av) + 1, sizeof(char *))))
		return -ENOMEM;
	json_array_foreach(av, i, w) {
		if (!json_is_string(w) ||
		    memchr(json_string_value(w), 0, json_string_length(w)))
			return bad(err, errlen, "\"argv\" must hold "
				   "strings without NUL bytes");
		if (!(a->argv[i] = strdup(json_string_value(w))))
			return -ENOMEM;
		a->argc = i + 1;
	}
	if (!a->argv[0][0])
		return bad(err, errlen, "argv[0] is empty");
	return 0;
}

/* Seconds (a number > 0) at most max_ms; absent: *ms untouched. */
static int
take_seconds(const json_t *args, const char *key, uint32_t max_ms,
	     uint32_t *ms, char *err, size_t errlen)
{
	const json_t *v = json_object_get(args, key);
	double s;

	if (!v)
		return 0;
	s = json_number_value(v);
	if (!json_is_number(v) || !isfinite(s) || s < 0 ||
	    s * 1000 > max_ms) {
		snprintf(err, errlen, "\"%s\" must be a number of seconds "
			 "from 0 to %u", key, max_ms / 1000);
		return -EINVAL;
	}
	*ms = (uint32_t)(s * 1000);
	return 0;
}

static int
take_string(const json_t *args, const char *key, char **out, size_t *len,
	    size_t max, char *err, size_t errlen)
{
	const json_t *v = json_object_get(args, key);

	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) > max) {
		snprintf(err, errlen, "\"%s\" must be a string of at most %zu "
			 "bytes", key, max);
		return -EINVAL;
	}
	if (!(*out = malloc(json_string_length(v) + 1)))
		return -ENOMEM;
	memcpy(*out, json_string_value(v), json_string_length(v) + 1);
	if (len)
		*len = json_string_length(v);
	return 0;
}

static int
take_id(const json_t *args, struct mcp_args *a, char *err, size_t errlen)
{
	const json_t *v = json_object_get(args, "id");

	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return bad(err, errlen, "\"id\" must be the id "
			   "start_command gave");
	a->id = (uint64_t)json_integer_value(v);
	return 0;
}

static int
take_command(const json_t *args, struct mcp_args *a, char *err,
	     size_t errlen)
{
	size_t len = 0;
	int r;

	if ((r = take_argv(args, a, err, errlen)) < 0 ||
	    (r = take_string(args, "cwd", &a->cwd, &len, 4095, err,
			     errlen)) < 0)
		return r;
	if (a->cwd && (!len || strlen(a->cwd) != len))
		return bad(err, errlen, "\"cwd\" must be a path "
			   "(not empty, no NUL)");
	a->timeout_ms = a->tool == MCP_TOOL_RUN ? MCP_RUN_TIMEOUT_MS : 0;
	if ((r = take_seconds(args, "timeout", MCP_TIMEOUT_MAX_MS,
			      &a->timeout_ms, err, errlen)) < 0)
		return r;
	if (a->tool == MCP_TOOL_RUN &&
	    (r = take_string(args, "stdin", &a->input, &a->input_len,
			     MCP_INPUT_MAX, err, errlen)) < 0)
		return r;
	a->has_input = a->input != NULL;
	return 0;
}

static int
take_stop(const json_t *args, struct mcp_args *a, char *err, size_t errlen)
{
	const json_t *s = json_object_get(args, "signal");
	int r;

	a->signo = SIGTERM;
	a->wait_ms = 5000;
	if ((r = take_id(args, a, err, errlen)) < 0 ||
	    (r = take_seconds(args, "grace", MCP_WAIT_MAX_MS, &a->wait_ms,
			      err, errlen)) < 0)
		return r;
	if (s && (!json_is_string(s) ||
		  (a->signo = signame_parse(json_string_value(s))) <= 0 ||
		  a->signo == SIGSTOP))
		return bad(err, errlen, "\"signal\" must be a signal "
			   "name such as TERM, INT, HUP or KILL");
	return 0;
}

static int
parse(const json_t *args, struct mcp_args *a, char *err, size_t errlen)
{
	const json_t *c;
	int r;

	switch (a->tool) {
	case MCP_TOOL_RUN:
	case MCP_TOOL_START:
		return take_command(args, a, err, errlen);
	case MCP_TOOL_READ:
		if ((r = take_id(args, a, err, errlen)) < 0)
			return r;
		return take_seconds(args, "wait", MCP_WAIT_MAX_MS, &a->wait_ms,
				    err, errlen);
	case MCP_TOOL_WRITE:
		if ((r = take_id(args, a, err, errlen)) < 0 ||
		    (r = take_string(args, "input", &a->input, &a->input_len,
				     MCP_INPUT_MAX, err, errlen)) < 0)
			return r;
		a->has_input = a->input != NULL;
		c = json_object_get(args, "close");
		if (c && !json_is_boolean(c))
			return bad(err, errlen, "\"close\" must be true "
				   "or false");
		a->close_input = json_is_true(c);
		if (!a->has_input && !a->close_input)
			return bad(err, errlen, "give \"input\", or "
				   "\"close\": true");
		return 0;
	case MCP_TOOL_STOP:
		return take_stop(args, a, err, errlen);
	case MCP_TOOL_DESCRIBE:
		return 0;
	}
	return -EINVAL;
}

int
mcp_tools_parse(const char *name, const json_t *args, struct mcp_args *a,
		char *err, size_t errlen)
{
	size_t i;
	int r;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name && !strcmp(name, names[i].name))
			break;
	if (i == sizeof(names) / sizeof(names[0]))
		return -ENOENT;
	a->tool = names[i].tool;
	if (args && !json_is_object(args))
		return bad(err, errlen, "the arguments must be an "
			   "object");
	if ((r = parse(args, a, err, errlen)) < 0) {
		if (r == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		mcp_args_free(a);
	}
	return r;
}

void
mcp_args_free(struct mcp_args *a)
{
	size_t i;

	for (i = 0; a->argv && a->argv[i]; i++)
		free(a->argv[i]);
	free(a->argv);
	free(a->cwd);
	free(a->input);
	memset(a, 0, sizeof(*a));
}

/* One property of an input schema. */
static json_t *
prop(const char *type, const char *desc)
{
	return json_pack("{s:s,s:s}", "type", type, "description", desc);
}

static json_t *
tool(const char *name, const char *title, const char *desc, json_t *props,
     const char *required, bool read_only)
{
	json_t *t, *req = json_array();

	if (required && req)
		json_array_append_new(req, json_string(required));
	t = json_pack("{s:s,s:s,s:s,s:{s:s,s:o,s:o},s:{s:b,s:b,s:b}}",
		      "name", name, "title", title, "description", desc,
		      "inputSchema", "type", "object", "properties", props,
		      "required", req, "annotations", "readOnlyHint",
		      read_only, "destructiveHint", !read_only,
		      "openWorldHint", !read_only);
	return t;
}

static json_t *
command_props(bool run)
{
	json_t *p = json_object(), *argv;

	argv = json_pack("{s:s,s:{s:s},s:s}", "type", "array", "items", "type",
			 "string", "description", "The command as words, run "
			 "without a shell (instead of \"command\").");
	json_object_set_new(p, "command", prop("string", "A shell command "
			    "line, run with /bin/sh -c."));
	json_object_set_new(p, "argv", argv);
	json_object_set_new(p, "cwd", prop("string", "Directory to run in: "
			    "absolute, or relative to the workspace "
			    "(default: the workspace)."));
	json_object_set_new(p, "timeout", prop("number", run ?
			    "Seconds before the command is stopped (SIGTERM, "
			    "then SIGKILL; default 600)." :
			    "Seconds before the command is stopped (default: "
			    "none)."));
	if (run)
		json_object_set_new(p, "stdin", prop("string", "Text given to "
				    "the command on its standard input (it "
				    "gets end-of-file otherwise)."));
	return p;
}

static char *
with_constraints(const char *lead, const char *describe)
{
	char *s;

	if (asprintf(&s, "%s%s%s", lead, describe && describe[0] ?
		     "\n\nThe sandbox's rules:\n" : "", describe ? describe :
		     "") < 0)
		return NULL;
	return s;
}

json_t *
mcp_tools_list(const char *describe)
{
	char *run = with_constraints("Run a command to its end in this "
		"conversation's sbx sandbox and return its exit code, stdout "
		"and stderr (the middle of long output is cut, and says so) "
		"and the lines saying what the sandbox blocked and why. The "
		"sandbox lives as long as this session: its /tmp, processes "
		"and network approvals stay between calls. Read the rules "
		"below before you start: a blocked action fails the same way "
		"every time it is retried.", describe);
	char *start = with_constraints("Start a long-running command (a dev "
		"server, a watcher, a REPL) in the conversation's sandbox and "
		"return its id at once; read_output, write_input and "
		"stop_command take that id. It keeps running between calls "
		"until it exits, is stopped, or the session ends.",
		describe);
	json_t *tools = json_array(), *p;

	if (!run || !start || !tools)
		goto fail;
	json_array_append_new(tools, tool("run_command", "Run a command in "
		"the sandbox", run, command_props(true), NULL, false));
	json_array_append_new(tools, tool("start_command", "Start a "
		"long-running command in the sandbox", start,
		command_props(false), NULL, false));
	p = json_object();
	json_object_set_new(p, "id", prop("integer", "The id start_command "
			    "gave."));
	json_object_set_new(p, "wait", prop("number", "Seconds to wait for "
			    "new output or the end when there is none yet "
			    "(default 0, at most 300)."));
	json_array_append_new(tools, tool("read_output", "Read a started "
		"command's output", "Return what a started command wrote "
		"since the last read (the middle of long output is cut, and "
		"says so), and its exit code and the sandbox's notes once it "
		"has ended.", p, "id", true));
	p = json_object();
	json_object_set_new(p, "id", prop("integer", "The id start_command "
			    "gave."));
	json_object_set_new(p, "input", prop("string", "Text to write to "
			    "its standard input (add the newline a line "
			    "needs)."));
	json_object_set_new(p, "close", prop("boolean", "Then close its "
			    "standard input (end-of-file)."));
	json_array_append_new(tools, tool("write_input", "Write to a started "
		"command's input", "Write text to a started command's "
		"standard input, or close it.", p, "id", false));
	p = json_object();
	json_object_set_new(p, "id", prop("integer", "The id start_command "
			    "gave."));
	json_object_set_new(p, "signal", prop("string", "The signal to send "
			    "first (default TERM; INT, HUP, KILL, ...)."));
	json_object_set_new(p, "grace", prop("number", "Seconds to wait "
			    "before SIGKILL (default 5)."));
	json_array_append_new(tools, tool("stop_command", "Stop a started "
		"command", "Stop a started command (the signal, then SIGKILL "
		"after the grace) and return its last output and exit code.",
		p, "id", false));
	json_array_append_new(tools, tool("describe_sandbox", "Describe the "
		"sandbox", "Say what the sandbox allows and denies (files, "
		"network, environment, limits) and list the started commands "
		"still known, with their ids.", json_object(), NULL, true));
	free(run);
	free(start);
	return json_pack("{s:o}", "tools", tools);
fail:
	free(run);
	free(start);
	json_decref(tools);
	return NULL;
}
