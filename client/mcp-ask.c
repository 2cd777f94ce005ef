/* Network approvals of an MCP session: the daemon's ApprovalRequest asked
 * of the user through MCP elicitation (a form with one choice), or denied
 * with the reason when the client cannot be asked or --on-ask=deny says
 * not to. The reason also goes into the command's report, so the agent
 * learns why its connection failed. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "client/ask.h"
#include "client/mcp-rpc.h"
#include "client/mcp.h"
#include "proto/blocked.h"

struct pending {
	json_t *id;	  /* our elicitation/create request's; NULL: asked
			   * in an input_required result, whose retry
			   * brings state back */
	char state[80];
	uint64_t op;	  /* the command's operation */
	uint64_t req;	  /* the ApprovalRequest's id */
	char *what;	  /* "host:port (protocol)" */
	struct pending *next;
};

static void pending_free(struct pending *p);

struct mcp_ask {
	struct mcp *m;
	uint64_t next;
	struct pending *head;
};

struct mcp_ask *
mcp_ask_new(struct mcp *m)
{
	struct mcp_ask *a = calloc(1, sizeof(*a));

	if (a)
		a->m = m;
	return a;
}

static void
decide(struct mcp_ask *a, uint64_t op, uint64_t req, Sbx__ApprovalAnswer ans,
       const char *reason)
{
	Sbx__Envelope env;
	Sbx__ApprovalDecision d;

	ask_decision(&env, &d, req, ans, reason);
	mcp_daemon_send(a->m->d, &env, op);
}

static void
note(struct mcp_ask *a, uint64_t op, const char *what, const char *how)
{
	char *s;

	if (asprintf(&s, "sbx: a connection to %s, which the policy does not "
		     "allow: %s", what, how) < 0)
		return;
	mcp_proc_note(a->m, op, s);
	free(s);
}

static char *
describe(const Sbx__ApprovalRequest *req)
{
	char *s;

	if (asprintf(&s, strchr(req->host, ':') ? "[%s]:%u (%s)%s%s" :
		     "%s:%u (%s)%s%s", req->host, req->port,
		     req->protocol ? req->protocol : "?",
		     req->refused && req->refused[0] ? "; note: " : "",
		     req->refused ? req->refused : "") < 0)
		return NULL;
	blocked_scrub(s);
	return s;
}

static json_t *
elicitation(const char *what, bool modern)
{
	char *msg;
	json_t *p;

	if (asprintf(&msg, "A command in the sbx sandbox wants to connect to "
		     "%s, which the sandbox's policy does not allow. Allow "
		     "it?", what) < 0)
		return NULL;
	p = json_pack("{s:s,s:{s:s,s:{s:{s:s,s:s,s:s,s:[sss],s:s}},s:[s]}}",
		      "message", msg, "requestedSchema", "type", "object",
		      "properties", "answer", "type", "string", "title",
		      "Network access", "description", "allow-once: this "
		      "connection; allow-session: this host and port until "
		      "the MCP session ends; deny: refuse it", "enum",
		      "allow-once", "allow-session", "deny", "default", "deny",
		      "required", "answer");
	free(msg);
	if (p && modern)
		json_object_set_new(p, "mode", json_string("form"));
	return p;
}

static struct pending *
pending_new(struct mcp_ask *a, uint64_t op, const Sbx__ApprovalRequest *req,
	    char *what)
{
	struct pending *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->op = op;
	p->req = req->request_id;
	p->what = what;
	return p;
}

/* The stateless revision asks in the result of the call waiting on the
 * command: its retry brings the answer and state (an op, the request,
 * and a random part that makes it unguessable). */
static bool
ask_in_result(struct mcp_ask *a, struct pending *p)
{
	uint64_t nonce = 0;
	json_t *q = elicitation(p->what, true);

	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce) || !q) {
		json_decref(q);
		return false;
	}
	snprintf(p->state, sizeof(p->state), "sbx:%" PRIu64 ":%" PRIu64
		 ":%016" PRIx64, p->op, p->req, nonce);
	return mcp_proc_input_required(a->m, p->op, json_pack("{s:{s:s,s:o}}",
		"sbx-approval", "method", "elicitation/create", "params", q),
		p->state);
}

static bool
ask_by_request(struct mcp_ask *a, struct pending *p)
{
	char idbuf[48];
	json_t *id, *msg;

	snprintf(idbuf, sizeof(idbuf), "sbx-approval-%llu",
		 (unsigned long long)++a->next);
	id = json_string(idbuf);
	msg = id ? mcp_rpc_request(id, "elicitation/create",
				   elicitation(p->what, false)) : NULL;
	if (!msg) {
		json_decref(id);
		return false;
	}
	p->id = id;
	a->m->srv.h.send(a->m->srv.h.arg, msg);
	json_decref(msg);
	return true;
}

static void
deny_now(struct mcp_ask *a, uint64_t op, uint64_t req, const char *what,
	 const char *reason, const char *how)
{
	decide(a, op, req, SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY, reason);
	if (what)
		note(a, op, what, how);
}

void
mcp_ask_request(struct mcp_ask *a, uint64_t op,
		const Sbx__ApprovalRequest *req)
{
	static const char fix[] = "; the user can add it to "
				  "network.allowedDomains in the policy";
	char *what = describe(req), how[256];
	bool modern, elicit = false, asked;
	struct pending *p;

	modern = mcp_proc_call_modern(a->m, op, &elicit);
	if (!modern)
		elicit = a->m->srv.state != MCP_STATE_NEW && a->m->srv.elicit;
	if (!what || a->m->on_ask_deny || !elicit) {
		snprintf(how, sizeof(how), "%s%s", a->m->on_ask_deny ?
			 "denied (sbxctl mcp runs with --on-ask=deny)" :
			 a->m->srv.state == MCP_STATE_NEW && !modern ?
			 "denied, since no tool call was waiting to carry the "
			 "question" : "denied, since this MCP client cannot "
			 "ask the user (it declared no elicitation)", fix);
		deny_now(a, op, req->request_id, what, !what ? "out of memory" :
			 a->m->on_ask_deny ? "sbxctl mcp --on-ask=deny" :
			 "the MCP client cannot be asked", how);
		free(what);
		return;
	}
	if (!(p = pending_new(a, op, req, what))) {
		deny_now(a, op, req->request_id, NULL, "out of memory", NULL);
		free(what);
		return;
	}
	asked = modern ? ask_in_result(a, p) : ask_by_request(a, p);
	if (!asked) {
		deny_now(a, op, req->request_id, what, "out of memory",
			 "denied (sbxctl mcp could not ask)");
		pending_free(p);
		return;
	}
	p->next = a->head;
	a->head = p;
}

static struct pending *
take(struct mcp_ask *a, bool (*match)(const struct pending *, const void *),
     const void *key)
{
	struct pending **pp, *p;

	for (pp = &a->head; (p = *pp); pp = &p->next)
		if (match(p, key)) {
			*pp = p->next;
			return p;
		}
	return NULL;
}

static bool
by_id(const struct pending *p, const void *id)
{
	return json_equal(p->id, (json_t *)id);
}

static bool
by_req(const struct pending *p, const void *aa)
{
	return p->req == ((const Sbx__ApprovalAnswered *)aa)->request_id;
}

static void
pending_free(struct pending *p)
{
	json_decref(p->id);
	free(p->what);
	free(p);
}

/* The client's ElicitResult (or error) for p decides it. */
static void
answered(struct mcp_ask *a, struct pending *p, const json_t *result,
	 const json_t *error)
{
	const char *action, *ans;
	Sbx__ApprovalAnswer answer = SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY;
	const char *how = "denied by the user";

	action = json_string_value(json_object_get(result, "action"));
	ans = json_string_value(json_object_get(json_object_get(result,
						"content"), "answer"));
	if (error || !action) {
		how = "denied (the MCP client could not ask the user)";
	} else if (strcmp(action, "accept")) {
		how = "denied (the user declined to answer)";
	} else if (ans && !strcmp(ans, "allow-once")) {
		answer = SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE;
		how = "allowed once by the user";
	} else if (ans && !strcmp(ans, "allow-session")) {
		answer = SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SANDBOX;
		how = "allowed by the user for this session";
	}
	decide(a, p->op, p->req, answer, answer ==
	       SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY ? how : NULL);
	note(a, p->op, p->what, how);
}

bool
mcp_ask_response(struct mcp_ask *a, const json_t *id, const json_t *result,
		 const json_t *error)
{
	struct pending *p = take(a, by_id, id);

	if (!p)
		return false;
	answered(a, p, result, error);
	pending_free(p);
	return true;
}

static bool
by_state(const struct pending *p, const void *state)
{
	return !p->id && !strcmp(p->state, state);
}

uint64_t
mcp_ask_retry(struct mcp_ask *a, const char *state, const json_t *responses)
{
	struct pending *p = take(a, by_state, state);
	const json_t *r = json_object_get(responses, "sbx-approval");
	unsigned long long op;
	char *end;

	if (strncmp(state, "sbx:", 4) || state[4] < '0' || state[4] > '9')
		return 0;
	op = strtoull(state + 4, &end, 10);
	if (*end != ':')
		return 0;
	if (p) {
		answered(a, p, r, r ? NULL : json_null());
		pending_free(p);
	}
	return op;
}

void
mcp_ask_settled(struct mcp_ask *a, uint64_t op,
		const Sbx__ApprovalAnswered *aa)
{
	struct pending *p;
	json_t *n;

	if (aa->mine || !(p = take(a, by_req, aa)))
		return;
	/* Settled without us (the daemon's timeout, another approver):
	 * the question is withdrawn (one in a result: its retry finds it
	 * gone and gets the command's report). */
	n = !p->id ? NULL : mcp_rpc_notification("notifications/cancelled", json_pack(
		"{s:O,s:s}", "requestId", p->id, "reason", "settled "
		"elsewhere (or no answer in time)"));
	if (n)
		a->m->srv.h.send(a->m->srv.h.arg, n);
	json_decref(n);
	note(a, op, p->what, aa->answer == 0 ||
	     aa->answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_DENY ?
	     "denied (no answer in time, or by another client)" :
	     "allowed by another client");
	pending_free(p);
}

void
mcp_ask_free(struct mcp_ask *a)
{
	struct pending *p;

	while (a && (p = a->head)) {
		a->head = p->next;
		pending_free(p);
	}
	free(a);
}
