/* sbxctl mcp: an MCP server on stdin and stdout whose tools run commands in
 * one long-lived sandbox per session (docs/mcp.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd.h"
#include "client/file.h"
#include "client/mcp-rpc.h"
#include "client/mcp.h"

extern char **environ;

static const struct option opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ "on-ask", required_argument, NULL, 'a' },
	{ NULL, 0, NULL, 0 },
};

/* The loop's state beyond struct mcp: stdin and the end. */
struct loop {
	struct mcp m;
	struct evbuffer *in;
	struct event *stdin_ev, *sigs[3];
	bool pollable, skipping, closing;
	uint64_t destroy_op;
};

static void
send_hook(void *arg, const json_t *msg)
{
	size_t len;
	char *line = mcp_rpc_line(msg, &len);

	/* A failed write: the client is gone, and stdin's end follows. */
	if (line)
		(void)file_write_all(1, line, len);
	free(line);
}

static void
call_hook(void *arg, json_t *id, struct mcp_args *a,
	  const struct mcp_call_ctx *ctx)
{
	mcp_proc_call(arg, id, a, ctx);
}

static void
cancelled_hook(void *arg, const json_t *id)
{
	mcp_proc_cancelled(arg, id);
}

static void
response_hook(void *arg, const json_t *id, const json_t *result,
	      const json_t *error)
{
	struct mcp *m = arg;

	mcp_ask_response(m->ask, id, result, error);
}

static json_t *
tools_hook(void *arg)
{
	struct mcp *m = arg;

	return mcp_tools_list(m->describe);
}

/* The session ends: its sandbox goes (every process in it), and the loop
 * ends once the daemon says it is gone. */
static void
finish(struct loop *l)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__DestroySandbox req = SBX__DESTROY_SANDBOX__INIT;

	if (l->closing)
		return;
	l->closing = true;
	if (l->stdin_ev)
		event_del(l->stdin_ev);
	if (l->m.lost) {
		event_base_loopbreak(l->m.base);
		return;
	}
	req.sandbox_id = l->m.sandbox;
	env.msg_case = SBX__ENVELOPE__MSG_DESTROY_SANDBOX;
	env.destroy_sandbox = &req;
	l->destroy_op = ++l->m.next_op;
	l->m.destroy_op = l->destroy_op;
	mcp_daemon_send(l->m.d, &env, l->destroy_op);
}

static void
lines(struct loop *l, bool eof)
{
	size_t n;
	char *line;

	while ((line = evbuffer_readln(l->in, &n, EVBUFFER_EOL_LF))) {
		if (n && line[n - 1] == '\r')
			n--;
		if (l->skipping)
			l->skipping = false; /* the end of a line too long */
		else if (strspn(line, " \t") < n)
			mcp_server_input(&l->m.srv, line, n);
		free(line);
	}
	n = evbuffer_get_length(l->in);
	if (n > MCP_LINE_MAX) {
		/* Never kept whole: answered once, the rest dropped up to
		 * its newline. */
		evbuffer_drain(l->in, n);
		if (!l->skipping)
			mcp_server_error(&l->m.srv, NULL, MCP_PARSE_ERROR,
					 "a message longer than the limit "
					 "(8 MiB)");
		l->skipping = true;
	} else if (eof && n && !l->skipping) {
		line = (char *)evbuffer_pullup(l->in, (ssize_t)n);
		mcp_server_input(&l->m.srv, line, n);
		evbuffer_drain(l->in, n);
	}
}

static void
stdin_cb(evutil_socket_t fd, short what, void *arg)
{
	struct loop *l = arg;
	int n = evbuffer_read(l->in, 0, 64 * 1024);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	lines(l, n <= 0);
	if (n <= 0)
		finish(l);
	else if (!l->pollable && !l->closing)
		event_active(l->stdin_ev, EV_READ, 0);
}

static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	finish(arg);
}

/* The daemon's words on the workspace, for the tool descriptions. */
static int
describe(struct client *c, struct mcp *m)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__DescribeRequest req = SBX__DESCRIBE_REQUEST__INIT;

	req.workspace = m->workspace;
	for (req.n_env = 0; environ[req.n_env]; req.n_env++)
		;
	req.env = environ;
	env.msg_case = SBX__ENVELOPE__MSG_DESCRIBE;
	env.describe = &req;
	if (client_call(c, &env, SBX__ENVELOPE__MSG_DESCRIBE_REPLY, &rep) < 0)
		return -EIO;
	m->describe = strdup(rep->describe_reply->text ?
			     rep->describe_reply->text : "");
	wire_envelope_free(rep);
	return m->describe ? 0 : -ENOMEM;
}

static int
create_sandbox(struct client *c, struct mcp *m)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__CreateSandbox cs = SBX__CREATE_SANDBOX__INIT;
	Sbx__RunRequest spec = SBX__RUN_REQUEST__INIT;
	mode_t um = umask(022);

	umask(um);
	spec.cwd = m->workspace;
	spec.workspace = m->workspace;
	for (spec.n_env = 0; environ[spec.n_env]; spec.n_env++)
		;
	spec.env = environ;
	spec.umask = um;
	spec.umask_set = true;
	cs.spec = &spec;
	env.msg_case = SBX__ENVELOPE__MSG_CREATE_SANDBOX;
	env.create_sandbox = &cs;
	if (client_call(c, &env, SBX__ENVELOPE__MSG_SANDBOX_CREATED, &rep) < 0)
		return -EIO;
	m->sandbox = rep->sandbox_created->sandbox->id;
	wire_envelope_free(rep);
	return 0;
}

/* Connects (protocol 2: several commands at once on one connection),
 * asks for the describe text and makes the session's sandbox. */
static int
open_daemon(const struct cmd_ctx *ctx, struct client *c, struct mcp *m)
{
	static const char *const need[] = { "multiplex", "request-id",
					    "sandboxes" };
	size_t i;

	if (client_open_version(ctx, c, WIRE_PROTOCOL_VERSION) < 0)
		return -EIO;
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!client_has_feature(c, need[i])) {
			client_err("sbxd lacks \"%s\", which sbxctl mcp needs: "
				   "is it an older version?", need[i]);
			return -ENOTSUP;
		}
	if (describe(c, m) < 0 || create_sandbox(c, m) < 0)
		return -EIO;
	return 0;
}

static char *
instructions(const struct mcp *m)
{
	char *s;

	if (asprintf(&s, "Every command runs in an sbx sandbox (a long-lived "
		     "one for this session) whose writable root is the "
		     "workspace %s. run_command runs one to its end; "
		     "start_command starts a long-running one (read_output, "
		     "write_input, stop_command); describe_sandbox says what "
		     "is allowed. A blocked action is reported with its rule: "
		     "retrying it fails the same way.", m->workspace) < 0)
		return NULL;
	return s;
}

static int
setup_stdin(struct loop *l)
{
	struct event_base *b = l->m.base;

	l->in = evbuffer_new();
	if (!l->in)
		return -ENOMEM;
	l->stdin_ev = event_new(b, 0, EV_READ | EV_PERSIST, stdin_cb, l);
	if (l->stdin_ev && event_add(l->stdin_ev, NULL) == 0) {
		l->pollable = true;
		evutil_make_socket_nonblocking(0);
		return 0;
	}
	/* A file on stdin cannot be polled: read it in turns. */
	if (l->stdin_ev)
		event_free(l->stdin_ev);
	l->stdin_ev = event_new(b, -1, 0, stdin_cb, l);
	if (!l->stdin_ev)
		return -ENOMEM;
	event_active(l->stdin_ev, EV_READ, 0);
	return 0;
}

static int
serve(const struct cmd_ctx *ctx, struct loop *l)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	const struct mcp_server_hooks hooks = {
		.arg = &l->m, .send = send_hook, .call = call_hook,
		.cancelled = cancelled_hook, .response = response_hook,
		.tools = tools_hook,
	};
	struct client c = { .fd = -1 };
	char *instr = NULL;
	size_t i;
	int r = EXIT_SBX;

	signal(SIGPIPE, SIG_IGN);
	if (open_daemon(ctx, &c, &l->m) < 0)
		goto out;
	mcp_server_init(&l->m.srv, &hooks);
	l->m.srv.instructions = instr = instructions(&l->m);
	if (!(l->m.base = event_base_new()) ||
	    !(l->m.d = mcp_daemon_new(&l->m, &c)) ||
	    !(l->m.ask = mcp_ask_new(&l->m)) || setup_stdin(l) < 0)
		goto out;
	for (i = 0; i < 3; i++) {
		l->sigs[i] = evsignal_new(l->m.base, sigs[i], signal_cb, l);
		if (l->sigs[i])
			event_add(l->sigs[i], NULL);
	}
	event_base_dispatch(l->m.base);
	if (!l->m.lost)
		mcp_daemon_flush(l->m.d);
	r = l->m.lost ? EXIT_SBX : 0;
	if (l->m.lost)
		client_err("lost the connection to sbxd");
out:
	for (i = 0; i < 3; i++)
		if (l->sigs[i])
			event_free(l->sigs[i]);
	if (l->stdin_ev)
		event_free(l->stdin_ev);
	if (l->in)
		evbuffer_free(l->in);
	mcp_proc_free_all(&l->m);
	mcp_ask_free(l->m.ask);
	mcp_daemon_free(l->m.d);
	if (l->m.base)
		event_base_free(l->m.base);
	free(l->m.describe);
	free(instr);
	client_close(&c);
	return r;
}

static int
cmd_mcp(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct loop l = { 0 };
	const char *ws = ".";
	int o;

	while ((o = getopt_long(argc, argv, cmd_mcp_entry.shortopts, opts,
				NULL)) != -1) {
		if (o == 'w')
			ws = optarg;
		else if (o == 'a' && (!strcmp(optarg, "deny") ||
				      !strcmp(optarg, "ask")))
			l.m.on_ask_deny = !strcmp(optarg, "deny");
		else
			return cmd_bad_usage(&cmd_mcp_entry, "");
	}
	if (optind != argc)
		return cmd_bad_usage(&cmd_mcp_entry, "");
	if (!realpath(ws, l.m.workspace)) {
		client_err("%s: %s", ws, strerror(errno));
		return EXIT_SBX;
	}
	return serve(ctx, &l);
}

const struct cmd_entry cmd_mcp_entry = {
	.name = "mcp",
	.usage = "mcp [--workspace DIR] [--on-ask=ask|deny]",
	.summary = "Serve the Model Context Protocol on stdin and stdout: "
		   "tools that run commands in one long-lived sandbox per "
		   "session (docs/mcp.md).",
	.fn = cmd_mcp,
	.opts = opts,
	.shortopts = "w:",
};
