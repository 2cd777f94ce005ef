/* Where violation events go once a source has described a denial: the
 * session's rate limit first, then the session's client, the subscribers
 * (`sbxctl events`), and the log (the journal, with structured fields). */
#ifndef SBX_EVENTS_H
#define SBX_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/violation.h"

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

/* c receives the events of session_id (0: all sessions), as frames of its
 * request req, until it closes. -EALREADY if it subscribed with that req
 * already, -ENOMEM. */
int events_subscribe(struct conn *c, uint64_t session_id, uint64_t req);
/* c has a subscription (with request id req when req is not NULL). */
bool events_subscribed(const struct conn *c, const uint64_t *req);
/* c is going away (conn.c); a no-op for a connection that never
 * subscribed. */
void events_unsubscribe(struct conn *c);
/* A policy layer changed (what: "org policy", a file): told to the
 * subscribers of every session and logged. */
void events_policy_changed(const char *what);

#endif
