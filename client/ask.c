/* Approval prompts of `sbxctl run`: one question at a time on /dev/tty. */

/*
 * The question goes to the controlling terminal, not to stdin or stderr:
 * those may be pipes the command's output goes through, and an agent
 * harness running sbxctl without a terminal must get a prompt answer
 * (deny) rather than a command that hangs until the daemon gives up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/ask.h"

struct pending {
	uint64_t id;
	char *what;		/* "host:port (protocol)" */
	struct timeval deadline;
	struct pending *next;
};

struct ask {
	struct event_base *base;
	enum ask_mode mode;
	struct ask_hooks hooks;
	int tty;		/* -1 until opened, -2: none */
	struct event *read_ev, *timer;
	struct pending *head, **tail;
	bool asking;
	char line[64];
	size_t len;
};

static void next_prompt(struct ask *a);

struct ask *
ask_new(struct event_base *base, enum ask_mode mode,
	const struct ask_hooks *hooks)
{
	struct ask *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->base = base;
	a->mode = mode;
	a->hooks = *hooks;
	a->tty = -1;
	a->tail = &a->head;
	return a;
}

static void
say(struct ask *a, const char *s)
{
	if (a->tty >= 0 && write(a->tty, s, strlen(s)) < 0)
		return;
}

void
ask_decision(Sbx__Envelope *env, Sbx__ApprovalDecision *d, uint64_t id,
	     Sbx__ApprovalAnswer ans, const char *reason)
{
	sbx__envelope__init(env);
	sbx__approval_decision__init(d);
	d->request_id = id;
	d->answer = ans;
	d->reason = (char *)reason;
	env->msg_case = SBX__ENVELOPE__MSG_APPROVAL_DECISION;
	env->approval_decision = d;
}

static void
answer(struct ask *a, uint64_t id, Sbx__ApprovalAnswer ans,
       const char *reason)
{
	Sbx__Envelope env;
	Sbx__ApprovalDecision d;

	ask_decision(&env, &d, id, ans, reason);
	a->hooks.send(a->hooks.arg, &env);
}

static void
pop(struct ask *a)
{
	struct pending *p = a->head;

	a->head = p->next;
	if (!a->head)
		a->tail = &a->head;
	free(p->what);
	free(p);
}

static void
end_prompt(struct ask *a, const char *note)
{
	say(a, note);
	event_del(a->read_ev);
	evtimer_del(a->timer);
	a->asking = false;
	a->len = 0;
	pop(a);
	a->hooks.hold(a->hooks.arg, false);
	next_prompt(a);
}

static Sbx__ApprovalAnswer
parse_answer(const char *s)
{
	while (*s == ' ')
		s++;
	if (!strcasecmp(s, "o") || !strcasecmp(s, "once") ||
	    !strcasecmp(s, "y") || !strcasecmp(s, "yes"))
		return SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE;
	if (!strcasecmp(s, "s") || !strcasecmp(s, "session") ||
	    !strcasecmp(s, "a") || !strcasecmp(s, "always"))
		return SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION;
	return SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY;
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	static const char *const notes[] = {
		[SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE] =
			"sbx: allowed once\r\n",
		[SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION] =
			"sbx: allowed for this session\r\n",
		[SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY] = "sbx: denied\r\n",
	};
	struct ask *a = arg;
	Sbx__ApprovalAnswer ans;
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) == 1) {
		if (c != '\n' && c != '\r') {
			if (a->len < sizeof(a->line) - 1)
				a->line[a->len++] = c;
			continue;
		}
		a->line[a->len] = '\0';
		ans = parse_answer(a->line);
		answer(a, a->head->id, ans, NULL);
		end_prompt(a, notes[ans]);
		return;
	}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		/* The terminal went away: nobody will answer. */
		answer(a, a->head->id,
		       SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY,
		       "the terminal went away");
		end_prompt(a, "");
	}
}

static void
timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	/* The daemon has denied it by now. */
	end_prompt(arg, "\r\nsbx: no answer in time: denied\r\n");
}

static int
open_tty(struct ask *a)
{
	if (a->tty == -1) {
		a->tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC |
			      O_NONBLOCK);
		if (a->tty < 0) {
			a->tty = -2;
			return -1;
		}
		a->read_ev = event_new(a->base, a->tty, EV_READ | EV_PERSIST,
				       read_cb, a);
		a->timer = evtimer_new(a->base, timeout_cb, a);
		if (!a->read_ev || !a->timer)
			return -1;
	}
	return a->tty >= 0 && a->read_ev && a->timer ? 0 : -1;
}

static void
next_prompt(struct ask *a)
{
	struct pending *p = a->head;
	struct timeval now, left = { 0, 0 };
	char msg[512];

	if (a->asking || !p)
		return;
	gettimeofday(&now, NULL);
	if (timercmp(&p->deadline, &now, <=)) {
		pop(a);
		next_prompt(a);
		return;
	}
	timersub(&p->deadline, &now, &left);
	a->asking = true;
	a->hooks.hold(a->hooks.arg, true);
	snprintf(msg, sizeof(msg), "\r\nsbx: the command wants to connect to "
		 "%s, which the policy does not allow.\r\nAllow it? [o]nce, "
		 "for this [s]ession, or [N]o: ", p->what);
	say(a, msg);
	event_add(a->read_ev, NULL);
	evtimer_add(a->timer, &left);
}

static char *
describe(const Sbx__ApprovalRequest *req)
{
	char *s, *p;

	if (asprintf(&s, strchr(req->host, ':') ? "[%s]:%u (%s)%s%s" :
		     "%s:%u (%s)%s%s", req->host, req->port,
		     req->protocol ? req->protocol : "?",
		     req->refused && req->refused[0] ? "; note: " : "",
		     req->refused ? req->refused : "") < 0)
		return NULL;
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

void
ask_request(struct ask *a, const Sbx__ApprovalRequest *req)
{
	struct pending *p;
	struct timeval now, d;

	if (a->mode == ASK_DENY) {
		answer(a, req->request_id,
		       SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY,
		       "sbxctl run --on-ask=deny");
		return;
	}
	if (open_tty(a) < 0) {
		answer(a, req->request_id,
		       SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY,
		       "sbxctl has no terminal to ask on");
		return;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->what = describe(req))) {
		free(p);
		answer(a, req->request_id,
		       SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY,
		       "out of memory");
		return;
	}
	p->id = req->request_id;
	gettimeofday(&now, NULL);
	d.tv_sec = req->timeout_ms / 1000;
	d.tv_usec = (req->timeout_ms % 1000) * 1000;
	timeradd(&now, &d, &p->deadline);
	*a->tail = p;
	a->tail = &p->next;
	next_prompt(a);
}

void
ask_settled(struct ask *a, const Sbx__ApprovalAnswered *aa)
{
	struct pending **pp, *p;
	char note[160];

	if (aa->mine)
		return;
	if (a->asking && a->head && a->head->id == aa->request_id) {
		snprintf(note, sizeof(note), "\r\nsbx: answered by %s: %s\r\n",
			 aa->answered_by && aa->answered_by[0] ?
			 aa->answered_by : "another client",
			 aa->answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY ||
			 !aa->answer ? "denied" : "allowed");
		for (char *c = note; *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\r' && *c != '\n')
				*c = '?';
		end_prompt(a, note);
		return;
	}
	/* Queued behind the prompt on screen: never asked now. */
	for (pp = &a->head; (p = *pp); pp = &p->next)
		if (p->id == aa->request_id && p != a->head) {
			*pp = p->next;
			if (a->tail == &p->next)
				a->tail = pp;
			free(p->what);
			free(p);
			return;
		}
}

void
ask_free(struct ask *a)
{
	if (!a)
		return;
	while (a->head)
		pop(a);
	if (a->read_ev)
		event_free(a->read_ev);
	if (a->timer)
		event_free(a->timer);
	if (a->tty >= 0)
		close(a->tty);
	free(a);
}
