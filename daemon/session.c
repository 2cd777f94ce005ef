/* Sessions: spawning a request into a sandbox, relaying signals, timing
 * out, reporting denials and how it ended (its streams: session-io.c; its
 * proxy: session-proxy.c). A session is freed only from its deferred free
 * event. */
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/fsplan-cache.h"
#include "daemon/home-overlay.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/log.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/env.h"
#include "daemon/proxy/proxy.h"
#include "daemon/runenv.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/session-int.h"
#include "daemon/violation.h"
#include "daemon/workspace.h"

static struct session *sessions;
static unsigned nsessions;
static uint64_t next_id = 1;
static void (*drained_cb)(void);

static void mark_exited(struct session *s);

void
session_on_drained(void (*cb)(void))
{
	drained_cb = cb;
}

static void
on_drained(void)
{
	if (drained_cb)
		drained_cb();
}

/* Every source's denials end here: counted, rate-limited, delivered. */
void
session_violation(void *arg, const struct violation *v)
{
	struct session *s = arg;

	events_report(s->vlog, s->id, s->conn, v);
}

static void session_started(struct session *s, int pidfd);

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
	/* Its network namespace serves again only after a clean end: the
	 * init reported the exit once nothing else of the sandbox ran. */
	if (s->got_status && proxy_netns_listener(s->proxy) >= 0)
		sandbox_net_recycle(&s->proc, proxy_netns_listener(s->proxy));
	proxy_free(s->proxy);
	sandbox_audit_cancel(s);
	violation_log_free(s->vlog);
	session_io_close(s);
	if (s->conn) {
		s->conn->session = NULL;
		s->conn->session_over = true;
	}
	if (s->pid_ev)
		event_free(s->pid_ev);
	if (s->deny_ev)
		event_free(s->deny_ev);
	if (s->deny_fd >= 0)
		close(s->deny_fd);
	if (s->status_ev)
		event_free(s->status_ev);
	if (s->timeout_ev)
		event_free(s->timeout_ev);
	if (s->oom_ev)
		event_free(s->oom_ev);
	if (s->oom_timer)
		event_free(s->oom_timer);
	event_free(s->free_ev);
	if (s->stdin_buf)
		evbuffer_free(s->stdin_buf);
	sandbox_proc_release(&s->proc);
	for (i = 0; s->argv && s->argv[i]; i++)
		free(s->argv[i]);
	free(s->argv);
	free(s->workspace);
	policy_free(s->policy);
	fsplan_list_free(&s->writable);
	free(s);
	if (sbxd.stopping && nsessions == 0)
		on_drained();
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

static void
read_status(struct session *s)
{
	struct sandbox_status rec;
	int fds[SANDBOX_STATUS_MAXFDS], nfds, i, r;

	while ((r = sandbox_status_read(s->proc.status_fd, &rec, fds,
					&nfds)) != -EAGAIN) {
		if (r <= 0) {
			/* End of records (or a broken channel): stop watching.
			 * Before a session init was handed over, it also means
			 * none will be: the sandbox failed to start. */
			if (s->status_ev)
				event_del(s->status_ev);
			if (s->proc.pidfd < 0)
				mark_exited(s);
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

/* A Landlock denial from the kernel's audit records: the session whose
 * command made the domain, if it is still known. */
void
session_audit_denied(const struct sandbox_audit_denial *d, void *arg)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (d->session ? s->id == d->session :
				 s->proc.cmd_pid == d->creator)
			break;
	if (s)
		session_fs_denied(s, d->kind, d->access, d->target);
}

static void
status_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	read_status(s);
	/* The init reports the exit once the rest of the sandbox is gone:
	 * the session is over then, unless the init is our own child and
	 * still has to be reaped (its pidfd says when). */
	if (s->got_status && !s->proc.own_child)
		mark_exited(s);
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
		session_read_denials(s, true);
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
	session_limits_end(s);
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
	char msg[256] = "";

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
	session_limits_exit(s, &es);
	violation_log_summary(s->vlog, &es);
	es.fs_unobserved = !sandbox_audit_watched(&s->proc);
	es.writable = s->writable.v;
	es.n_writable = s->writable.n;
	env.msg_case = SBX__ENVELOPE__MSG_EXIT_STATUS;
	env.exit_status = &es;
	conn_send(s->conn, &env);
}

void
session_maybe_finish(struct session *s)
{
	const char *why;
	int i;

	if (!s->exited || s->audit_wait)
		return;
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fd >= 0)
			return;
	if (event_pending(s->free_ev, EV_TIMEOUT, NULL))
		return;
	events_flush(s->vlog, s->id, s->conn);
	why = s->setup_failed ? sandbox_setup_problem(&s->proc) : NULL;
	if (s->setup_failed && !why)
		why = strerror(s->setup.value);
	if (s->conn && s->setup_failed)
		conn_error(s->conn, SBX__ERROR_CODE__ERROR_CODE_SANDBOX,
			   "sandbox setup failed at %s: %s",
			   sandbox_step_name(s->setup.step), why);
	else if (s->conn)
		send_exit(s);
	if (s->conn)
		conn_flush(s->conn);
	if (s->setup_failed)
		log_warn("session %llu: sandbox setup failed at %s: %s",
			 (unsigned long long)s->id,
			 sandbox_step_name(s->setup.step), why);
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
	/* Not started yet (its job waits for a template's build): hanging
	 * up the status channel kills the sandbox as it is made, before its
	 * command, which a SIGKILL held back until it has started races. */
	if (!s->exited && s->proc.pidfd < 0 && s->proc.status_fd >= 0)
		shutdown(s->proc.status_fd, SHUT_RDWR);
	if (!s->exited)
		session_signal(s, SIGKILL);
}

void
session_approval(struct session *s, const Sbx__ApprovalDecision *d)
{
	if (s->proxy)
		proxy_approval(s->proxy, d);
}

static int
arm_events(struct session *s, const Sbx__RunRequest *req)
{
	if (s->proc.pidfd >= 0) {
		s->pid_ev = event_new(sbxd.base, s->proc.pidfd, EV_READ,
				      pid_cb, s);
		if (!s->pid_ev || event_add(s->pid_ev, NULL) < 0)
			return -ENOMEM;
	}
	s->status_ev = event_new(sbxd.base, s->proc.status_fd,
				 EV_READ | EV_PERSIST, status_cb, s);
	if (!s->status_ev || event_add(s->status_ev, NULL) < 0)
		return -ENOMEM;
	if (session_io_arm(s) < 0 || session_limits_arm(s) < 0)
		return -ENOMEM;
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
	s->proc.notify_fd = -1;
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

/* The run's filesystem plan (the cache's: valid during this spawn) and,
 * when it overlays the home, the layers of the workspace's home overlay
 * (layers: PATH_MAX bytes). */
static int
plan_fs(struct session *s, const char *ws, const struct fsplan **fs,
	char *layers, char *err, size_t errlen)
{
	int r;

	if ((r = fsplan_cache_get(s->policy, ws, sandbox_caps()->home_overlay ?
				  policy_store_home() : NULL, fs)) < 0) {
		snprintf(err, errlen, "filesystem plan: %s", strerror(-r));
		return r;
	}
	if (fsplan_home(*fs) &&
	    (r = home_overlay_prepare(ws, fsplan_home(*fs), layers,
				      PATH_MAX)) < 0) {
		snprintf(err, errlen, "home overlay layers in %s: %s (or set "
			 "filesystem.home to \"read-only\")", sbxd.statedir,
			 strerror(-r));
		return r;
	}
	return 0;
}

static int
spawn(struct session *s, const Sbx__RunRequest *req,
      const struct policy *request, int child[3], char *err, size_t errlen)
{
	enum sandbox_net net = sandbox_caps()->net;
	uint16_t ports[2] = { SANDBOX_HTTP_PROXY_PORT,
			      SANDBOX_SOCKS_PROXY_PORT };
	struct sandbox_request sr = { 0 };
	struct sandbox_plan *plan = NULL;
	const struct fsplan *fs = NULL;
	struct proxy_env pe;
	size_t i;
	char tmpdir[PATH_MAX], vartmp[PATH_MAX], layers[PATH_MAX];
	char **env;
	int r, tmp_fd = -1, vartmp_fd = -1;

	/* Edits made before this request are seen (and watched from now). */
	policy_watch_workspace(req->workspace);
	r = policy_store_effective(req->workspace, request, &s->policy, err,
				   errlen);
	if (r < 0)
		return r;
	if (net == SANDBOX_NET_HOST_PORTS &&
	    (r = session_loopback_proxy(s, ports)) < 0) {
		snprintf(err, errlen, "cannot listen for the proxy on "
			 "127.0.0.1");
		return r;
	}
	if ((r = plan_fs(s, req->workspace, &fs, layers, err, errlen)) < 0)
		return r;
	/* Opened here and mounted from that fd: the path is for messages. */
	r = workspace_tmpdir(req->workspace, tmpdir, sizeof(tmpdir), &tmp_fd);
	/* /var/tmp too, where sandboxes have mounts of their own. */
	if (r == 0 && sandbox_caps()->namespaces[0] &&
	    (r = workspace_vartmpdir(req->workspace, vartmp, sizeof(vartmp),
				     &vartmp_fd)) < 0)
		close(tmp_fd);
	if (r < 0) {
		snprintf(err, errlen, "private temp dir: %s", strerror(-r));
		return r;
	}
	/* /tmp is the sandbox's own, except where there are no mounts. */
	env = runenv_build(req, s->policy, s->id,
			   sandbox_caps()->landlock_only ? tmpdir : "/tmp",
			   net == SANDBOX_NET_NONE ? NULL : ports, &pe);
	if (!env) {
		close(tmp_fd);
		if (vartmp_fd >= 0)
			close(vartmp_fd);
		return -ENOMEM;
	}
	sr.fs = fs;
	sr.argv = s->argv;
	sr.envp = env;
	sr.cwd = req->cwd;
	sr.workspace = req->workspace;
	sr.tmpdir = tmpdir;
	sr.tmp_fd = tmp_fd;
	sr.vartmpdir = vartmp_fd >= 0 ? vartmp : NULL;
	sr.vartmp_fd = vartmp_fd;
	sr.home_layers = fsplan_home(fs) ? layers : NULL;
	sr.tty = req->tty;
	sr.umask = req->umask;
	sr.proxy = net == SANDBOX_NET_NAMESPACE;
	session_limits_resolve(s->policy, &sr.limits);
	if (sandbox_caps()->cgroups[0])
		session_limits_text(s->policy, s->limits_text,
				    sizeof(s->limits_text));
	if (net == SANDBOX_NET_HOST_PORTS)
		memcpy(sr.proxy_ports, ports, sizeof(sr.proxy_ports));
	memcpy(sr.stdio, child, sizeof(sr.stdio));
	r = sandbox_plan_new(&sr, &plan, err, errlen);
	close(tmp_fd);
	if (vartmp_fd >= 0)
		close(vartmp_fd);
	runenv_free(env);
	proxy_env_free(&pe);
	if (r < 0)
		return r;
	s->start_ms = sbxd_now_ms();
	s->start_unix_ms = (uint64_t)time(NULL) * 1000u;
	r = sandbox_spawn(plan, &s->proc);
	sandbox_plan_free(plan);
	/* What a failed run's note lists as writable: the plan's trees and
	 * the temp dir (the home overlay is described by `describe`). */
	for (i = 0; r == 0 && i < fs->l[FSPLAN_WRITE].n; i++)
		if (fsplan_append(&s->writable, fs->l[FSPLAN_WRITE].v[i]) < 0)
			r = -ENOMEM;
	if (r == 0 && fsplan_push(&s->writable, sandbox_caps()->landlock_only ?
				  tmpdir : "/tmp") < 0)
		r = -ENOMEM;
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
		r = session_io_make(s, req, child);
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
	session_io_close_child(child);
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
session_describe(struct session *s, Sbx__SessionInfo *info)
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
	session_limits_describe(s, info);
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
		on_drained();
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
	fsplan_cache_clear();
}
