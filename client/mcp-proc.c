/* The commands of an MCP session in its long-lived sandbox: run_command to
 * its end, start_command and the calls on a started one (read_output,
 * write_input, stop_command), and describe_sandbox's query; each is one
 * operation on the daemon connection, its request id its own. */
#define _GNU_SOURCE
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "client/mcp-result.h"
#include "client/mcp-rpc.h"
#include "client/mcp.h"
#include "proto/blocked.h"

extern char **environ;

/* What an agent gets of each stream: the start and (most of) the end. */
#define HEAD_MAX (8u << 10)
#define TAIL_MAX (24u << 10)
/* Live violation lines kept for a started command between two reads. */
#define NOTES_MAX 20

struct proc {
	struct mcp *m;
	uint64_t op;		/* request id; start_command's id too */
	enum mcp_tool tool;	/* RUN, START, or DESCRIBE (a query) */
	char *what;		/* the command, printable */
	int pid;
	Sbx__Envelope *end;	/* its ExitStatus */
	char *error;		/* or the Error that ended it */
	struct mcp_capture out, err;
	char *notes[NOTES_MAX + 1];
	size_t nnotes;
	json_t *call;		/* the tools/call waiting on it, or NULL */
	enum mcp_tool call_tool;
	bool call_modern;	/* that call's era and elicitation */
	bool call_elicit;
	bool awaiting_retry;	/* its call got input_required: kept for
				 * the retry, even past its end */
	struct event *timer;	/* read_output's wait, stop_command's grace */
	struct proc *next;
};

static struct proc *
find(struct mcp *m, uint64_t op)
{
	struct proc *p;

	for (p = m->procs; p && p->op != op; p = p->next)
		;
	return p;
}

static void
drop_notes(struct proc *p)
{
	while (p->nnotes)
		free(p->notes[--p->nnotes]);
}

static void
proc_free(struct mcp *m, struct proc *p)
{
	struct proc **pp;

	for (pp = &m->procs; *pp && *pp != p; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = p->next;
	if (p->timer)
		event_free(p->timer);
	json_decref(p->call);
	wire_envelope_free(p->end);
	free(p->error);
	free(p->what);
	drop_notes(p);
	mcp_capture_free(&p->out);
	mcp_capture_free(&p->err);
	free(p);
}

static void
take_call(struct proc *p, json_t *call, enum mcp_tool tool,
	  const struct mcp_call_ctx *ctx)
{
	json_decref(p->call);
	p->call = json_incref(call);
	p->call_tool = tool;
	p->call_modern = ctx->modern;
	p->call_elicit = ctx->elicit;
	p->awaiting_retry = false;
}

static struct proc *
proc_new(struct mcp *m, enum mcp_tool tool, json_t *call,
	 const struct mcp_call_ctx *ctx)
{
	struct proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->m = m;
	p->op = ++m->next_op;
	p->tool = tool;
	take_call(p, call, tool, ctx);
	mcp_capture_init(&p->out, HEAD_MAX, TAIL_MAX);
	mcp_capture_init(&p->err, HEAD_MAX, TAIL_MAX);
	p->next = m->procs;
	m->procs = p;
	return p;
}

static bool
ended(const struct proc *p)
{
	return p->end || p->error;
}

static void
tool_error(struct mcp *m, json_t *id, const char *msg, bool modern)
{
	mcp_server_reply(&m->srv, id, mcp_server_complete(
				 mcp_server_tool_text(msg, true), modern));
}

static void
send_signal(struct mcp *m, struct proc *p, int sig)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__SendSignal s = SBX__SEND_SIGNAL__INIT;

	s.signo = sig;
	env.msg_case = SBX__ENVELOPE__MSG_SIGNAL;
	env.signal = &s;
	mcp_daemon_send(m->d, &env, p->op);
}

static void
send_input(struct mcp *m, struct proc *p, const char *data, size_t len,
	   bool close)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__StdinData sd = SBX__STDIN_DATA__INIT;
	Sbx__StdinClose sc = SBX__STDIN_CLOSE__INIT;
	size_t off, n;

	env.msg_case = SBX__ENVELOPE__MSG_STDIN_DATA;
	env.stdin_data = &sd;
	for (off = 0; off < len; off += n) {
		n = len - off < WIRE_CHUNK ? len - off : WIRE_CHUNK;
		sd.data.data = (uint8_t *)data + off;
		sd.data.len = n;
		mcp_daemon_send(m->d, &env, p->op);
	}
	if (close) {
		env.msg_case = SBX__ENVELOPE__MSG_STDIN_CLOSE;
		env.stdin_close = &sc;
		mcp_daemon_send(m->d, &env, p->op);
	}
}

/* Answers p's waiting call with its report: what it wrote since the last
 * one, and its end if it has ended (a started command is then forgotten,
 * its end handed out). */
static void
report(struct mcp *m, struct proc *p)
{
	struct mcp_report r = {
		.id = p->tool == MCP_TOOL_START ? p->op : 0, .pid = p->pid,
		.es = p->end ? p->end->exit_status : NULL, .error = p->error,
		.out = &p->out, .err = &p->err, .notes = p->notes,
		.nnotes = p->nnotes,
	};
	json_t *call = p->call;

	p->call = NULL;
	if (p->timer)
		evtimer_del(p->timer);
	mcp_server_reply(&m->srv, call, mcp_server_complete(
				 mcp_result_report(&r), p->call_modern));
	json_decref(call);
	mcp_capture_reset(&p->out);
	mcp_capture_reset(&p->err);
	drop_notes(p);
	if (ended(p))
		proc_free(m, p);
}

static char *
printable(char **argv)
{
	char *s = NULL, *t;
	size_t i;

	for (i = 0; argv[i]; i++) {
		if (asprintf(&t, "%s%s%s", s ? s : "", s ? " " : "",
			     argv[i]) < 0) {
			free(s);
			return NULL;
		}
		free(s);
		s = t;
	}
	if (s)
		blocked_scrub(s);
	return s;
}

/* run_command and start_command: one exec in the session's sandbox. */
static void
start(struct mcp *m, json_t *id, struct mcp_args *a,
      const struct mcp_call_ctx *ctx)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	char cwd[PATH_MAX * 2];
	struct proc *p = proc_new(m, a->tool, id, ctx);
	mode_t um;

	if (!p || !(p->what = printable(a->argv))) {
		if (p)
			proc_free(m, p);
		mcp_server_error(&m->srv, id, MCP_INTERNAL_ERROR,
				 "out of memory");
		return;
	}
	/* A relative cwd is the workspace's; it is a path inside the
	 * sandbox, which the daemon enters there. */
	if (a->cwd && a->cwd[0] == '/')
		snprintf(cwd, sizeof(cwd), "%s", a->cwd);
	else
		snprintf(cwd, sizeof(cwd), "%s%s%s", m->workspace,
			 a->cwd ? "/" : "", a->cwd ? a->cwd : "");
	req.argv = a->argv;
	req.n_argv = a->argc;
	for (req.n_env = 0; environ[req.n_env]; req.n_env++)
		;
	req.env = environ;
	req.cwd = cwd;
	req.workspace = m->workspace;
	req.io_mode = SBX__IO_MODE__IO_MODE_STREAMING;
	req.timeout_ms = a->timeout_ms;
	um = umask(022);
	umask(um);
	req.umask = um;
	req.umask_set = true;
	req.sandbox_id = m->sandbox;
	env.msg_case = SBX__ENVELOPE__MSG_RUN;
	env.run = &req;
	if (mcp_daemon_send(m->d, &env, p->op) < 0) {
		tool_error(m, id, "the command and its environment are more "
			   "than one request to sbxd may carry (1 MiB)",
			   ctx->modern);
		proc_free(m, p);
		return;
	}
	/* run_command's stdin is what it was given, then end-of-file;
	 * start_command's stays open for write_input. */
	if (a->tool == MCP_TOOL_RUN)
		send_input(m, p, a->input, a->input_len, true);
}

/* read_output's wait is over (nothing came), or stop_command's grace
 * (the command outlived its signal: SIGKILL, and wait for its end). */
static void
timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct proc *p = arg;

	if (p->call_tool == MCP_TOOL_STOP)
		send_signal(p->m, p, SIGKILL);
	else if (p->call)
		report(p->m, p);
}

static int
arm(struct proc *p, uint32_t ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (!p->timer && !(p->timer = evtimer_new(p->m->base, timer_cb, p)))
		return -1;
	return evtimer_add(p->timer, &tv);
}

/* The started command a call names; answers the call when there is none. */
static struct proc *
started(struct mcp *m, json_t *id, uint64_t handle, bool modern)
{
	struct proc *p = find(m, handle);
	char msg[160];

	if (p && p->tool == MCP_TOOL_START && !p->call)
		return p;
	if (p && p->tool == MCP_TOOL_START)
		snprintf(msg, sizeof(msg), "another call is waiting on "
			 "command %llu", (unsigned long long)handle);
	else
		snprintf(msg, sizeof(msg), "no started command has id %llu "
			 "(describe_sandbox lists them; an ended one is gone "
			 "once its end was read)", (unsigned long long)handle);
	tool_error(m, id, msg, modern);
	return NULL;
}

static void
describe(struct mcp *m, json_t *id, const struct mcp_call_ctx *ctx)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__DescribeRequest req = SBX__DESCRIBE_REQUEST__INIT;
	struct proc *p = proc_new(m, MCP_TOOL_DESCRIBE, id, ctx);

	if (!p) {
		mcp_server_error(&m->srv, id, MCP_INTERNAL_ERROR,
				 "out of memory");
		return;
	}
	req.workspace = m->workspace;
	for (req.n_env = 0; environ[req.n_env]; req.n_env++)
		;
	req.env = environ;
	env.msg_case = SBX__ENVELOPE__MSG_DESCRIBE;
	env.describe = &req;
	mcp_daemon_send(m->d, &env, p->op);
}

/* A retry of a call that got input_required: its answers decide the
 * approval, and the call takes up its command where the first left it. */
static void
retry(struct mcp *m, json_t *id, const struct mcp_call_ctx *ctx)
{
	uint64_t op = mcp_ask_retry(m->ask, ctx->request_state,
				    ctx->input_responses);
	struct proc *p = op ? find(m, op) : NULL;

	if (!p || !p->awaiting_retry) {
		tool_error(m, id, "the command this answer was for is gone "
			   "(or the requestState is not this server's)", true);
		return;
	}
	take_call(p, id, p->call_tool, ctx);
	if (ended(p) || p->call_tool == MCP_TOOL_READ ||
	    (p->call_tool == MCP_TOOL_START && p->pid))
		report(m, p);
}

void
mcp_proc_call(struct mcp *m, json_t *id, struct mcp_args *a,
	      const struct mcp_call_ctx *ctx)
{
	struct proc *p = NULL;

	if (m->lost) {
		tool_error(m, id, "lost the connection to sbxd", ctx->modern);
	} else if (ctx->request_state) {
		retry(m, id, ctx);
	} else if (a->tool == MCP_TOOL_RUN || a->tool == MCP_TOOL_START) {
		start(m, id, a, ctx);
	} else if (a->tool == MCP_TOOL_DESCRIBE) {
		describe(m, id, ctx);
	} else if ((p = started(m, id, a->id, ctx->modern)) == NULL) {
		/* answered */
	} else if (a->tool == MCP_TOOL_WRITE) {
		if (ended(p))
			tool_error(m, id, "the command has ended: read_output "
				   "gives its end", ctx->modern);
		else {
			send_input(m, p, a->input, a->input_len,
				   a->close_input);
			mcp_server_reply(&m->srv, id, mcp_server_complete(
				mcp_server_tool_text(a->close_input ?
				"written; its input is closed" : "written",
				false), ctx->modern));
		}
	} else {
		take_call(p, id, a->tool, ctx);
		if (a->tool == MCP_TOOL_STOP && !ended(p))
			send_signal(m, p, a->signo);
		/* Answered now when there is something to say or no wait;
		 * else on output, on its end, or when the wait is over. */
		if (ended(p) || (a->tool == MCP_TOOL_READ &&
				 (!a->wait_ms || p->out.total || p->err.total ||
				  p->nnotes)))
			report(m, p);
		else if (arm(p, a->wait_ms) < 0)
			report(m, p);
	}
	mcp_args_free(a);
}

bool
mcp_proc_call_modern(struct mcp *m, uint64_t op, bool *elicit)
{
	struct proc *p = find(m, op);

	if (!p || !p->call || !p->call_modern)
		return false;
	*elicit = p->call_elicit;
	return true;
}

bool
mcp_proc_input_required(struct mcp *m, uint64_t op, json_t *requests,
			const char *state)
{
	struct proc *p = find(m, op);
	json_t *res, *call;

	if (!p || !p->call || !p->call_modern) {
		json_decref(requests);
		return false;
	}
	res = json_pack("{s:s,s:o,s:s}", "resultType", "input_required",
			"inputRequests", requests, "requestState", state);
	call = p->call;
	p->call = NULL;
	p->awaiting_retry = true;
	if (p->timer)
		evtimer_del(p->timer);
	mcp_server_reply(&m->srv, call, res);
	json_decref(call);
	return true;
}

/* describe_sandbox's answer: the daemon's words, then the session's. */
static void
described(struct mcp *m, struct proc *q, const Sbx__DescribeReply *dr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct proc *p;
	json_t *call = q->call;

	if (!f) {
		proc_free(m, q);
		return;
	}
	fprintf(f, "%s\nThis session's sandbox: id %llu, workspace %s (its "
		"/tmp, processes and network approvals last until the MCP "
		"session ends).\n", dr->text ? dr->text : "",
		(unsigned long long)m->sandbox, m->workspace);
	for (p = m->procs; p; p = p->next)
		if (p->tool == MCP_TOOL_START)
			fprintf(f, "started command [id %llu] %s: %s\n",
				(unsigned long long)p->op, p->what,
				ended(p) ? "ended (read_output gives its end)" :
				"running");
	fclose(f);
	q->call = NULL;
	mcp_server_reply(&m->srv, call, text ? mcp_server_complete(
		mcp_server_tool_text(text, false), q->call_modern) : NULL);
	json_decref(call);
	free(text);
	proc_free(m, q);
}

static void
violation(struct proc *p, const Sbx__ViolationEvent *ev)
{
	char line[1024];

	/* A run's come grouped in its ExitStatus; a started command's as
	 * they happen, with its next read. */
	if (p->tool != MCP_TOOL_START || ev->expected ||
	    p->nnotes >= NOTES_MAX)
		return;
	memcpy(line, "sbx: ", 5);
	blocked_text(ev, line + 5, sizeof(line) - 5);
	p->notes[p->nnotes++] = strdup(line);
	if (!p->notes[p->nnotes - 1])
		p->nnotes--;
}

/* The frame is the reader's: a copy is kept. */
static Sbx__Envelope *
dup_env(const Sbx__Envelope *env)
{
	Sbx__Envelope *copy = NULL;
	uint8_t *buf;
	size_t len;

	if (wire_encode(env, &buf, &len) < 0)
		return NULL;
	if (wire_decode(buf + WIRE_HEADER, len - WIRE_HEADER, &copy) < 0)
		copy = NULL;
	free(buf);
	return copy;
}

static void
end(struct mcp *m, struct proc *p, const Sbx__Envelope *env)
{
	if (env->msg_case == SBX__ENVELOPE__MSG_ERROR)
		p->error = strdup(env->error->message ? env->error->message :
				  "error");
	else
		p->end = dup_env(env);
	if (!ended(p))
		p->error = strdup("out of memory");
	if (p->call)
		report(m, p);
	else if (p->tool != MCP_TOOL_START && !p->awaiting_retry)
		proc_free(m, p); /* its call was cancelled */
}

void
mcp_proc_frame(struct mcp *m, const Sbx__Envelope *env)
{
	struct proc *p = find(m, env->request_id);

	if (m->destroy_op && env->request_id == m->destroy_op) {
		event_base_loopbreak(m->base); /* the sandbox is gone */
		return;
	}
	switch (env->msg_case) {
	case SBX__ENVELOPE__MSG_APPROVAL_REQUEST:
		mcp_ask_request(m->ask, env->request_id,
				env->approval_request);
		return;
	case SBX__ENVELOPE__MSG_APPROVAL_ANSWERED:
		mcp_ask_settled(m->ask, env->request_id,
				env->approval_answered);
		return;
	default:
		break;
	}
	if (!p || ended(p))
		return;
	switch (env->msg_case) {
	case SBX__ENVELOPE__MSG_RUN_STARTED:
		p->pid = env->run_started->pid;
		if (p->call && p->call_tool == MCP_TOOL_START)
			report(m, p);
		break;
	case SBX__ENVELOPE__MSG_OUTPUT:
		mcp_capture_add(env->output->stream == 2 ? &p->err : &p->out,
				env->output->data.data, env->output->data.len);
		if (p->call && p->call_tool == MCP_TOOL_READ)
			report(m, p);
		break;
	case SBX__ENVELOPE__MSG_VIOLATION:
		violation(p, env->violation);
		break;
	case SBX__ENVELOPE__MSG_DESCRIBE_REPLY:
		if (p->call)
			described(m, p, env->describe_reply);
		else
			proc_free(m, p);
		break;
	case SBX__ENVELOPE__MSG_ERROR:
		/* About an approval answer of ours: it ends nothing. */
		if (env->error->approval_request_id)
			break;
		/* Shutdown is news: the exit status follows. */
		if (env->error->code == SBX__ERROR_CODE__ERROR_CODE_SHUTDOWN)
			break;
		if (p->tool == MCP_TOOL_DESCRIBE) {
			json_t *call = p->call;

			p->call = NULL;
			if (call)
				tool_error(m, call, env->error->message,
					   p->call_modern);
			json_decref(call);
			proc_free(m, p);
			break;
		}
		end(m, p, env);
		break;
	case SBX__ENVELOPE__MSG_EXIT_STATUS:
		end(m, p, env);
		break;
	default:
		break; /* later additions */
	}
}

void
mcp_proc_cancelled(struct mcp *m, const json_t *id)
{
	struct proc *p;

	for (p = m->procs; p; p = p->next)
		if (p->call && json_equal(p->call, (json_t *)id))
			break;
	if (!p)
		return;
	json_decref(p->call);
	p->call = NULL;
	if (p->timer)
		evtimer_del(p->timer);
	/* A command nobody will hear of again is killed: run_command's, or
	 * a start whose id the agent never got. */
	if ((p->tool == MCP_TOOL_RUN ||
	     (p->tool == MCP_TOOL_START && p->call_tool == MCP_TOOL_START)) &&
	    !ended(p))
		send_signal(m, p, SIGKILL);
	if (p->tool == MCP_TOOL_START && p->call_tool == MCP_TOOL_START)
		p->tool = MCP_TOOL_RUN; /* forgotten at its end */
}

void
mcp_proc_lost(struct mcp *m, const char *why)
{
	struct proc *p, *next;

	for (p = m->procs; p; p = next) {
		next = p->next;
		if (p->tool == MCP_TOOL_DESCRIBE) {
			if (p->call)
				tool_error(m, p->call, why, p->call_modern);
			proc_free(m, p);
			continue;
		}
		if (!ended(p) && !(p->error = strdup(why)))
			continue;
		if (p->call)
			report(m, p);
	}
}

void
mcp_proc_note(struct mcp *m, uint64_t op, const char *note)
{
	struct proc *p = find(m, op);

	if (p && p->nnotes < NOTES_MAX + 1 && (p->notes[p->nnotes] =
					       strdup(note)))
		p->nnotes++;
}

void
mcp_proc_free_all(struct mcp *m)
{
	while (m->procs)
		proc_free(m, m->procs);
}
