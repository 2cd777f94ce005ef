/* Answering the daemon's approval requests: a prompt on our terminal, or deny. */
#ifndef SBX_ASK_H
#define SBX_ASK_H

#include <stdbool.h>

#include "proto/wire.h"

struct event_base;
struct ask;

enum ask_mode {
	ASK_PROMPT,	/* ask on /dev/tty; deny when there is none */
	ASK_DENY,	/* deny at once */
};

struct ask_hooks {
	void *arg;
	/* Queues a frame for sbxd. */
	void (*send)(void *arg, const Sbx__Envelope *env);
	/* hold: stop using the terminal (stdin relay, raw mode) while we
	 * ask on it; !hold: take it back. */
	void (*hold)(void *arg, bool hold);
};

/* *env, a frame answering approval request id (d holds its decision;
 * reason is borrowed, NULL for none): every client that answers builds
 * its frame here, the prompt and the MCP server alike. */
void ask_decision(Sbx__Envelope *env, Sbx__ApprovalDecision *d, uint64_t id,
		  Sbx__ApprovalAnswer ans, const char *reason);

struct ask *ask_new(struct event_base *base, enum ask_mode mode,
		    const struct ask_hooks *hooks);
/* One request; answered now or queued behind the prompt on screen. */
void ask_request(struct ask *a, const Sbx__ApprovalRequest *req);
/* Another client (an approver) answered request aa->request_id first:
 * its prompt goes, saying who answered. */
void ask_settled(struct ask *a, const Sbx__ApprovalAnswered *aa);
void ask_free(struct ask *a);

#endif
