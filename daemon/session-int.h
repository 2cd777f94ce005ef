/* What session.c and session-io.c share: the session itself. Not for
 * other files, which go through session.h. */
#ifndef SBX_SESSION_INT_H
#define SBX_SESSION_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/policy/fsplan.h"
#include "daemon/sandbox.h"
#include "daemon/violation.h"
#include "proto/wire.h"

/* The umask of a request that sets none. */
#define DEFAULT_UMASK 022

struct evbuffer;
struct event;
struct proxy;
struct cred_set;

struct stream {
	int fd;
	unsigned id; /* 1 stdout, 2 stderr */
	struct event *ev;
	struct session *s;
};

struct session {
	uint64_t id;
	struct conn *conn;         /* its client, NULL while detached */
	uint64_t req;              /* the client's run or attach request id */
	bool keep;                 /* keep_on_disconnect */
	unsigned grace_ms;         /* how long it waits for an attach */
	unsigned kill_grace_ms;    /* timeout: SIGTERM, this, SIGKILL */
	struct event *grace_ev;    /* detached: ends it when it fires */
	struct evbuffer *ring;     /* kept sessions: the last output */
	size_t ring_len;           /* output bytes in it */
	uint64_t ring_dropped;     /* output bytes it let go */
	struct sandbox_proc proc;
	struct event *pid_ev, *status_ev, *timeout_ev, *free_ev;
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
	bool host_listeners_seen;  /* its one HOST_LISTENERS record came */
	bool term_sent;            /* timeout: SIGTERM went, SIGKILL is next */
	bool credit;               /* the client sends stdin by credit */
	uint64_t stdin_in, stdin_out; /* stdin bytes received, passed on */
	uint64_t stdin_granted;    /* what the client may have sent in all */
	bool finished;             /* the end went to a client, or nobody
				      is left to tell */
	struct sandbox_status setup, exec_fail, exit;
	int pending_sig; /* asked for before the sandbox had started */
	char **argv;
	char *workspace;
	char *cwd;                 /* for lifecycle events */
	char client[64];           /* its starting client's name (events) */
	uint32_t direct_refused; /* direct-network refusals seen (no network
				    namespace: syscall_deny_direct_net) */
	char **env_withheld;	/* names the policy kept from the command,
				   for the exit status (runenv.h) */
	bool tmp_held;             /* holds its workspace's tmpfs (ws-tmp.h) */
	struct fsplan_list writable; /* the plan's, and the temp dir: for
					the exit note */
	char *home_layers, *home;  /* the home overlay's layers and the
				      real home, or NULL: what the run
				      left in the layer is listed */
	struct policy *policy;     /* effective policy of this run */
	struct sandbox_usage usage; /* read from its cgroup at the end */
	char limit_hit[200];       /* which limit it hit, or "" */
	bool home_over;            /* its home is read-only: the layer is
				      over limits.home (home-overlay.h) */
	char limits_text[96];      /* its limits, for ps */
	struct event *oom_ev;      /* the backend says: OOM, kill it all */
	struct event *oom_timer;   /* looks again: the kill is counted late */
	unsigned oom_checks;
	uint64_t start_ms, start_unix_ms, end_ms;
	struct proxy *proxy;   /* serves the sandbox's listeners */
	struct cred_set *creds; /* the run's credentials until its proxy
				   takes them (proxy_credentials) */
	uint64_t sbox_id;      /* the long-lived sandbox (sbox.h) it runs
				  in, or 0 */
	bool sbox_holder;      /* it is that sandbox itself: its command
				  process serves the others (no client) */
	unsigned proxy_refused; /* connections not admitted (logged) */
	struct session_fwd *fwd; /* its published ports (session-forward.c) */
	struct session *next;
};

/* session.c: a session for req (fields as session_alloc copies them),
 * not yet started, and the events of one that has: -ENOMEM. */
struct session *session_alloc(const Sbx__RunRequest *req);
int session_arm(struct session *s, const Sbx__RunRequest *req);
/* A new session of c's request, spawned as a sandbox of its own (holder
 * NULL; resident: a long-lived sandbox's holder, with no client) or
 * started in holder's long-lived sandbox. As session_start. */
int session_launch(struct conn *c, const Sbx__RunRequest *req,
		   const struct policy *request, struct session *holder,
		   bool resident, int *fds, int nfds, Sbx__ErrorCode *code,
		   char *err, size_t errlen, struct session **out);

/* The command's environment under policy p (proxy_env_free(pe) and
 * runenv_free it), and the names p withheld in s->env_withheld; each
 * variable of creds (or NULL) holds its sentinel. NULL: out of memory. */
struct proxy_env;
char **session_env(struct session *s, const Sbx__RunRequest *req,
		   const struct policy *p, const char *tmp,
		   const uint16_t ports[2], const struct cred_set *creds,
		   struct proxy_env *pe);
/* The credentials of the sandbox s runs (its own, or its proxy's). */
const struct cred_set *session_creds(const struct session *s);

/* session-exec.c: the command of s, started in holder's sandbox (with
 * the holder's policy, proxy and /tmp). As spawn: err says why. */
int session_exec_spawn(struct session *s, const Sbx__RunRequest *req,
		       struct session *holder, int child[3], char *err,
		       size_t errlen);

/* session.c: sends the exit status once the command and its streams are
 * done, then frees the session (a detached kept session stays until it is
 * attached or its grace ends). */
void session_maybe_finish(struct session *s);
/* The exit status (or the setup failure) for its client. */
void session_send_end(struct session *s);
/* Why its sandbox could not be set up (session-exit.c). */
const char *session_setup_problem(struct session *s);
void session_send_started(struct session *s);

/* session-list.c: the list of sessions, which owns them. */
void session_list_add(struct session *s);
/* Unlinks s; the last one gone while stopping calls the drained hook. */
void session_list_remove(struct session *s);

/* session-attach.c: output kept for a later Attach, in a ring. */
#define SESSION_RING_MAX (1u << 20)
void session_ring_add(struct session *s, unsigned stream, const uint8_t *buf,
		      size_t n);
/* The client left a kept session: it waits grace_ms for an Attach. */
void session_detach(struct session *s);
void session_ring_free(struct session *s);
/* Output frames, for the client or the ring. */
void session_output(struct session *s, unsigned stream, const uint8_t *buf,
		    size_t n);
/* Counted, rate-limited and delivered (arg: the session). */
void session_violation(void *arg, const struct violation *v);

/* session-limits.c: the run's limits and what it used. */
void session_limits_resolve(const struct policy *eff,
			    struct sandbox_limits *out);
/* Watches for an OOM kill the kernel did not extend to the whole
 * sandbox; 0 or -ENOMEM. */
int session_limits_arm(struct session *s);
void session_limits_end(struct session *s);
void session_limits_exit(const struct session *s, Sbx__ExitStatus *es);
void session_limits_describe(struct session *s, Sbx__SessionInfo *info);

/* session-proxy.c: serves the listeners the sandbox made in its network
 * namespace (closes them when the session has a proxy already). */
void session_proxy_listeners(struct session *s, int *fds, int nfds,
			     unsigned which);
/* Host loopback listeners made before the spawn (no network namespace):
 * their ports in ports[2]; -EADDRNOTAVAIL when none could be made. */
int session_loopback_proxy(struct session *s, uint16_t ports[2]);
/* May a connection accepted on one of its host ports be served (arg: the
 * session)? Only the served user's; others are logged. */
bool session_admit(void *arg, int fd);

/* session-forward.c: host services (network.hostServices) and published
 * ports (RunRequest.publish), served by the session's proxy. */
#define SESSION_PUBLISH_MAX 16
/* The host services' addresses into sr->listen: 0, or -E2BIG (err). */
int session_host_listen(struct session *s, struct sandbox_request *sr,
			char *err, size_t errlen);
/* The sandbox listens at them (its HOST_LISTENERS record's fds). */
void session_host_listeners(struct session *s, int *fds, int nfds);
/* Listens on the host for req->publish, before the spawn: 0, or -errno
 * with err (a bad spec, a port in use). */
int session_publish_bind(struct session *s, const Sbx__RunRequest *req,
			 char *err, size_t errlen);
/* Its published ports as "ADDR:HOSTPORT:SANDBOXPORT" (*texts: the
 * session's, valid until it ends): how many. */
size_t session_published(const struct session *s, char ***texts);
/* The session's proxy exists: it serves the published ports. */
void session_forward_attach(struct session *s);
/* Its command ended: the forwards close (the ports free for the next
 * run); free: what is left of them goes. */
void session_forward_end(struct session *s);
void session_forward_free(struct session *s);

/* session-deny.c */
void session_fs_denied(struct session *s, int kind, const char *access,
		       const char *target);
/* The sandbox's refusals channel (fds from its DENIALS record). */
void session_denials(struct session *s, int *fds, int nfds);
/* One refusal per call, or all that are queued (drain). */
void session_read_denials(struct session *s, bool drain);

/* session-io.c. Streaming mode: pipes (or a pty) whose far ends, child,
 * become the command's stdio. */
int session_io_make(struct session *s, const Sbx__RunRequest *req,
		    int child[3]);
/* Watches the session's ends of them. -ENOMEM. */
int session_io_arm(struct session *s);
/* Closes the session's ends. */
void session_io_close(struct session *s);
/* Closes the child's ends (once the sandbox has them). */
void session_io_close_child(int child[3]);
/* Stdin credit for the client, as the command has read (all: whatever
 * is due now, else only once it is worth a frame). */
void session_stdin_grant(struct session *s, bool all);

struct conn;
struct policy;
struct policy_cred;
/* What session_cred_read takes as its arg: the run's stderr (or -1), and
 * the connection whose wait holds its command credentials' results. */
struct session_cred_arg {
	int fd;
	struct conn *c;
};
/* cred_read_fn (proxy/cred.h): a file credential read with the user's
 * rights, a command's result taken from c's wait (session_cred_wait); a
 * skipped one said in the log and on the run's stderr (session-cred.c). */
int session_cred_read(const struct policy_cred *pc, char *const *env,
    size_t nenv, char *buf, size_t size, void *arg);
/*
 * The effective policy of c's run req (request: its request layer), once
 * its command credentials are in: until then the request is held and
 * dispatched again when they are (conn_hold), and -EINPROGRESS is
 * returned with the client's fds gone with it (a long-lived sandbox's
 * own, resident, closed). Else -errno with err set and the fds closed.
 */
int session_cred_policy(struct conn *c, const Sbx__RunRequest *req,
    const struct policy *request, bool resident, int *fds, int nfds,
    struct policy **pol, char *err, size_t errlen);
/* c left: its wait goes, and a command nobody else waits for is killed. */
void session_cred_conn_gone(struct conn *c);

#endif
