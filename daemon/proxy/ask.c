/* Approval requests: a connection to a host no rule decides waits for the session's client. */

/*
 * Connections to the same host:port while a request is pending wait on
 * that one request, so a client that opens ten connections at once asks
 * once. A request outlives the connections waiting on it (an answer
 * "for the session" still counts), but not its timeout.
 */
#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/policy/approve.h"
#include "daemon/proxy/int.h"

#define ASK_TIMED_OUT (-1)

struct ask {
	uint64_t id;
	struct proxy *px;
	struct host host;
	uint16_t port;
	struct event *timer;
	struct pconn *waiters;
	struct ask *next;
};

static uint64_t next_id = 1;

static void ask_timeout_cb(evutil_socket_t fd, short what, void *arg);

static int
send_request(struct ask *a, struct pconn *pc)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__ApprovalRequest req = SBX__APPROVAL_REQUEST__INIT;
	char refused[600];
	const char *proto = pc->proto;

	req.request_id = a->id;
	req.session_id = a->px->session_id;
	req.host = a->host.text;
	req.port = a->port;
	req.protocol = (char *)proto;
	req.timeout_ms = proxy_config()->ask_timeout_ms;
	dial_refused(pc, refused, sizeof(refused));
	req.refused = refused;
	env.msg_case = SBX__ENVELOPE__MSG_APPROVAL_REQUEST;
	env.approval_request = &req;
	return a->px->hooks.send(a->px->hooks.arg, &env);
}

static void
ask_free(struct ask *a)
{
	event_free(a->timer);
	free(a);
}

int
ask_start(struct pconn *pc)
{
	struct proxy *px = pc->px;
	unsigned ms = proxy_config()->ask_timeout_ms;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct ask *a;

	for (a = px->asks; a != NULL; a = a->next)
		if (a->port == pc->port && host_equal(&a->host, &pc->host))
			break;
	if (a == NULL) {
		if ((a = calloc(1, sizeof(*a))) == NULL)
			return -ENOMEM;
		a->id = next_id++;
		a->px = px;
		a->host = pc->host;
		a->port = pc->port;
		a->timer = evtimer_new(sbxd.base, ask_timeout_cb, a);
		if (a->timer == NULL || evtimer_add(a->timer, &tv) < 0 ||
		    send_request(a, pc) < 0) {
			if (a->timer != NULL)
				event_free(a->timer);
			free(a);
			return -ENOTCONN;
		}
		a->next = px->asks;
		px->asks = a;
		log_info("session %llu: asking about %s:%u (request %llu)",
		    (unsigned long long)px->session_id, a->host.text, a->port,
		    (unsigned long long)a->id);
	}
	/* The head deadline does not run while a person thinks. */
	pconn_deadline(pc, 0);
	pc->ask = a;
	pc->ask_next = a->waiters;
	a->waiters = pc;
	return 0;
}

void
ask_leave(struct pconn *pc)
{
	struct pconn **pp;

	for (pp = &pc->ask->waiters; *pp != NULL; pp = &(*pp)->ask_next)
		if (*pp == pc) {
			*pp = pc->ask_next;
			break;
		}
	pc->ask = NULL;
	pc->ask_next = NULL;
}

/* "Always": the rule goes into the user's policy file (told to everyone
 * in aa); the session has it from now on either way. */
static void
allow_always(struct ask *a, const struct proxy_answerer *by,
    Sbx__ApprovalAnswered *aa, char *file, size_t filelen, char *id,
    size_t idlen, char *err, size_t errlen)
{
	char domain[HOST_TEXT_MAX + 16], reason[160];

	host_format(&a->host, a->port, domain, sizeof(domain));
	snprintf(reason, sizeof(reason), "approved for always by %s",
	    by != NULL && by->name[0] ? by->name : "a client");
	if (policy_approve_always(domain, reason, file, filelen, id, idlen,
	    err, errlen) < 0) {
		log_warn("session %llu: %s not added to the policy: %s",
		    (unsigned long long)a->px->session_id, domain, err);
		aa->error = err;
		return;
	}
	log_info("session %llu: %s added to %s (rule %s)",
	    (unsigned long long)a->px->session_id, domain, file, id);
	aa->policy_file = file;
	aa->rule_id = id;
}

static const char *
answer_name(int answer)
{
	switch (answer) {
	case ASK_TIMED_OUT:
		return "not answered";
	case SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE:
		return "allowed once";
	case SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION:
		return "allowed for the session";
	case SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SANDBOX:
		return "allowed for the sandbox";
	case SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ALWAYS:
		return "allowed always";
	default:
		return "denied";
	}
}

/* Takes a out of the pending list and answers everyone waiting on it;
 * the session's client and the approvers are told (hooks.answered). */
static void
settle(struct ask *a, int answer, const char *reason,
    const struct proxy_answerer *by)
{
	Sbx__ApprovalAnswered aa = SBX__APPROVAL_ANSWERED__INIT;
	struct proxy *px = a->px;
	struct ask **ap;
	struct pconn *pc, *waiters = a->waiters;
	char file[4200], id[80], err[512];
	int grant = answer;

	for (ap = &px->asks; *ap != NULL; ap = &(*ap)->next)
		if (*ap == a) {
			*ap = a->next;
			break;
		}
	aa.request_id = a->id;
	aa.session_id = px->session_id;
	aa.answer = answer == ASK_TIMED_OUT ?
	    SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_UNSPECIFIED : answer;
	aa.answered_by = by != NULL ? (char *)by->name : (char *)"sbxd";
	aa.answered_by_request = by != NULL ? by->req : 0;
	aa.host = a->host.text;
	aa.port = a->port;
	if (answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ALWAYS)
		allow_always(a, by, &aa, file, sizeof(file), id, sizeof(id),
		    err, sizeof(err));
	/* A run's sandbox is its session: both scopes last as long. */
	if (answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SANDBOX ||
	    answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ALWAYS)
		grant = SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION;
	if (grant == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION &&
	    proxy_rules_grant(px->rules, &a->host, a->port) < 0)
		grant = SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE;
	log_info("session %llu: %s:%u %s%s%s", (unsigned long long)px->session_id,
	    a->host.text, a->port, answer_name(answer),
	    by != NULL && by->name[0] ? " by " : "", by != NULL ? by->name : "");
	if (px->hooks.answered != NULL)
		px->hooks.answered(px->hooks.arg, &aa, by);
	a->waiters = NULL;
	/* Answering one waiter may close others: unlink before calling. */
	while ((pc = waiters) != NULL) {
		waiters = pc->ask_next;
		pc->ask = NULL;
		pc->ask_next = NULL;
		dial_asked(pc, grant, reason);
	}
	ask_free(a);
}

static void
ask_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	settle(arg, ASK_TIMED_OUT, NULL, NULL);
}

int
ask_answer(struct proxy *px, uint64_t id, int answer, const char *reason,
    const struct proxy_answerer *by)
{
	struct ask *a;

	for (a = px->asks; a != NULL; a = a->next)
		if (a->id == id) {
			settle(a, answer, reason, by);
			return 0;
		}
	/* Late (timed out, answered) or unknown: the caller says so. */
	return -ENOENT;
}

void
ask_end_all(struct proxy *px, const char *reason)
{
	struct ask *a;

	while ((a = px->asks) != NULL) {
		if (reason != NULL) {
			settle(a, SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY,
			    reason, NULL);
			continue;
		}
		px->asks = a->next;
		ask_free(a);
	}
}
