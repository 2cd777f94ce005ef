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
	uint64_t req;		/* the Subscribe's request id */
	struct events_want w;
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
		if (!s->w.session_id || s->w.session_id == ev->session_id)
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

/* An Event of kind (one of the oneof's cases, msg its message) to the
 * subscribers that asked for want and follow session_id (0: about no
 * session, for those that follow all). */
static void
send_lifecycle(Sbx__EventKind want, uint64_t session_id,
	       Sbx__Event__KindCase kind, const void *msg)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Event ev = SBX__EVENT__INIT;
	struct sub *s;

	ev.time_unix_ms = now_unix_ms();
	ev.kind_case = kind;
	switch (kind) {
	case SBX__EVENT__KIND_SESSION_STARTED:
		ev.session_started = (Sbx__SessionStarted *)msg;
		break;
	case SBX__EVENT__KIND_SESSION_EXITED:
		ev.session_exited = (Sbx__ExitStatus *)msg;
		break;
	case SBX__EVENT__KIND_APPROVAL_ASKED:
		ev.approval_asked = (Sbx__ApprovalRequest *)msg;
		break;
	case SBX__EVENT__KIND_APPROVAL_ANSWERED:
		ev.approval_answered = (Sbx__ApprovalAnswered *)msg;
		break;
	case SBX__EVENT__KIND_SANDBOX_CREATED:
		ev.sandbox_created = (Sbx__SandboxInfo *)msg;
		break;
	case SBX__EVENT__KIND_SANDBOX_ENDED:
		ev.sandbox_ended = (Sbx__SandboxEnded *)msg;
		break;
	case SBX__EVENT__KIND_FORWARDED:
		ev.forwarded = (Sbx__Forwarded *)msg;
		break;
	default:
		ev.policy_changed = (Sbx__PolicyChanged *)msg;
		break;
	}
	env.msg_case = SBX__ENVELOPE__MSG_EVENT;
	env.event = &ev;
	for (s = subs; s; s = s->next)
		if ((s->w.kinds & (1u << want)) && (!s->w.session_id ||
		    s->w.session_id == session_id))
			conn_send_id(s->c, s->req, &env);
}

int
events_subscribe(struct conn *c, uint64_t req, const struct events_want *w)
{
	struct sub *s;

	if (events_subscribed(c, &req))
		return -EALREADY;
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	s->c = c;
	s->w = *w;
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
	 * it (its --count stays a count of that session's denials). One
	 * that asked for lifecycle events gets it as one of them. */
	for (s = subs; s; s = s->next)
		if (!s->w.session_id && !s->w.kinds)
			conn_send_id(s->c, s->req, &env);
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_POLICY, 0,
		       SBX__EVENT__KIND_POLICY_CHANGED, &pc);
}

bool
events_approver(const struct conn *c, uint64_t req)
{
	const struct sub *s;

	for (s = subs; s; s = s->next)
		if (s->c == c && s->req == req && s->w.approver)
			return true;
	return false;
}

unsigned
events_approval_asked(uint64_t session_id, const Sbx__Envelope *env)
{
	struct sub *s;
	unsigned n = 0;

	for (s = subs; s; s = s->next)
		if (s->w.approver && !s->c->dead && (!s->w.session_id ||
		    s->w.session_id == session_id) &&
		    conn_send_id(s->c, s->req, env) == 0)
			n++;
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_APPROVALS, session_id,
		       SBX__EVENT__KIND_APPROVAL_ASKED, env->approval_request);
	return n;
}

void
events_approval_answered(Sbx__ApprovalAnswered *a, struct conn *client,
			 uint64_t client_req, const struct conn *by,
			 uint64_t by_req)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	struct sub *s;

	env.msg_case = SBX__ENVELOPE__MSG_APPROVAL_ANSWERED;
	env.approval_answered = a;
	if (client) {
		a->mine = client == by && client_req == by_req;
		conn_send_id(client, client_req, &env);
	}
	for (s = subs; s; s = s->next)
		if (s->w.approver && (!s->w.session_id ||
		    s->w.session_id == a->session_id)) {
			a->mine = s->c == by && s->req == by_req;
			conn_send_id(s->c, s->req, &env);
		}
	a->mine = false;
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_APPROVALS, a->session_id,
		       SBX__EVENT__KIND_APPROVAL_ANSWERED, a);
}

void
events_session_started(const Sbx__SessionStarted *st)
{
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_SESSIONS, st->session_id,
		       SBX__EVENT__KIND_SESSION_STARTED, st);
}

void
events_session_exited(const Sbx__ExitStatus *es)
{
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_SESSIONS, es->session_id,
		       SBX__EVENT__KIND_SESSION_EXITED, es);
}

void
events_sandbox_created(const Sbx__SandboxInfo *info)
{
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_SANDBOXES, 0,
		       SBX__EVENT__KIND_SANDBOX_CREATED, info);
}

void
events_sandbox_ended(const Sbx__SandboxEnded *e)
{
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_SANDBOXES, 0,
		       SBX__EVENT__KIND_SANDBOX_ENDED, e);
}

void
events_forwarded(const Sbx__Forwarded *f)
{
	send_lifecycle(SBX__EVENT_KIND__EVENT_KIND_SESSIONS, f->session_id,
		       SBX__EVENT__KIND_FORWARDED, f);
}

void
events_output(uint64_t session_id, const Sbx__Envelope *env)
{
	struct sub *s;

	/* A mirror that falls behind is dropped like any slow subscriber
	 * (conn_send): it never slows the session's own client. */
	for (s = subs; s; s = s->next)
		if (s->w.mirror == session_id)
			conn_send_id(s->c, s->req, env);
}

