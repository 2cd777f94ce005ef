/* Violation events on their way out: rate limit, the session's client,
 * subscribers, and the log with the journal's structured fields. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/log.h"

/* A subscriber list entry; the connection is borrowed (conn.c calls
 * events_unsubscribe before freeing it). */
struct sub {
	struct conn *c;
	uint64_t session_id;	/* 0: all */
	uint64_t req;		/* the Subscribe's request id */
	struct sub *next;
};

static struct sub *subs;
static unsigned nsubs;

static uint64_t
now_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* "SBX_KIND=fs-write"; cut values are fine for a log. */
static void
field(char *buf, size_t len, const char *name, const char *value)
{
	snprintf(buf, len, "%s=%s", name, value);
}

static void
log_event(const Sbx__ViolationEvent *ev)
{
	char session[32], kind[32], target[VIOLATION_TEXT_MAX + 16];
	char rule[VIOLATION_TEXT_MAX + 16], id[VIOLATION_TEXT_MAX + 16];
	char layer[32], supp[32];
	const char *fields[] = { session, kind, target, rule, id, layer,
				 ev->suppressed ? supp : NULL, NULL };

	snprintf(session, sizeof(session), "SBX_SESSION=%llu",
		 (unsigned long long)ev->session_id);
	field(kind, sizeof(kind), "SBX_KIND", ev->kind);
	field(target, sizeof(target), "SBX_TARGET", ev->target);
	field(rule, sizeof(rule), "SBX_RULE", ev->rule);
	field(id, sizeof(id), "SBX_RULE_ID", ev->rule_id);
	field(layer, sizeof(layer), "SBX_LAYER", ev->layer);
	snprintf(supp, sizeof(supp), "SBX_SUPPRESSED=%u", ev->suppressed);
	if (ev->suppressed)
		log_fields(LOG_NOTICE, fields, "session %llu: %u more "
			   "violations suppressed (last: %s %s)",
			   (unsigned long long)ev->session_id, ev->suppressed,
			   ev->kind, ev->target);
	else
		log_fields(LOG_NOTICE, fields, "session %llu: blocked %s %s "
			   "(%s%s%s)", (unsigned long long)ev->session_id,
			   ev->kind, ev->target, ev->rule,
			   ev->rule_id[0] ? " id " : "", ev->rule_id);
}

static void
send_event(struct conn *client, uint64_t req, Sbx__ViolationEvent *ev)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	struct sub *s;

	ev->time_unix_ms = now_unix_ms();
	env.msg_case = SBX__ENVELOPE__MSG_VIOLATION;
	env.violation = ev;
	if (client)
		conn_send_id(client, req, &env);
	/* A subscriber that falls too far behind is dropped by conn_send,
	 * which only marks it dead: the list stays intact here. */
	for (s = subs; s; s = s->next)
		if (!s->session_id || s->session_id == ev->session_id)
			conn_send_id(s->c, s->req, &env);
	log_event(ev);
}

void
events_report(struct violation_log *l, uint64_t session_id,
	      struct conn *client, uint64_t req, const struct violation *v)
{
	Sbx__ViolationEvent held = SBX__VIOLATION_EVENT__INIT;
	Sbx__ViolationEvent ev = SBX__VIOLATION_EVENT__INIT;
	int send = violation_log_add(l, v, session_id, sbxd_now_ms(), &held);

	if (send & VIOLATION_SEND_HELD)
		send_event(client, req, &held);
	if (send & VIOLATION_SEND_THIS) {
		violation_event(v, session_id, 0, &ev);
		send_event(client, req, &ev);
	}
}

void
events_flush(struct violation_log *l, uint64_t session_id,
	     struct conn *client, uint64_t req)
{
	Sbx__ViolationEvent held = SBX__VIOLATION_EVENT__INIT;

	if (violation_log_flush(l, &held))
		send_event(client, req, &held);
}

int
events_subscribe(struct conn *c, uint64_t session_id, uint64_t req)
{
	struct sub *s;

	if (events_subscribed(c, &req))
		return -EALREADY;
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	s->c = c;
	s->session_id = session_id;
	s->req = req;
	s->next = subs;
	subs = s;
	nsubs++;
	return 0;
}

bool
events_subscribed(const struct conn *c, const uint64_t *req)
{
	const struct sub *s;

	for (s = subs; s; s = s->next)
		if (s->c == c && (!req || s->req == *req))
			return true;
	return false;
}

void
events_unsubscribe(struct conn *c)
{
	struct sub **pp, *s;

	for (pp = &subs; (s = *pp);)
		if (s->c == c) {
			*pp = s->next;
			free(s);
			nsubs--;
		} else
			pp = &s->next;
}

void
events_policy_changed(const char *what)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__PolicyChanged pc = SBX__POLICY_CHANGED__INIT;
	struct sub *s;

	pc.time_unix_ms = now_unix_ms();
	pc.what = (char *)what;
	env.msg_case = SBX__ENVELOPE__MSG_POLICY_CHANGED;
	env.policy_changed = &pc;
	/* Not about one session: a subscriber following one does not get
	 * it (its --count stays a count of that session's denials). */
	for (s = subs; s; s = s->next)
		if (!s->session_id)
			conn_send_id(s->c, s->req, &env);
}

