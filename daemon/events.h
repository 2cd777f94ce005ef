/* Where violation events go once a source has described a denial: the
 * session's rate limit first, then the session's client, the subscribers
 * (`sbxctl events`), and the log (the journal, with structured fields). */
#ifndef SBX_EVENTS_H
#define SBX_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/violation.h"
#include "proto/wire.h"

struct conn;

/*
 * One denial of session session_id, counted in its log l and, unless the
 * rate limit holds it back, sent to client (may be NULL; as frames of its
 * request req) and the subscribers, and logged.
 */
void events_report(struct violation_log *l, uint64_t session_id,
		   struct conn *client, uint64_t req,
		   const struct violation *v);
/* The session ends: what the rate limit still holds goes out as one
 * "N more suppressed" event. */
void events_flush(struct violation_log *l, uint64_t session_id,
		  struct conn *client, uint64_t req);

/* What a subscription asks for besides violations (Subscribe). */
struct events_want {
	uint64_t session_id;	/* 0: all sessions */
	bool approver;		/* gets ApprovalRequests, may answer */
	unsigned kinds;		/* 1u << SBX__EVENT_KIND__*: lifecycle */
	uint64_t mirror;	/* a session whose output it copies, or 0 */
};

/* c receives the events w asks for, as frames of its request req, until
 * it closes. -EALREADY if it subscribed with that req already, -ENOMEM. */
int events_subscribe(struct conn *c, uint64_t req,
		     const struct events_want *w);
/* Is (c, req) an approver's subscription? */
bool events_approver(const struct conn *c, uint64_t req);

/* An ApprovalRequest of session_id (env) for the approvers and the
 * subscribers of approval events; returns how many approvers got it. */
unsigned events_approval_asked(uint64_t session_id, const Sbx__Envelope *env);
/* It was settled (a): told to the session's client (may be NULL) and the
 * approvers, with `mine` for the connection and id that answered
 * (by, by_req), and to the subscribers of approval events. */
void events_approval_answered(Sbx__ApprovalAnswered *a,
			      struct conn *client, uint64_t client_req,
			      const struct conn *by, uint64_t by_req);
/* Lifecycle: a session started, a session's end (its exit status). */
void events_session_started(const Sbx__SessionStarted *st);
void events_session_exited(const Sbx__ExitStatus *es);
/* A long-lived sandbox made, and ended (with why), to the subscribers of
 * EVENT_KIND_SANDBOXES. */
void events_sandbox_created(const Sbx__SandboxInfo *info);
void events_sandbox_ended(const Sbx__SandboxEnded *e);
/* A host service or published port relayed a connection (for
 * EVENT_KIND_SESSIONS subscribers). */
void events_forwarded(const Sbx__Forwarded *f);
/* A copy of session_id's output (env, OutputData) for its mirrors. */
void events_output(uint64_t session_id, const Sbx__Envelope *env);
/* c has a subscription (with request id req when req is not NULL). */
bool events_subscribed(const struct conn *c, const uint64_t *req);
/* c is going away (conn.c); a no-op for a connection that never
 * subscribed. */
void events_unsubscribe(struct conn *c);
/* A policy layer changed (what: "org policy", a file): told to the
 * subscribers of every session and logged. */
void events_policy_changed(const char *what);

#endif
