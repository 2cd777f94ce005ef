/* Sessions: spawning a request into a sandbox, relaying signals, timing
 * out, reporting denials (its streams: session-io.c; its proxy:
 * session-proxy.c; how it ended: session-exit.c). A session is freed only from its deferred free
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
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/fsplan-cache.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/reqrule.h"
#include "daemon/home-diverted.h"
#include "daemon/home-overlay.h"
#include "daemon/policy/store.h"
#include "daemon/policy/syscall-deny.h"
#include "daemon/policy/watch.h"
#include "daemon/log.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/cred.h"
#include "daemon/proxy/env.h"
#include "daemon/proxy/proxy.h"
#include "daemon/proxy/tls.h"
#include "daemon/runenv.h"
#include "daemon/sandbox.h"
#include "daemon/sbox.h"
#include "daemon/session.h"
#include "daemon/ws-tmp.h"
#include "daemon/session-int.h"
#include "daemon/usercred.h"
#include "daemon/violation.h"
#include "daemon/workspace.h"
#include "proto/blocked.h"

/* Signal grace after a timeout's SIGTERM, unless the request sets one. */
#define KILL_GRACE_MS 5000
/* How long a kept session waits for an Attach, unless the request says. */
#define DETACH_GRACE_MS 60000
#define DETACH_GRACE_MAX (7u * 86400 * 1000)

static void mark_exited(struct session *s);

/* Every source's denials end here: counted, rate-limited, delivered. */
void
session_violation(void *arg, const struct violation *v)
{
	struct session *s = arg, *t;

	/* A long-lived sandbox's: for the command that runs in it now. */
	if (s->sbox_holder && (t = sbox_client(s->sbox_id)))
		s = t;
	/* Without a network namespace the daemon sees these refusals; in
	 * one the init counts what the namespace could not route. */
	if (sandbox_caps()->net == SANDBOX_NET_HOST_PORTS &&
	    syscall_deny_direct_net(v) && s->direct_refused < UINT32_MAX)
		s->direct_refused++;
	events_report(s->vlog, s->id, s->conn, s->req, v);
}

static void session_started(struct session *s, int pidfd);

static void
session_free_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;
	int i;

	session_list_remove(s);
	/* Its network namespace serves again only after a clean end: the
	 * init reported the exit once nothing else of the sandbox ran. */
	if (s->got_status && proxy_netns_listener(s->proxy) >= 0)
		sandbox_net_recycle(&s->proc, proxy_netns_listener(s->proxy));
	proxy_free(s->proxy);
	session_forward_free(s);
	cred_set_free(s->creds);
	sandbox_audit_cancel(s);
	violation_log_free(s->vlog);
	session_io_close(s);
	session_ring_free(s);
	if (s->conn)
		conn_op_ended(s->conn, s->req);
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
	if (s->grace_ev)
		event_free(s->grace_ev);
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
	if (s->tmp_held)
		ws_tmp_release(s->workspace);
	free(s->workspace);
	free(s->cwd);
	free(s->home_layers);
	free(s->home);
	policy_free(s->policy);
	fsplan_list_free(&s->writable);
	runenv_names_free(s->env_withheld);
	free(s);
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
session_signal_to(struct session *s, int sig, int target)
{
	if (s->exited)
		return -ESRCH;
	/* What ^C does: the pty's foreground process group, which only
	 * the holder of the master names (with fd passing the client does,
	 * and the command's group is the nearest we have). */
	if (target == SBX__SIGNAL_TARGET__SIGNAL_TARGET_FOREGROUND &&
	    s->tty && s->streaming && s->stdin_fd >= 0)
		return ioctl(s->stdin_fd, TIOCSIG, sig) < 0 ? -errno : 0;
	if (target == SBX__SIGNAL_TARGET__SIGNAL_TARGET_SESSION &&
	    s->proc.pidfd >= 0)
		return sandbox_signal_all(&s->proc, sig);
	return session_signal(s, sig);
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
			/* A long-lived sandbox's command: its job server
			 * reports the exit, or the sandbox is gone. */
			if (s->proc.pidfd < 0 || s->proc.exec_job)
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
			session_proxy_listeners(s, fds, nfds,
						(unsigned)rec.value);
			continue;
		}
		if (rec.kind == SANDBOX_STATUS_HOST_LISTENERS) {
			session_host_listeners(s, fds, nfds);
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
	struct session *h;

	if (s->exited)
		return;
	/* A command of a long-lived sandbox: what it was refused is queued
	 * on its sandbox's channel, and read while it still goes to it. */
	if (s->sbox_id && !s->sbox_holder && (h = sbox_holder(s->sbox_id)) &&
	    h->deny_ev && h->deny_fd >= 0)
		session_read_denials(h, true);
	s->exited = true;
	s->end_ms = sbxd_now_ms();
	if (s->sbox_id)
		sbox_session_ended(s->sbox_id, s->sbox_holder);
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
	session_forward_end(s);
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

void
session_send_started(struct session *s)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunStarted rs = SBX__RUN_STARTED__INIT;
	Sbx__SessionStarted st = SBX__SESSION_STARTED__INIT;

	st.session_id = s->id;
	st.pid = s->proc.pid;
	st.argv = s->argv;
	for (st.n_argv = 0; s->argv[st.n_argv]; st.n_argv++)
		;
	st.cwd = s->cwd;
	st.workspace = s->workspace;
	st.client_name = s->client;
	st.tty = s->tty;
	events_session_started(&st);
	if (!s->conn)
		return;
	rs.session_id = s->id;
	rs.pid = s->proc.pid;
	env.msg_case = SBX__ENVELOPE__MSG_RUN_STARTED;
	env.run_started = &rs;
	conn_send_id(s->conn, s->req, &env);
}

/* A spawn through a template handed over its session init. */
static void
session_started(struct session *s, int pidfd)
{
	if (sandbox_proc_started(&s->proc, pidfd) < 0)
		return;
	/* A long-lived sandbox's command ends with its EXITED record:
	 * its pid goes before the record does. */
	if (s->proc.exec_job) {
		if (s->pending_sig)
			sandbox_signal(&s->proc, s->pending_sig);
		session_send_started(s);
		return;
	}
	s->pid_ev = event_new(sbxd.base, s->proc.pidfd, EV_READ, pid_cb, s);
	if (!s->pid_ev || event_add(s->pid_ev, NULL) < 0) {
		sandbox_signal(&s->proc, SIGKILL);
		return;
	}
	if (s->pending_sig)
		sandbox_signal(&s->proc, s->pending_sig);
	session_send_started(s);
}

/* The command's time is up: SIGTERM to it, as a person would stop it,
 * and SIGKILL to the whole sandbox once the grace has passed too. */
static void
timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;
	struct timeval tv = { s->kill_grace_ms / 1000,
			      (s->kill_grace_ms % 1000) * 1000 };

	s->timed_out = true;
	if (s->term_sent || session_signal(s, SIGTERM) < 0 ||
	    evtimer_add(s->timeout_ev, &tv) < 0)
		session_signal(s, SIGKILL);
	s->term_sent = true;
}

void
session_maybe_finish(struct session *s)
{
	int i;

	if (!s->exited || s->audit_wait || s->finished)
		return;
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fd >= 0)
			return;
	/* A kept session whose client hung up before its end (the hangup
	 * not read here yet) ends detached, as if it had been read first:
	 * its end waits for an Attach (or the grace). */
	if (s->keep && s->conn && !sbxd.stopping && conn_hung_up(s->conn))
		session_client_gone(s);
	if (!s->conn && s->grace_ev && event_pending(s->grace_ev, EV_TIMEOUT,
						     NULL))
		return;
	s->finished = true;
	session_send_end(s);
	if (s->setup_failed)
		log_warn("session %llu: sandbox setup failed at %s: %s",
			 (unsigned long long)s->id,
			 sandbox_step_name(s->setup.step), session_setup_problem(s));
	event_add(s->free_ev, &(struct timeval){ 0, 0 });
}

void
session_client_gone(struct session *s)
{
	if (s->proxy)
		proxy_client_gone(s->proxy);
	/* Kept, unless the daemon is stopping: nobody could attach. */
	if (s->keep && !s->finished && !sbxd.stopping) {
		session_detach(s);
		return;
	}
	/* The whole sandbox goes with its client: SIGKILL to init kills
	 * every process of the pid namespace. */
	s->conn = NULL;
	/* Not started yet (its job waits for a template's build): hanging
	 * up the status channel kills the sandbox as it is made, before its
	 * command, which a SIGKILL held back until it has started races. */
	if (!s->exited && s->proc.pidfd < 0 && s->proc.status_fd >= 0)
		shutdown(s->proc.status_fd, SHUT_RDWR);
	if (!s->exited)
		session_signal(s, SIGKILL);
}

int
session_arm(struct session *s, const Sbx__RunRequest *req)
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

		s->kill_grace_ms = req->kill_grace_ms ? req->kill_grace_ms :
				   KILL_GRACE_MS;
		s->timeout_ev = evtimer_new(sbxd.base, timeout_cb, s);
		if (!s->timeout_ev || evtimer_add(s->timeout_ev, &tv) < 0)
			return -ENOMEM;
	}
	return 0;
}

struct session *
session_alloc(const Sbx__RunRequest *req)
{
	struct session *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	s->proc.pidfd = s->proc.status_fd = s->stdin_fd = -1;
	s->proc.notify_fd = s->proc.go_fd = -1;
	s->deny_fd = -1;
	s->out[0].fd = s->out[1].fd = -1;
	s->id = session_id_next();
	s->keep = req->keep_on_disconnect;
	s->grace_ms = !req->detach_grace_ms ? DETACH_GRACE_MS :
		      req->detach_grace_ms > DETACH_GRACE_MAX ?
		      DETACH_GRACE_MAX : req->detach_grace_ms;
	s->vlog = violation_log_new(sbxd_now_ms());
	s->tty = req->tty;
	s->streaming = req->io_mode == SBX__IO_MODE__IO_MODE_STREAMING;
	s->argv = calloc(req->n_argv + 1, sizeof(*s->argv));
	s->workspace = strdup(req->workspace);
	s->cwd = strdup(req->cwd ? req->cwd : "");
	s->free_ev = event_new(sbxd.base, -1, 0, session_free_cb, s);
	if (!s->argv || !s->workspace || !s->cwd || !s->free_ev || !s->vlog)
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
	free(s->cwd);
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

	/* A layer a run left over limits.home, where no file system of
	 * that size holds it: the home is read-only until it is reset. */
	s->home_over = sandbox_caps()->home_overlay &&
		       !sandbox_caps()->home_disk && home_overlay_over(ws);
	if ((r = fsplan_cache_get(s->policy, ws, sandbox_caps()->home_overlay &&
				  !s->home_over ? policy_store_home() : NULL,
				  fs)) < 0) {
		snprintf(err, errlen, "filesystem plan: %s", strerror(-r));
		return r;
	}
	if (fsplan_home(*fs) &&
	    (r = home_overlay_prepare(ws, fsplan_home(*fs),
				      policy_limit_value(s->policy,
					POLICY_LIMIT_HOME,
					sandbox_caps()->home_disk ?
					home_overlay_default_size() : 0),
				      layers, PATH_MAX)) < 0) {
		if (r == -EMLINK)
			snprintf(err, errlen, "home overlay: the home images "
				 "of %u workspaces are mounted, the most sbxd "
				 "--home-disks allows: `sbxctl reset` in one no "
				 "longer used drops its layer and image (or set "
				 "filesystem.home to \"read-only\")",
				 sandbox_caps()->home_disks);
		else
			snprintf(err, errlen, "home overlay layers in %s: %s "
				 "(or set filesystem.home to \"read-only\")",
				 sbxd.statedir, strerror(-r));
		return r;
	}
	return 0;
}

/* Where sandboxes have mounts, /tmp and /var/tmp are the workspace's
 * tmpfs, held for the session (ws-tmp.h); without, /tmp is a directory of
 * the runtime dir the command reaches by its path; on a kernel that cannot
 * clone the tmpfs, directories of the runtime dir mounted there. */
static int
temp_dirs(struct session *s, const char *ws, char tmpdir[PATH_MAX],
	  char vartmp[PATH_MAX], int *tmp_fd, int *vartmp_fd)
{
	uint64_t size;
	int r;

	if (!sandbox_caps()->namespaces[0])
		return workspace_tmpdir(ws, tmpdir, PATH_MAX, tmp_fd);
	/* A kernel that cannot clone the tmpfs: directories, unlimited. */
	if (!sandbox_caps()->private_tmpfs) {
		if ((r = workspace_tmpdir(ws, tmpdir, PATH_MAX, tmp_fd)) == 0 &&
		    (r = workspace_vartmpdir(ws, vartmp, PATH_MAX,
					     vartmp_fd)) < 0)
			close(*tmp_fd);
		return r;
	}
	size = policy_limit_value(s->policy, POLICY_LIMIT_TMP,
				  ws_tmp_default_size());
	if ((r = ws_tmp_acquire(ws, size, tmp_fd, vartmp_fd)) < 0)
		return r;
	s->tmp_held = true;
	strcpy(tmpdir, "/tmp");
	strcpy(vartmp, "/var/tmp");
	return 0;
}

char **
session_env(struct session *s, const Sbx__RunRequest *req,
	    const struct policy *p, const char *tmp, const uint16_t ports[2],
	    const struct cred_set *creds, struct proxy_env *pe)
{
	enum sandbox_net net = sandbox_caps()->net;
	char **env, **cenv;

	env = runenv_build(req, p, s->id, tmp,
			   net == SANDBOX_NET_NONE ? NULL : ports,
			   net == SANDBOX_NET_HOST_PORTS, pe);
	/* The real values stay here: the sandbox gets the sentinels. */
	if (env && creds) {
		if (!(cenv = cred_set_env(creds, env))) {
			runenv_free(env);
			proxy_env_free(pe);
			return NULL;
		}
		env = cenv;
	}
	if (env && !(s->env_withheld = runenv_withheld(req->env, req->n_env,
							 p))) {
		runenv_free(env);
		proxy_env_free(pe);
		env = NULL;
	}
	return env;
}

const struct cred_set *
session_creds(const struct session *s)
{
	return s->creds ? s->creds : s->proxy ? proxy_creds(s->proxy) : NULL;
}

/* s->policy is the run's (session_launch). */
static int
spawn(struct session *s, struct conn *c, const Sbx__RunRequest *req,
      int child[3], char *err, size_t errlen)
{
	struct session_cred_arg ca = { child[2], c };
	enum sandbox_net net = sandbox_caps()->net;
	uint16_t ports[2] = { SANDBOX_HTTP_PROXY_PORT,
			      SANDBOX_SOCKS_PROXY_PORT };
	struct sandbox_request sr = { 0 };
	struct sandbox_plan *plan = NULL;
	const struct fsplan *fs = NULL;
	struct proxy_env pe;
	size_t i;
	char tmpdir[PATH_MAX], vartmp[PATH_MAX], layers[PATH_MAX];
	struct timespec now;
	char **env;
	int r, tmp_fd = -1, vartmp_fd = -1;

	r = cred_set_build(s->policy, req->env, req->n_env, session_cred_read,
			   &ca, &s->creds, err, errlen);
	session_cred_done(c);
	if (r < 0)
		return r;
	if (net == SANDBOX_NET_HOST_PORTS &&
	    (r = session_loopback_proxy(s, ports)) < 0) {
		snprintf(err, errlen, "cannot listen for the proxy on "
			 "127.0.0.1");
		return r;
	}
	if ((r = session_publish_bind(s, req, err, errlen)) < 0 ||
	    (r = session_host_listen(s, &sr, err, errlen)) < 0 ||
	    (r = plan_fs(s, req->workspace, &fs, layers, err, errlen)) < 0)
		return r;
	if (fsplan_home(fs) && (!(s->home_layers = strdup(layers)) ||
				!(s->home = strdup(fsplan_home(fs)))))
		return -ENOMEM;
	if ((r = temp_dirs(s, req->workspace, tmpdir, vartmp, &tmp_fd,
			   &vartmp_fd)) < 0) {
		snprintf(err, errlen, "private temp dir: %s", strerror(-r));
		return r;
	}
	/* /tmp is the sandbox's own, except where there are no mounts. */
	env = session_env(s, req, s->policy, sandbox_caps()->landlock_only ?
			  tmpdir : "/tmp", ports, session_creds(s), &pe);
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
	sr.umask = req->umask || req->umask_set ? req->umask : DEFAULT_UMASK;
	sr.resident = s->sbox_holder;
	if (policy_reqrule_inspects(s->policy)) {
		sr.ca_pem = tls_ca_pem();
		sr.ca_jks = tls_ca_java(&sr.ca_jks_len);
	}
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
	clock_gettime(CLOCK_REALTIME, &now);
	s->start_unix_ms = (uint64_t)now.tv_sec * 1000u +
			   (uint64_t)now.tv_nsec / 1000000u;
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
	struct session *s;

	return session_launch(c, req, request, NULL, false, fds, nfds, code,
			      err, errlen, &s);
}

int
session_launch(struct conn *c, const Sbx__RunRequest *req,
	       const struct policy *request, struct session *holder,
	       bool resident, int *fds, int nfds, Sbx__ErrorCode *code,
	       char *err, size_t errlen, struct session **out)
{
	struct policy *pol = NULL;
	struct session *s;
	int child[3], r, i;

	*code = SBX__ERROR_CODE__ERROR_CODE_SANDBOX;
	if (!holder && (r = session_cred_policy(c, req, request, resident,
					       fds, nfds, &pol, err, errlen)) < 0)
		return r;
	if (!(s = session_alloc(req))) {
		policy_free(pol);
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->policy = pol;
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
	s->sbox_holder = resident;
	r = holder ? session_exec_spawn(s, req, holder, child, err, errlen) :
	    spawn(s, c, req, child, err, errlen);
	session_io_close_child(child);
	if (r < 0)
		goto fail;
	session_list_add(s);
	if ((r = session_arm(s, req)) < 0) {
		/* Cannot watch it: do not leave it running unobserved (the
		 * release below kills a helper still starting it). */
		sandbox_signal(&s->proc, SIGKILL);
		snprintf(err, errlen, "out of memory");
		s->exited = s->finished = true;
		event_add(s->free_ev, &(struct timeval){ 0, 0 });
		return r;
	}
	s->conn = c;
	s->req = c->req;
	memcpy(s->client, c->name, sizeof(s->client));
	s->credit = req->stdin_credit && s->streaming;
	session_stdin_grant(s, true);
	if (s->proc.pidfd >= 0)
		session_send_started(s);
	else if (!holder && !resident)
		/* A warm sandbox queued its start long ago: read now, its
		 * RunStarted leaves in one write with the Hello reply, and
		 * the client wakes once for both, not twice. */
		status_cb(s->proc.status_fd, EV_READ, s);
	log_info("session %llu: %s (pid %d, uid %u)", (unsigned long long)s->id,
		 s->argv[0], (int)s->proc.pid, (unsigned)c->uid);
	*out = s;
	return 0;
fail:
	s->exited = s->finished = true;
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fd >= 0)
			close(s->out[i].fd);
	s->nout = 0;
	if (s->stdin_fd >= 0)
		close(s->stdin_fd);
	s->stdin_fd = -1;
	session_list_add(s);
	event_add(s->free_ev, &(struct timeval){ 0, 0 });
	return r;
}

