/* Sessions: spawning a request into a sandbox, relaying its streams in
 * streaming mode, relaying signals, timing out, and reporting how it ended.
 * A session is freed only from its deferred free event. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/envfilter.h"
#include "daemon/events.h"
#include "daemon/fsdenial.h"
#include "daemon/fsplan.h"
#include "daemon/policy-explain.h"
#include "daemon/policy-store.h"
#include "daemon/log.h"
#include "daemon/policy.h"
#include "daemon/proxy-env.h"
#include "daemon/proxy.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/syscall-deny.h"
#include "daemon/violation.h"
#include "daemon/workspace.h"

/* Streaming backpressure: stop reading the command's output while this
 * much is queued for the client; resume below the low mark. */
#define OUT_HIGH (4u << 20)
#define OUT_LOW (1u << 20)
#define STDIN_HIGH (4u << 20)

struct stream {
	int fd;
	unsigned id; /* 1 stdout, 2 stderr */
	struct event *ev;
	struct session *s;
};

struct session {
	uint64_t id;
	struct conn *conn;
	struct sandbox_proc proc;
	struct event *pid_ev, *helper_ev, *status_ev, *timeout_ev, *free_ev;
	struct event *deny_ev;     /* seccomp refusals to answer */
	int deny_fd;
	struct violation_log *vlog;
	bool audit_wait;           /* exit status waits for audit records */
	struct stream out[2];
	int nout;
	int stdin_fd; /* streaming: pipe or pty master, -1 when closed */
	struct event *stdin_ev;
	struct evbuffer *stdin_buf;
	bool stdin_eof, tty, streaming, exited, timed_out, paused;
	bool setup_failed, got_status;
	struct sandbox_status setup, exec_fail, exit;
	int pending_sig; /* asked for before the sandbox had started */
	char **argv;
	char *workspace;
	struct policy *policy;     /* effective policy of this run */
	uint64_t start_ms, start_unix_ms, end_ms;
	struct proxy *proxy;   /* serves the sandbox's listeners */
	struct session *next;
};

static struct session *sessions;
static unsigned nsessions;
static uint64_t next_id = 1;

static void session_maybe_finish(struct session *s);

static int
session_send_hook(void *arg, const Sbx__Envelope *env)
{
	struct session *s = arg;

	return s->conn ? conn_send(s->conn, env) : -ENOTCONN;
}

/* Every source's denials end here: counted, rate-limited, delivered. */
static void
session_violation(void *arg, const struct violation *v)
{
	struct session *s = arg;

	events_report(s->vlog, s->id, s->conn, v);
}

/* The sandbox made its proxy listeners (HTTP, SOCKS5) inside its network
 * namespace: the proxy serves them, for this session only. */
static void
session_proxy_listeners(struct session *s, int *fds, int nfds)
{
	const struct proxy_hooks hooks = { s, session_send_hook,
					   session_violation };
	int i;

	if (s->proxy) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		return;
	}
	s->proxy = proxy_attach(s->id, s->policy, &hooks, fds,
				nfds);
}
static void session_started(struct session *s, int pidfd);
static void session_denials(struct session *s, int *fds, int nfds);

static void
stream_close(struct session *s, struct stream *st)
{
	if (st->fd < 0)
		return;
	event_free(st->ev);
	st->ev = NULL;
	close(st->fd);
	st->fd = -1;
}

static void
stdin_close_fd(struct session *s)
{
	if (s->stdin_fd < 0)
		return;
	event_free(s->stdin_ev);
	s->stdin_ev = NULL;
	close(s->stdin_fd);
	s->stdin_fd = -1;
	if (s->conn)
		conn_pause_read(s->conn, false);
}

static void
session_free_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg, **pp;
	int i;

	for (pp = &sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	nsessions--;
	proxy_free(s->proxy);
	sandbox_audit_cancel(s);
	violation_log_free(s->vlog);
	for (i = 0; i < s->nout; i++)
		stream_close(s, &s->out[i]);
	stdin_close_fd(s);
	if (s->conn)
		s->conn->session = NULL;
	if (s->pid_ev)
		event_free(s->pid_ev);
	if (s->helper_ev)
		event_free(s->helper_ev);
	if (s->deny_ev)
		event_free(s->deny_ev);
	if (s->deny_fd >= 0)
		close(s->deny_fd);
	if (s->status_ev)
		event_free(s->status_ev);
	if (s->timeout_ev)
		event_free(s->timeout_ev);
	event_free(s->free_ev);
	if (s->stdin_buf)
		evbuffer_free(s->stdin_buf);
	sandbox_proc_release(&s->proc);
	for (i = 0; s->argv && s->argv[i]; i++)
		free(s->argv[i]);
	free(s->argv);
	free(s->workspace);
	policy_free(s->policy);
	free(s);
	if (sbxd.stopping && nsessions == 0)
		sbxd_sessions_drained();
}

static void
send_output(struct session *s, unsigned id, const uint8_t *buf, size_t n)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__OutputData od = SBX__OUTPUT_DATA__INIT;

	od.stream = id;
	od.data.data = (uint8_t *)buf;
	od.data.len = n;
	env.msg_case = SBX__ENVELOPE__MSG_OUTPUT;
	env.output = &od;
	conn_send(s->conn, &env);
}

static void
pause_output(struct session *s, bool pause)
{
	int i;

	if (s->paused == pause)
		return;
	s->paused = pause;
	for (i = 0; i < s->nout; i++) {
		if (!s->out[i].ev)
			continue;
		if (pause)
			event_del(s->out[i].ev);
		else
			event_add(s->out[i].ev, NULL);
	}
}

static void
out_cb(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t buf[WIRE_CHUNK];
	struct stream *st = arg;
	struct session *s = st->s;
	ssize_t n;

	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/* A pty master reports EIO once the last slave fd is closed. */
	if (n <= 0) {
		stream_close(s, st);
		session_maybe_finish(s);
		return;
	}
	if (!s->conn)
		return; /* nobody to tell: the sandbox is being killed */
	send_output(s, st->id, buf, (size_t)n);
	if (s->conn && conn_out_pending(s->conn) > OUT_HIGH)
		pause_output(s, true);
}

void
session_output_drained(struct session *s, size_t pending)
{
	if (s->paused && pending < OUT_LOW)
		pause_output(s, false);
}

static void
stdin_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;
	int n = evbuffer_write(s->stdin_buf, fd);

	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		/* The command closed its stdin: drop what it will never read. */
		evbuffer_drain(s->stdin_buf, evbuffer_get_length(s->stdin_buf));
		stdin_close_fd(s);
		return;
	}
	if (evbuffer_get_length(s->stdin_buf) == 0) {
		event_del(s->stdin_ev);
		if (s->stdin_eof && !s->tty)
			stdin_close_fd(s);
	}
	if (s->conn && evbuffer_get_length(s->stdin_buf) < STDIN_HIGH / 2)
		conn_pause_read(s->conn, false);
}

int
session_stdin(struct session *s, const uint8_t *data, size_t len)
{
	if (!s->streaming || s->stdin_eof)
		return -EINVAL;
	if (s->stdin_fd < 0)
		return 0; /* command closed stdin: discard like a pipe would */
	if (evbuffer_add(s->stdin_buf, data, len) < 0)
		return -ENOMEM;
	event_add(s->stdin_ev, NULL);
	if (evbuffer_get_length(s->stdin_buf) > STDIN_HIGH && s->conn)
		conn_pause_read(s->conn, true);
	return 0;
}

int
session_stdin_close(struct session *s)
{
	if (!s->streaming)
		return -EINVAL;
	if (s->stdin_eof)
		return 0;
	s->stdin_eof = true;
	if (s->stdin_fd < 0)
		return 0;
	if (s->tty) {
		/* A terminal has no close short of hang-up: send EOF (^D). */
		static const uint8_t eot = 4;

		evbuffer_add(s->stdin_buf, &eot, 1);
		event_add(s->stdin_ev, NULL);
	} else if (evbuffer_get_length(s->stdin_buf) == 0)
		stdin_close_fd(s);
	return 0;
}

int
session_signal(struct session *s, int sig)
{
	int r;

	if (s->exited)
		return -ESRCH;
	r = sandbox_signal(&s->proc, sig);
	if (r == -EAGAIN && (!s->pending_sig || sig == SIGKILL))
		s->pending_sig = sig; /* delivered when it has started */
	return r == -EAGAIN ? 0 : r;
}

int
session_resize(struct session *s, unsigned rows, unsigned cols)
{
	struct winsize ws = { .ws_row = (unsigned short)rows,
			      .ws_col = (unsigned short)cols };

	/* With fd passing the client owns the pty master and resizes it. */
	if (!s->tty || !s->streaming || s->stdin_fd < 0)
		return 0;
	return ioctl(s->stdin_fd, TIOCSWINSZ, &ws) < 0 ? -errno : 0;
}

static void
read_status(struct session *s)
{
	struct sandbox_status rec;
	int fds[2], nfds, i, r;

	while ((r = sandbox_status_read(s->proc.status_fd, &rec, fds,
					&nfds)) != -EAGAIN) {
		if (r <= 0) {
			/* End of records (or a broken channel): stop watching. */
			if (s->status_ev)
				event_del(s->status_ev);
			return;
		}
		if (rec.kind == SANDBOX_STATUS_STARTED) {
			if (nfds == 1)
				session_started(s, fds[0]);
			else
				for (i = 0; i < nfds; i++)
					close(fds[i]);
			continue;
		}
		if (rec.kind == SANDBOX_STATUS_DENIALS) {
			session_denials(s, fds, nfds);
			continue;
		}
		if (rec.kind == SANDBOX_STATUS_LISTENERS) {
			session_proxy_listeners(s, fds, nfds);
			continue;
		}
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		switch (rec.kind) {
		case SANDBOX_STATUS_SETUP_FAILED:
			s->setup_failed = true;
			s->setup = rec;
			break;
		case SANDBOX_STATUS_EXEC_FAILED:
			s->exec_fail = rec;
			break;
		case SANDBOX_STATUS_EXITED:
			s->got_status = true;
			s->exit = rec;
			break;
		}
	}
}

/* A syscall the sandbox refused (the filter's user notification), or a
 * change to a protected path the supervisor refused: it has been
 * answered EPERM; here it becomes a violation. */
static void
session_syscall_denied(struct session *s, const struct sandbox_denial *d)
{
	char target[128], access[32];
	struct violation v;
	struct fsdenial f;
	bool write;

	if (!d->operation) {
		syscall_deny_describe(d->syscall, d->args, &v, target,
				      sizeof(target));
		session_violation(s, &v);
		return;
	}
	write = !strcmp(d->operation, "write") ||
		!strcmp(d->operation, "remove");
	snprintf(access, sizeof(access), "fs.%s", d->operation);
	fsdenial_describe(s->policy, policy_store_home(), s->workspace,
			  write ? VIOLATION_FS_WRITE : VIOLATION_FS_CREATE,
			  access, d->path, &f, &v);
	if (d->detail[0])
		v.detail = d->detail;
	session_violation(s, &v);
}

/* A Landlock denial from the kernel's audit records: the session whose
 * command made the domain, if it is still known. */
void
session_audit_denied(const struct sandbox_audit_denial *d, void *arg)
{
	struct session *s;
	struct fsdenial f;
	struct violation v;

	for (s = sessions; s; s = s->next)
		if (d->session ? s->id == d->session :
				 s->proc.cmd_pid == d->creator)
			break;
	if (!s)
		return;
	fsdenial_describe(s->policy, policy_store_home(), s->workspace,
			  d->kind, d->access, d->target, &f, &v);
	session_violation(s, &v);
}

/* Reads the supervisor's reports (never blocks): one per wake-up, or all
 * that are queued (drain). */
static void
read_denials(struct session *s, bool drain)
{
	struct sandbox_denial d;
	int r;

	do {
		r = sandbox_denial_read(s->deny_fd, &d);
		if (r == 0)
			session_syscall_denied(s, &d);
		else if (r != -EAGAIN && r != -EINTR && r != -ENOENT)
			event_del(s->deny_ev); /* the supervisor is gone */
	} while (drain && r == 0);
}

static void
deny_cb(evutil_socket_t fd, short what, void *arg)
{
	read_denials(arg, false);
}

static void
session_denials(struct session *s, int *fds, int nfds)
{
	int fd = sandbox_proc_denials(&s->proc, fds, nfds);

	if (fd < 0)
		return;
	if (s->deny_fd >= 0) {
		close(fd);
		return;
	}
	s->deny_fd = fd;
	fcntl(s->deny_fd, F_SETFL, O_NONBLOCK);
	s->deny_ev = event_new(sbxd.base, s->deny_fd, EV_READ | EV_PERSIST,
			       deny_cb, s);
	if (s->deny_ev)
		event_add(s->deny_ev, NULL);
}

static void
status_cb(evutil_socket_t fd, short what, void *arg)
{
	read_status(arg);
}

/* Every audit record of the sandbox is in: the exit status can go. */
static void
audit_done(void *arg)
{
	struct session *s = arg;

	s->audit_wait = false;
	session_maybe_finish(s);
}

static void
mark_exited(struct session *s)
{
	if (s->exited)
		return;
	s->exited = true;
	s->end_ms = sbxd_now_ms();
	/* The supervisor reports a refusal before answering it: whatever
	 * the command was refused is queued by now. */
	if (s->deny_ev && s->deny_fd >= 0)
		read_denials(s, true);
	/* The kernel queued the command's Landlock denials before it
	 * exited; they are delivered asynchronously. */
	if (sandbox_audit_watched(&s->proc) &&
	    sandbox_audit_barrier(audit_done, s) == 0)
		s->audit_wait = true;
	read_status(s);
	if (s->status_ev)
		event_del(s->status_ev);
	if (s->timeout_ev)
		event_del(s->timeout_ev);
	session_maybe_finish(s);
}

/* The session init is gone (exit records, if any, are already queued). */
static void
pid_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	event_del(s->pid_ev);
	sandbox_reap(&s->proc);
	mark_exited(s);
}

/* The spawn helper is gone: it either handed over a session init or
 * reported why it could not. */
static void
helper_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	event_del(s->helper_ev);
	sandbox_reap_helper(&s->proc);
	read_status(s);
	if (s->proc.pidfd < 0)
		mark_exited(s);
}

static void
send_started(struct session *s)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunStarted rs = SBX__RUN_STARTED__INIT;

	if (!s->conn)
		return;
	rs.session_id = s->id;
	rs.pid = s->proc.pid;
	env.msg_case = SBX__ENVELOPE__MSG_RUN_STARTED;
	env.run_started = &rs;
	conn_send(s->conn, &env);
}

/* A spawn through a template handed over its session init. */
static void
session_started(struct session *s, int pidfd)
{
	if (sandbox_proc_started(&s->proc, pidfd) < 0)
		return;
	s->pid_ev = event_new(sbxd.base, s->proc.pidfd, EV_READ, pid_cb, s);
	if (!s->pid_ev || event_add(s->pid_ev, NULL) < 0) {
		sandbox_signal(&s->proc, SIGKILL);
		return;
	}
	if (s->pending_sig)
		sandbox_signal(&s->proc, s->pending_sig);
	send_started(s);
}

static void
timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	s->timed_out = true;
	session_signal(s, SIGKILL);
}

static void
send_exit(struct session *s)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	const struct policy_rules *w;
	char msg[256] = "", **writable = NULL;
	size_t i, n = 0;

	es.session_id = s->id;
	if (s->got_status && WIFEXITED(s->exit.value)) {
		es.exited = true;
		es.code = WEXITSTATUS(s->exit.value);
	} else if (s->got_status && WIFSIGNALED(s->exit.value)) {
		es.signal = WTERMSIG(s->exit.value);
		es.core_dumped = WCOREDUMP(s->exit.value) != 0;
	} else {
		/* The session init itself was killed (timeout, kill, client
		 * gone): SIGKILL is the only signal that does that. */
		es.signal = SIGKILL;
	}
	if (s->exec_fail.kind) {
		snprintf(msg, sizeof(msg), "%s: %s", s->argv[0],
			 s->exec_fail.value == ENOENT ? "command not found" :
			 strerror(s->exec_fail.value));
		es.exec_error = msg;
	}
	es.timed_out = s->timed_out;
	es.wall_us = (s->end_ms - s->start_ms) * 1000u;
	es.user_us = s->exit.utime_us;
	es.sys_us = s->exit.stime_us;
	es.max_rss_kb = s->exit.maxrss_kb;
	violation_log_summary(s->vlog, &es);
	es.fs_unobserved = !sandbox_audit_watched(&s->proc);
	/* As the filesystem plan has them: the workspace, allowWrite, the
	 * private /tmp. */
	w = s->policy ? &s->policy->lists[POLICY_ALLOW_WRITE] : NULL;
	writable = calloc((w ? w->n : 0) + 2, sizeof(*writable));
	if (writable) {
		writable[n++] = s->workspace;
		for (i = 0; w && i < w->n; i++)
			if (strcmp(w->v[i].value, s->workspace))
				writable[n++] = w->v[i].value;
		writable[n++] = (char *)"/tmp";
		es.writable = writable;
		es.n_writable = n;
	}
	env.msg_case = SBX__ENVELOPE__MSG_EXIT_STATUS;
	env.exit_status = &es;
	conn_send(s->conn, &env);
	free(writable);
}

static void
session_maybe_finish(struct session *s)
{
	int i;

	if (!s->exited || s->audit_wait)
		return;
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fd >= 0)
			return;
	if (event_pending(s->free_ev, EV_TIMEOUT, NULL))
		return;
	events_flush(s->vlog, s->id, s->conn);
	if (s->conn && s->setup_failed)
		conn_error(s->conn, SBX__ERROR_CODE__ERROR_CODE_SANDBOX,
			   "sandbox setup failed at %s: %s",
			   sandbox_step_name(s->setup.step),
			   strerror(s->setup.value));
	else if (s->conn)
		send_exit(s);
	if (s->setup_failed)
		log_warn("session %llu: sandbox setup failed at %s: %s",
			 (unsigned long long)s->id,
			 sandbox_step_name(s->setup.step),
			 strerror(s->setup.value));
	event_add(s->free_ev, &(struct timeval){ 0, 0 });
}

void
session_client_gone(struct session *s)
{
	/* The whole sandbox goes with its client: SIGKILL to init kills
	 * every process of the pid namespace. */
	s->conn = NULL;
	if (s->proxy)
		proxy_client_gone(s->proxy);
	if (!s->exited)
		session_signal(s, SIGKILL);
}

void
session_approval(struct session *s, const Sbx__ApprovalDecision *d)
{
	if (s->proxy)
		proxy_approval(s->proxy, d);
}

/* Does the policy let this client variable through? With env lists in the
 * policy they decide (deny first, then pass, else dropped); without, the
 * built-in secret scrub does. */
static bool
env_passes(const struct policy *p, const char *entry)
{
	struct policy_decision d;
	char name[256];
	size_t n = strcspn(entry, "=");

	if (!strncmp(entry, "TMPDIR=", 7) || !strncmp(entry, "SBX_", 4))
		return false;
	if (n >= sizeof(name))
		return false;
	memcpy(name, entry, n);
	name[n] = '\0';
	/* A policy with an env.pass list decides (deny first, then pass,
	 * else dropped); without one, the built-in secret scrub and any
	 * env.deny rules do. */
	if (p && p->lists[POLICY_ENV_PASS].n)
		return policy_explain_env(p, name, &d) == 0 &&
		       d.verdict == POLICY_VERDICT_ALLOW;
	if (!envfilter_pass(entry))
		return false;
	return !p || !p->lists[POLICY_ENV_DENY].n ||
	       (policy_explain_env(p, name, &d) == 0 && d.rule == NULL);
}

/* Environment for the command: the client's, scrubbed by policy, the
 * variables set explicitly for this run (-e), what tells a tool it runs
 * sandboxed, and where its proxy is (pe holds those). */
static char **
build_env(const Sbx__RunRequest *req, const struct policy *p, uint64_t id,
	  struct proxy_env *pe)
{
	char **env, **all;
	size_t i, n = 0;
	int r;

	/* The proxy's variables continue or replace the client's, whether
	 * they come from its environment or from -e (set_env, later). */
	all = calloc(req->n_env + req->n_set_env + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < req->n_env; i++)
		all[i] = req->env[i];
	for (i = 0; i < req->n_set_env; i++)
		all[req->n_env + i] = req->set_env[i];
	r = proxy_env_build(all, req->n_env + req->n_set_env, pe);
	free(all);
	if (r < 0)
		return NULL;
	env = calloc(req->n_env + req->n_set_env + pe->n + 4, sizeof(*env));
	if (!env) {
		proxy_env_free(pe);
		return NULL;
	}
	for (i = 0; i < req->n_env; i++)
		if (env_passes(p, req->env[i]) &&
		    !proxy_env_replaces(pe, req->env[i]))
			env[n++] = req->env[i];
	/* Asked for by name on this run's command line: the user's call. */
	for (i = 0; i < req->n_set_env; i++)
		if (strncmp(req->set_env[i], "TMPDIR=", 7) &&
		    strncmp(req->set_env[i], "SBX_", 4) &&
		    !proxy_env_replaces(pe, req->set_env[i]))
			env[n++] = req->set_env[i];
	for (i = 0; i < pe->n; i++)
		env[n++] = (char *)pe->v[i];
	env[n++] = (char *)"TMPDIR=/tmp";
	env[n++] = (char *)"SBX_SANDBOX=1";
	if (asprintf(&env[n], "SBX_SESSION=%llu", (unsigned long long)id) < 0) {
		free(env);
		proxy_env_free(pe);
		return NULL;
	}
	return env;
}

static void
free_env(char **env, const Sbx__RunRequest *req)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		if (!strncmp(env[i], "SBX_SESSION=", 12))
			free(env[i]);
	free(env);
}

/* Streaming mode: pipes (or a pty) whose far ends become the stdio. */
static int
make_streams(struct session *s, const Sbx__RunRequest *req, int child[3])
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, i, m;

	if (req->tty) {
		struct winsize ws = { 24, 80, 0, 0 };
		int slave;

		m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
		    (slave = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
			if (m >= 0)
				close(m);
			return -errno;
		}
		if (req->winsize && req->winsize->rows && req->winsize->cols) {
			ws.ws_row = (unsigned short)req->winsize->rows;
			ws.ws_col = (unsigned short)req->winsize->cols;
		}
		ioctl(m, TIOCSWINSZ, &ws);
		child[0] = child[1] = child[2] = slave;
		s->out[0].fd = m;
		s->out[0].id = 1;
		s->nout = 1;
		s->stdin_fd = fcntl(m, F_DUPFD_CLOEXEC, 3);
		fcntl(m, F_SETFL, O_NONBLOCK);
		return s->stdin_fd < 0 ? -errno : 0;
	}
	for (i = 0; i < 3; i++)
		if (pipe2(p[i], O_CLOEXEC) < 0)
			goto fail;
	child[0] = p[0][0];
	child[1] = p[1][1];
	child[2] = p[2][1];
	s->stdin_fd = p[0][1];
	s->out[0].fd = p[1][0];
	s->out[0].id = 1;
	s->out[1].fd = p[2][0];
	s->out[1].id = 2;
	s->nout = 2;
	for (i = 0; i < 3; i++)
		fcntl(i ? p[i][0] : p[0][1], F_SETFL, O_NONBLOCK);
	return 0;
fail:
	m = -errno;
	for (i = 0; i < 3; i++) {
		if (p[i][0] >= 0)
			close(p[i][0]);
		if (p[i][1] >= 0)
			close(p[i][1]);
	}
	return m;
}

static void
close_child_fds(int child[3])
{
	close(child[0]);
	if (child[1] != child[0])
		close(child[1]);
	if (child[2] != child[0] && child[2] != child[1])
		close(child[2]);
}

static int
arm_events(struct session *s, const Sbx__RunRequest *req)
{
	int i;

	if (s->proc.pidfd >= 0) {
		s->pid_ev = event_new(sbxd.base, s->proc.pidfd, EV_READ,
				      pid_cb, s);
		if (!s->pid_ev || event_add(s->pid_ev, NULL) < 0)
			return -ENOMEM;
	}
	if (s->proc.helper_pidfd >= 0) {
		s->helper_ev = event_new(sbxd.base, s->proc.helper_pidfd,
					 EV_READ, helper_cb, s);
		if (!s->helper_ev || event_add(s->helper_ev, NULL) < 0)
			return -ENOMEM;
	}
	s->status_ev = event_new(sbxd.base, s->proc.status_fd,
				 EV_READ | EV_PERSIST, status_cb, s);
	if (!s->status_ev || event_add(s->status_ev, NULL) < 0)
		return -ENOMEM;
	for (i = 0; i < s->nout; i++) {
		s->out[i].s = s;
		s->out[i].ev = event_new(sbxd.base, s->out[i].fd,
					 EV_READ | EV_PERSIST, out_cb, &s->out[i]);
		if (!s->out[i].ev || event_add(s->out[i].ev, NULL) < 0)
			return -ENOMEM;
	}
	if (s->stdin_fd >= 0) {
		s->stdin_buf = evbuffer_new();
		s->stdin_ev = event_new(sbxd.base, s->stdin_fd,
					EV_WRITE | EV_PERSIST, stdin_cb, s);
		if (!s->stdin_buf || !s->stdin_ev)
			return -ENOMEM;
	}
	if (req->timeout_ms) {
		struct timeval tv = { req->timeout_ms / 1000,
				      (req->timeout_ms % 1000) * 1000 };

		s->timeout_ev = evtimer_new(sbxd.base, timeout_cb, s);
		if (!s->timeout_ev || evtimer_add(s->timeout_ev, &tv) < 0)
			return -ENOMEM;
	}
	return 0;
}

static struct session *
session_alloc(const Sbx__RunRequest *req)
{
	struct session *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	s->proc.pidfd = s->proc.status_fd = s->stdin_fd = -1;
	s->proc.helper_pidfd = -1;
	s->deny_fd = -1;
	s->out[0].fd = s->out[1].fd = -1;
	s->id = next_id++;
	s->vlog = violation_log_new(sbxd_now_ms());
	s->tty = req->tty;
	s->streaming = req->io_mode == SBX__IO_MODE__IO_MODE_STREAMING;
	s->argv = calloc(req->n_argv + 1, sizeof(*s->argv));
	s->workspace = strdup(req->workspace);
	s->free_ev = event_new(sbxd.base, -1, 0, session_free_cb, s);
	if (!s->argv || !s->workspace || !s->free_ev || !s->vlog)
		goto fail;
	for (i = 0; i < req->n_argv; i++)
		if (!(s->argv[i] = strdup(req->argv[i])))
			goto fail;
	return s;
fail:
	for (i = 0; s->argv && s->argv[i]; i++)
		free(s->argv[i]);
	free(s->argv);
	free(s->workspace);
	if (s->free_ev)
		event_free(s->free_ev);
	violation_log_free(s->vlog);
	free(s);
	return NULL;
}

static int
spawn(struct session *s, const Sbx__RunRequest *req,
      const struct policy *request, int child[3], char *err, size_t errlen)
{
	struct sandbox_request sr = { 0 };
	struct sandbox_plan *plan = NULL;
	struct fsplan *fs = NULL;
	struct proxy_env pe;
	char tmpdir[PATH_MAX];
	char **env;
	int r;

	r = workspace_tmpdir(req->workspace, tmpdir, sizeof(tmpdir));
	if (r < 0) {
		snprintf(err, errlen, "private temp dir: %s", strerror(-r));
		return r;
	}
	r = policy_store_effective(req->workspace, request, &s->policy, err,
				   errlen);
	if (r < 0)
		return r;
	if ((r = fsplan_build(s->policy, req->workspace, &fs)) < 0) {
		snprintf(err, errlen, "filesystem plan: %s", strerror(-r));
		return r;
	}
	env = build_env(req, s->policy, s->id, &pe);
	if (!env) {
		fsplan_free(fs);
		return -ENOMEM;
	}
	sr.fs = fs;
	sr.argv = s->argv;
	sr.envp = env;
	sr.cwd = req->cwd;
	sr.workspace = req->workspace;
	sr.tmpdir = tmpdir;
	sr.tty = req->tty;
	sr.umask = req->umask;
	sr.proxy = true;
	memcpy(sr.stdio, child, sizeof(sr.stdio));
	r = sandbox_plan_new(&sr, &plan, err, errlen);
	free_env(env, req);
	proxy_env_free(&pe);
	if (r < 0) {
		fsplan_free(fs);
		return r;
	}
	s->start_ms = sbxd_now_ms();
	s->start_unix_ms = (uint64_t)time(NULL) * 1000u;
	r = sandbox_spawn(plan, &s->proc);
	sandbox_plan_free(plan);
	fsplan_free(fs);
	if (r < 0)
		snprintf(err, errlen, "cannot start the sandbox: %s",
			 strerror(-r));
	return r;
}

int
session_start(struct conn *c, const Sbx__RunRequest *req,
	      const struct policy *request, int *fds, int nfds,
	      Sbx__ErrorCode *code, char *err, size_t errlen)
{
	struct session *s = session_alloc(req);
	int child[3], r, i;

	*code = SBX__ERROR_CODE__ERROR_CODE_SANDBOX;
	if (!s) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (s->streaming)
		r = make_streams(s, req, child);
	else {
		r = 0;
		for (i = 0; i < 3; i++)
			child[i] = fds[nfds == 1 ? 0 : i];
	}
	if (r < 0) {
		snprintf(err, errlen, "stdio: %s", strerror(-r));
		goto fail;
	}
	r = spawn(s, req, request, child, err, errlen);
	close_child_fds(child);
	if (r < 0)
		goto fail;
	s->next = sessions;
	sessions = s;
	nsessions++;
	if ((r = arm_events(s, req)) < 0) {
		/* Cannot watch it: do not leave it running unobserved (the
		 * release below kills a helper still starting it). */
		sandbox_signal(&s->proc, SIGKILL);
		snprintf(err, errlen, "out of memory");
		s->exited = true;
		event_add(s->free_ev, &(struct timeval){ 0, 0 });
		return r;
	}
	s->conn = c;
	c->session = s;
	if (s->proc.pidfd >= 0)
		send_started(s);
	log_info("session %llu: %s (pid %d, uid %u)", (unsigned long long)s->id,
		 s->argv[0], (int)s->proc.pid, (unsigned)c->uid);
	return 0;
fail:
	s->exited = true;
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fd >= 0)
			close(s->out[i].fd);
	s->nout = 0;
	if (s->stdin_fd >= 0)
		close(s->stdin_fd);
	s->stdin_fd = -1;
	s->next = sessions;
	sessions = s;
	nsessions++;
	event_add(s->free_ev, &(struct timeval){ 0, 0 });
	return r;
}

struct session *
session_find(uint64_t id)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->id == id && !s->exited)
			return s;
	return NULL;
}

struct session *
session_first(void)
{
	return sessions;
}

struct session *
session_next(const struct session *s)
{
	return s->next;
}

void
session_describe(const struct session *s, Sbx__SessionInfo *info)
{
	size_t n = 0;

	while (s->argv[n])
		n++;
	info->id = s->id;
	info->pid = s->proc.pid;
	info->argv = s->argv;
	info->n_argv = n;
	info->workspace = s->workspace;
	info->started_unix_ms = s->start_unix_ms;
	info->tty = s->tty;
	info->io_mode = s->streaming ? SBX__IO_MODE__IO_MODE_STREAMING :
				       SBX__IO_MODE__IO_MODE_FD_PASSING;
}

const struct policy *
session_policy(const struct session *s)
{
	return s->policy;
}

bool
session_live(const struct session *s)
{
	return !s->exited;
}

unsigned
session_count(void)
{
	return nsessions;
}

static struct event *kill_timer;

static void
shutdown_kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (!s->exited) {
			log_warn("session %llu ignored SIGTERM: killing",
				 (unsigned long long)s->id);
			sandbox_signal(&s->proc, SIGKILL);
		}
	if (arg == kill_timer)
		kill_timer = NULL;
	if (arg)
		event_free(arg);
}

void
session_shutdown_all(unsigned grace_ms)
{
	struct timeval tv = { grace_ms / 1000, (grace_ms % 1000) * 1000 };
	struct event *ev;
	struct session *s;

	for (s = sessions; s; s = s->next) {
		if (s->exited)
			continue;
		if (s->conn)
			conn_error(s->conn, SBX__ERROR_CODE__ERROR_CODE_SHUTDOWN,
				   "sbxd is shutting down: stopping the command");
		sandbox_signal(&s->proc, SIGTERM);
	}
	if (nsessions == 0) {
		sbxd_sessions_drained();
		return;
	}
	ev = evtimer_new(sbxd.base, shutdown_kill_cb, NULL);
	if (!ev) {
		shutdown_kill_cb(-1, 0, NULL);
		return;
	}
	event_assign(ev, sbxd.base, -1, 0, shutdown_kill_cb, ev);
	kill_timer = ev;
	evtimer_add(ev, &tv);
}

void
session_cleanup(void)
{
	if (kill_timer)
		event_free(kill_timer);
	kill_timer = NULL;
}
