/* Sessions: one sandboxed command each, from spawn to exit status. The
 * session list owns them; a session outlives its client if the client
 * leaves first (until the sandbox is reaped). */
#ifndef SBX_SESSION_H
#define SBX_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

struct conn;
struct policy;
struct session;

/* Session ids: never one of an earlier daemon's (a counter whose blocks
 * are reserved in a file of the state dir, session-ids). */
int session_id_init(const char *statedir);
uint64_t session_id_next(void);
/* The file's text: a decimal number, a newline. Pure; -EINVAL. */
int session_id_parse(const char *buf, size_t len, uint64_t *out);

/* Validated request -> running sandbox, a session of c's request c->req.
 * request is the run's request
 * policy layer (borrowed; NULL: none). fds are the client's stdio (fd
 * passing) and are consumed either way. On failure returns -errno with
 * *code and err set for the client; -EINPROGRESS: the request is held
 * until its credentials' commands are in, then dispatched again
 * (conn_hold), and nothing is to be answered now. */
int session_start(struct conn *c, const Sbx__RunRequest *req,
		  const struct policy *request, int *fds, int nfds,
		  Sbx__ErrorCode *code, char *err, size_t errlen);

void session_client_gone(struct session *s);
/* The session of c's run or attach req, or NULL. */
struct session *session_of(const struct conn *c, uint64_t req);
/* c's sessions: how many; c is gone (each as session_client_gone); c's
 * output queue shrank to pending; c half-closed (end of their stdin). */
unsigned session_conn_count(const struct conn *c);
void session_conn_gone(struct conn *c);
void session_conn_drained(struct conn *c, size_t pending);
void session_conn_eof(struct conn *c);
/* c's run took its command credentials' results, or its request, held
 * for them, was dispatched again and not held anew (whatever came of
 * it): the results are wiped, and a later request of c, even under the
 * same id, runs the commands again (session-cred.c). */
void session_cred_done(struct conn *c);
/* Attach: s goes to c's request c->req; Attached, the ring, stdin credit
 * (credit: the client asked for it), and the end if it has come, are
 * sent. -EBUSY: another client has it. */
int session_attach(struct session *s, struct conn *c, bool credit);
/* sig to the processes target names (Sbx__SignalTarget). */
int session_signal_to(struct session *s, int sig, int target);
/* The session's client or an approver (by, its request by_req) answered
 * an approval request of this session's proxy: 0, or -ENOENT when the
 * session has no pending request of that id. */
int session_approval(struct session *s, const Sbx__ApprovalDecision *d,
		     const struct conn *by, uint64_t by_req);
/* The same for whichever session asked (an approver's answer). */
int session_approval_any(const Sbx__ApprovalDecision *d,
			 const struct conn *by, uint64_t by_req);
void session_output_drained(struct session *s, size_t pending);
int session_stdin(struct session *s, const uint8_t *data, size_t len);
int session_stdin_close(struct session *s);
int session_signal(struct session *s, int sig);
int session_resize(struct session *s, unsigned rows, unsigned cols);

/* A running session by id. */
struct session *session_find(uint64_t id);
/* The same, or one that has ended and still waits to be attached. */
struct session *session_find_any(uint64_t id);
struct session *session_first(void);
struct session *session_next(const struct session *s);
/* Fills info with pointers borrowed from s (valid until s changes). */
void session_describe(struct session *s, Sbx__SessionInfo *info);
unsigned session_count(void);
/* A sandbox_audit_fn: a Landlock denial reported by the kernel, for the
 * session whose command made the domain (arg unused). */
struct sandbox_audit_denial;
void session_audit_denied(const struct sandbox_audit_denial *d, void *arg);
/* The session's workspace (absolute); owned by s. */
/* The home layer of s's workspace: bytes used and the limit in force
 * (its file system's size, else limits.home; 0: none). */
void session_home_usage(const struct session *s, uint64_t *used,
			uint64_t *limit);
const char *session_workspace(const struct session *s);
/* The effective policy this session runs under (NULL before spawn). */
const struct policy *session_policy(const struct session *s);
/* The limits' defaults, sized from this machine (policy/limits.h). */
struct policy_limit_defaults;
void session_limit_defaults(struct policy_limit_defaults *d);
/* "memory 2 GiB, pids 512, cpu weight 50" under eff (NULL: defaults). */
void session_limits_text(const struct policy *eff, char *buf, size_t n);
/* False once the sandbox has exited (the session may linger briefly). */
bool session_live(const struct session *s);

/* Daemon shutdown: SIGTERM every sandbox now, SIGKILL after grace_ms. */
void session_shutdown_all(unsigned grace_ms);
/* cb runs when the last session is gone while sbxd.stopping (main.c
 * registers it at start-up: flush and leave the loop). */
void session_on_drained(void (*cb)(void));
/* Frees what shutdown left armed (before the event base goes). */
void session_cleanup(void);

#endif
