/* A conformance-style MCP client for sbxctl mcp, over pipes (t-mcp.sh,
 * t-mcp-approvals.sh): it starts CMD (sbxctl ... mcp), speaks JSON-RPC on
 * its stdin and stdout and checks every answer. Lines "ok: ..." and
 * "FAIL: ..." say what held; "PID name pid" lines give the shell host pids
 * to check. Exit 0 when nothing failed.
 *
 *   sbx-mcp-conform [--scenario core|net] [--elicit ANSWER|none]
 *                   [--modern] [--url URL] -- CMD...
 *
 * --modern speaks the stateless revision (2026-07-28): no initialize,
 * _meta on every request, questions in input_required results.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int to_srv = -1, from_srv = -1, fails;
static pid_t srv;
static const char *elicit_answer; /* NULL: declare no elicitation */
static int next_id = 1, elicited, modern;
static char buf[1 << 22];
static size_t have;

static void
check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	fails += !ok;
}

static void
send_raw(const char *line)
{
	size_t n = strlen(line);

	if (write(to_srv, line, n) != (ssize_t)n || write(to_srv, "\n", 1) != 1)
		check(0, "writing to the server: %s", strerror(errno));
}

static void
send_json(json_t *m)
{
	char *s = json_dumps(m, JSON_COMPACT);

	send_raw(s);
	free(s);
	json_decref(m);
}

/* The next message from the server, or NULL at its end or after 60 s. */
static json_t *
recv_msg(void)
{
	struct pollfd p = { from_srv, POLLIN, 0 };
	char *nl;
	json_t *m;
	ssize_t n;

	while (!(nl = memchr(buf, '\n', have))) {
		if (poll(&p, 1, 60000) <= 0)
			return NULL;
		n = read(from_srv, buf + have, sizeof(buf) - have);
		if (n <= 0)
			return NULL;
		have += (size_t)n;
	}
	m = json_loadb(buf, (size_t)(nl - buf), 0, NULL);
	if (!m)
		check(0, "the server sent a line that is not JSON: %.*s",
		      (int)(nl - buf), buf);
	memmove(buf, nl + 1, have - (size_t)(nl + 1 - buf));
	have -= (size_t)(nl + 1 - buf);
	return m;
}

/* Answers an elicitation/create the server sent. */
static void
answer_elicitation(json_t *req)
{
	const char *msg = json_string_value(json_object_get(json_object_get(
		req, "params"), "message"));

	elicited++;
	printf("elicited: %s\n", msg ? msg : "?");
	send_json(json_pack("{s:s,s:O,s:{s:s,s:{s:s}}}", "jsonrpc", "2.0",
			    "id", json_object_get(req, "id"), "result",
			    "action", "accept", "content", "answer",
			    elicit_answer));
}

/* params with the stateless revision's _meta when speaking it. */
static json_t *
with_meta(json_t *params)
{
	if (!modern)
		return params;
	if (!params)
		params = json_object();
	json_object_set_new(params, "_meta", json_pack("{s:s,s:o,s:{s:s,s:s}}",
		"io.modelcontextprotocol/protocolVersion", "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities",
		elicit_answer ? json_pack("{s:{s:{}}}", "elicitation", "form") :
		json_object(), "io.modelcontextprotocol/clientInfo", "name",
		"conform", "version", "1"));
	return params;
}

/* Sends a request and returns its response (handling what the server asks
 * meanwhile). */
static json_t *
rpc(const char *method, json_t *params)
{
	int id = next_id++;
	json_t *m, *mid;

	m = json_pack("{s:s,s:i,s:s}", "jsonrpc", "2.0", "id", id, "method",
		      method);
	params = with_meta(params);
	if (params)
		json_object_set_new(m, "params", params);
	send_json(m);
	while ((m = recv_msg())) {
		mid = json_object_get(m, "id");
		if (json_object_get(m, "method") && json_is_string(json_object_get(
			m, "method")) && !strcmp(json_string_value(
			json_object_get(m, "method")), "elicitation/create") &&
		    elicit_answer)
			answer_elicitation(m);
		else if (json_is_integer(mid) && json_integer_value(mid) == id)
			return m;
		else if (json_is_integer(mid) && !json_object_get(m, "method"))
			check(0, "an answer to id %lld, which is not "
			      "waited for", (long long)json_integer_value(mid));
		json_decref(m);
	}
	check(0, "no answer to %s", method);
	return json_object();
}

/* The answers to an input_required result's requests. */
static json_t *
input_responses(const json_t *requests)
{
	json_t *out = json_object(), *q;
	const char *key;

	json_object_foreach((json_t *)requests, key, q) {
		const char *msg = json_string_value(json_object_get(
			json_object_get(q, "params"), "message"));

		check(!strcmp(json_string_value(json_object_get(q, "method")) ?:
			      "", "elicitation/create") && elicit_answer,
		      "an input request is an elicitation the client declared");
		elicited++;
		printf("elicited: %s\n", msg ? msg : "?");
		json_object_set_new(out, key, json_pack("{s:s,s:{s:s}}",
				    "action", "accept", "content", "answer",
				    elicit_answer ? elicit_answer : "deny"));
	}
	return out;
}

static json_t *
call(const char *tool, json_t *args)
{
	json_t *r = rpc("tools/call", json_pack("{s:s,s:O}", "name", tool,
						"arguments", args)), *res;

	/* The stateless revision asks in a result: answer, then retry. */
	while ((res = json_object_get(r, "result")) &&
	       !strcmp(json_string_value(json_object_get(res, "resultType")) ?:
		       "", "input_required")) {
		json_t *p = json_pack("{s:s,s:O,s:o,s:O}", "name", tool,
				      "arguments", args, "inputResponses",
				      input_responses(json_object_get(res,
					      "inputRequests")),
				      "requestState", json_object_get(res,
					      "requestState"));
		json_decref(r);
		r = rpc("tools/call", p);
	}
	if (modern && res)
		check(!strcmp(json_string_value(json_object_get(res,
			"resultType")) ?: "", "complete"),
		      "%s: a final result says resultType complete", tool);
	json_decref(args);
	return r;
}

static int
err_code(const json_t *r)
{
	return (int)json_integer_value(json_object_get(json_object_get(r,
						"error"), "code"));
}

static const json_t *
sc(const json_t *r)
{
	return json_object_get(json_object_get(r, "result"),
			       "structuredContent");
}

static const char *
sc_str(const json_t *r, const char *key)
{
	const char *s = json_string_value(json_object_get(sc(r), key));

	return s ? s : "";
}

static long long
sc_int(const json_t *r, const char *key)
{
	return json_integer_value(json_object_get(sc(r), key));
}

static const char *
text(const json_t *r)
{
	const char *s = json_string_value(json_object_get(json_array_get(
		json_object_get(json_object_get(r, "result"), "content"), 0),
		"text"));

	return s ? s : "";
}

static void
start_server(char **argv)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		exit(2);
	srv = fork();
	if (srv == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_srv = in[1];
	from_srv = out[0];
}

static void
initialize(void)
{
	json_t *r, *caps = json_object();

	if (elicit_answer)
		json_object_set_new(caps, "elicitation", json_object());
	r = rpc("initialize", json_pack("{s:s,s:o,s:{s:s,s:s}}",
		"protocolVersion", "2099-01-01", "capabilities", caps,
		"clientInfo", "name", "conform", "version", "1"));
	check(!strcmp(json_string_value(json_object_get(json_object_get(r,
		"result"), "protocolVersion")) ?: "", "2025-11-25"),
	      "an unknown revision is answered with the newest, 2025-11-25");
	check(json_is_object(json_object_get(json_object_get(json_object_get(
		r, "result"), "capabilities"), "tools")),
	      "the server declares tools");
	json_decref(r);
	send_raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
}

/* The stdio probe of a client of both eras, and a version refused. */
static void
discover(void)
{
	json_t *r = rpc("server/discover", NULL), *e;
	const json_t *res = json_object_get(r, "result");

	check(!strcmp(json_string_value(json_array_get(json_object_get(res,
		"supportedVersions"), 0)) ?: "", "2026-07-28") &&
	      json_is_object(json_object_get(json_object_get(res,
		"capabilities"), "tools")), "server/discover: 2026-07-28 first, "
	      "tools");
	json_decref(r);
	send_raw("{\"jsonrpc\":\"2.0\",\"id\":950,\"method\":\"tools/list\","
		 "\"params\":{\"_meta\":{\"io.modelcontextprotocol/"
		 "protocolVersion\":\"1900-01-01\",\"io.modelcontextprotocol/"
		 "clientCapabilities\":{}}}}");
	e = recv_msg();
	check(err_code(e) == -32022 && json_is_array(json_object_get(
		json_object_get(json_object_get(e, "error"), "data"),
		"supported")), "a revision not served: -32022 with the "
	      "supported list");
	json_decref(e);
}

/* Bad input: an error reply each, and the server goes on. */
static void
bad_input(void)
{
	json_t *m;

	send_raw("{\"jsonrpc\":\"2.0\",\"id\":");
	m = recv_msg();
	check(err_code(m) == -32700 && json_is_null(json_object_get(m, "id")),
	      "malformed JSON: parse error (-32700) under id null");
	json_decref(m);
	send_raw("[{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"ping\"}]");
	m = recv_msg();
	check(err_code(m) == -32600, "a batch: invalid request (-32600), "
	      "this revision has none");
	json_decref(m);
	send_raw("{\"jsonrpc\":\"2.0\",\"id\":901,\"method\":7}");
	m = recv_msg();
	check(err_code(m) == -32600 && json_integer_value(json_object_get(m,
		"id")) == 901, "a method that is no string: -32600 under "
	      "its id");
	json_decref(m);
	send_raw("\"just a string\"");
	m = recv_msg();
	check(err_code(m) == -32600, "a message that is no object: -32600");
	json_decref(m);
	m = rpc("no/such/method", NULL);
	check(err_code(m) == -32601, "an unknown method: -32601");
	json_decref(m);
	m = call("no_such_tool", json_object());
	check(err_code(m) == -32602, "an unknown tool: -32602");
	json_decref(m);
	m = call("run_command", json_pack("{s:i}", "command", 5));
	check(json_is_true(json_object_get(json_object_get(m, "result"),
		"isError")), "bad arguments: a tool error the model reads "
	      "(%s)", text(m));
	json_decref(m);
	{
		size_t n = 2u << 20;
		char *big = malloc(n + 1);

		memset(big, 'a', n);
		big[n] = '\0';
		m = call("run_command", json_pack("{s:s}", "command", big));
		free(big);
		check(json_is_true(json_object_get(json_object_get(m,
			"result"), "isError")), "a command larger than a "
		      "frame to sbxd: a tool error (%s)", text(m));
		json_decref(m);
	}
	m = rpc("ping", NULL);
	check(json_is_object(json_object_get(m, "result")),
	      "ping answers after all that");
	json_decref(m);
}

static void
tools_list(void)
{
	json_t *r = rpc("tools/list", NULL), *t;
	const char *need[] = { "run_command", "start_command", "read_output",
			       "write_input", "stop_command",
			       "describe_sandbox" };
	size_t i, j, found = 0;

	json_array_foreach(json_object_get(json_object_get(r, "result"),
					   "tools"), i, t)
		for (j = 0; j < 6; j++)
			if (!strcmp(json_string_value(json_object_get(t,
					"name")) ?: "", need[j])) {
				found++;
				if (j == 0)
					check(strstr(json_string_value(
						json_object_get(t,
						"description")) ?: "",
						"The sandbox's rules:\n") !=
					      NULL, "run_command's description "
					      "carries the daemon's describe "
					      "text");
			}
	check(found == 6, "tools/list has the six tools (%zu)", found);
	json_decref(r);
}

static void
run_commands(void)
{
	json_t *r;

	r = call("run_command", json_pack("{s:s}", "command", "echo out; "
		 "echo err >&2; echo made > made.txt; exit 3"));
	check(sc_int(r, "exitCode") == 3, "run_command: exit code 3");
	check(!strcmp(sc_str(r, "stdout"), "out\n") &&
	      !strcmp(sc_str(r, "stderr"), "err\n"), "... stdout and stderr "
	      "apart");
	check(strstr(text(r), "exit code 3") != NULL, "... said in the text");
	json_decref(r);
	r = call("run_command", json_pack("{s:s}", "command",
		 "echo x > \"$OUTSIDE/escaped\""));
	check(sc_int(r, "exitCode") != 0, "a write outside the workspace "
	      "fails (%s)", sc_str(r, "stderr"));
	json_decref(r);
	r = call("run_command", json_pack("{s:[ss],s:s}", "argv", "cat", "-",
		 "stdin", "given\n"));
	check(!strcmp(sc_str(r, "stdout"), "given\n"), "stdin is given, then "
	      "end-of-file");
	json_decref(r);
	r = call("run_command", json_pack("{s:s}", "command", "head -c 300000 "
		 "/dev/zero | tr '\\0' a; echo; echo END"));
	check(sc_int(r, "stdoutCut") > 200000 && strstr(sc_str(r, "stdout"),
		"bytes of stdout cut here]") && strstr(sc_str(r, "stdout"),
		"END"), "long output is cut in the middle, and says so");
	json_decref(r);
	r = call("run_command", json_pack("{s:s,s:f}", "command", "sleep 100",
		 "timeout", 0.5));
	check(json_is_true(json_object_get(sc(r), "timedOut")),
	      "timeout stops it");
	json_decref(r);
	r = call("run_command", json_pack("{s:s}", "command", "cat /tmp/kept "
		 "2>/dev/null || echo new > /tmp/kept"));
	json_decref(r);
	r = call("run_command", json_pack("{s:s}", "command", "cat /tmp/kept"));
	check(!strcmp(sc_str(r, "stdout"), "new\n"), "the session's /tmp "
	      "lasts between calls");
	json_decref(r);
}

static void
started(void)
{
	json_t *r;
	long long id, pid;

	r = call("start_command", json_pack("{s:s}", "command",
		 "echo ready; while read l; do echo \"got $l\"; done"));
	id = sc_int(r, "id");
	pid = sc_int(r, "pid");
	check(id > 0 && pid > 0 && json_is_true(json_object_get(sc(r),
		"running")), "start_command gives an id and a pid");
	printf("PID started %lld\n", pid);
	json_decref(r);
	r = call("read_output", json_pack("{s:I,s:i}", "id", id, "wait", 30));
	check(strstr(sc_str(r, "stdout"), "ready") != NULL, "read_output "
	      "waits for its output");
	json_decref(r);
	r = call("write_input", json_pack("{s:I,s:s}", "id", id, "input",
		 "hello\n"));
	check(!json_is_true(json_object_get(json_object_get(r, "result"),
		"isError")), "write_input");
	json_decref(r);
	r = call("read_output", json_pack("{s:I,s:i}", "id", id, "wait", 30));
	check(!strcmp(sc_str(r, "stdout"), "got hello\n"), "... the command "
	      "read it (%s)", sc_str(r, "stdout"));
	json_decref(r);
	r = call("describe_sandbox", json_object());
	check(strstr(text(r), "started command [id") != NULL &&
	      strstr(text(r), "running") != NULL, "describe_sandbox lists it");
	json_decref(r);
	r = call("stop_command", json_pack("{s:I}", "id", id));
	check(sc_int(r, "signal") == SIGTERM && !json_is_true(json_object_get(
		sc(r), "running")), "stop_command ends it with SIGTERM");
	json_decref(r);
	r = call("read_output", json_pack("{s:I}", "id", id));
	check(json_is_true(json_object_get(json_object_get(r, "result"),
		"isError")), "its id is gone once its end was read");
	json_decref(r);
	/* Left running: the end of the session must end it. */
	r = call("start_command", json_pack("{s:s}", "command", "sleep 1000"));
	printf("PID left %lld\n", sc_int(r, "pid"));
	json_decref(r);
}

static void
cancelled(void)
{
	json_t *r;
	int id = next_id;

	send_json(json_pack("{s:s,s:i,s:s,s:o}", "jsonrpc", "2.0", "id",
		  next_id++, "method", "tools/call", "params", with_meta(
		  json_pack("{s:s,s:{s:s}}", "name", "run_command",
			    "arguments", "command", "sleep 1000"))));
	send_json(json_pack("{s:s,s:s,s:{s:i,s:s}}", "jsonrpc", "2.0",
		  "method", "notifications/cancelled", "params", "requestId",
		  id, "reason", "test"));
	/* rpc() fails on an answer to the cancelled id. */
	r = rpc("ping", NULL);
	check(json_is_object(json_object_get(r, "result")), "a cancelled call "
	      "is not answered, and the server goes on");
	json_decref(r);
}

static void
net(const char *url)
{
	json_t *r;
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "curl -sS -o /dev/null -w '%%{http_code}' "
		 "%s", url);
	r = call("run_command", json_pack("{s:s}", "command", cmd));
	printf("code %s\nelicited %d\n", sc_str(r, "stdout"), elicited);
	printf("text: %s\n", text(r));
	json_decref(r);
}

int
main(int argc, char **argv)
{
	const char *scenario = "core", *url = NULL;
	int i, status;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
			scenario = argv[++i];
		else if (!strcmp(argv[i], "--elicit") && i + 1 < argc)
			elicit_answer = strcmp(argv[++i], "none") ? argv[i] :
					NULL;
		else if (!strcmp(argv[i], "--modern"))
			modern = 1;
		else if (!strcmp(argv[i], "--url") && i + 1 < argc)
			url = argv[++i];
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: sbx-mcp-conform [options] -- CMD...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	start_server(argv + i + 1);
	if (modern) {
		discover();
	} else if (!strcmp(scenario, "core")) {
		json_t *r = rpc("tools/list", NULL);

		check(err_code(r) == -32600, "a request before initialize: "
		      "refused");
		json_decref(r);
	}
	if (!strcmp(scenario, "core")) {
		if (!modern)
			initialize();
		bad_input();
		tools_list();
		run_commands();
		started();
		cancelled();
	} else {
		if (!modern)
			initialize();
		net(url ? url : "http://127.0.0.1:1/");
	}
	/* The end of stdin is the end of the session. */
	close(to_srv);
	waitpid(srv, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "sbxctl mcp exits 0 when its stdin closes (status %d)", status);
	return fails ? 1 : 0;
}
