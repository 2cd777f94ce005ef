/* sbxctl's connection to sbxd: connect (starting the daemon if nothing
 * answers), Hello, and blocking request/reply helpers for simple verbs. */
#ifndef SBX_CLIENT_H
#define SBX_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/wire.h"

/* Exit status for errors of sbx itself (not of the command). */
#define EXIT_SBX 125
/* How long connecting and the Hello may take unless told otherwise
 * (--connect-timeout, SBX_CONNECT_TIMEOUT): a stopped or wedged daemon is
 * reported, not waited on forever. */
#define CLIENT_CONNECT_TIMEOUT_MS 5000

struct client {
	int fd;
	Sbx__Envelope *hello; /* the HelloReply envelope */
	bool hello_queued;    /* the Hello goes with the next frame sent */
	unsigned timeout_ms;  /* the connect deadline's length; 0: none */
	uint64_t deadline_ms; /* CLOCK_MONOTONIC; 0 once the Hello is done */
	unsigned version;     /* the protocol version our Hello names */
	char socket[4096];
};

/* Global options every command sees. */
struct cmd_ctx {
	const char *socket;  /* NULL: default for this uid */
	bool json;
	bool no_autostart;
	unsigned connect_timeout_ms; /* 0: wait for the daemon forever */
};

/* The Hello names the oldest protocol version that has what the verb
 * needs (version 1: any daemon of this protocol answers). */
int client_open(const struct cmd_ctx *ctx, struct client *c);
/* The same with a Hello of version; a verb that needs a feature checks
 * client_has_feature() after. */
int client_open_version(const struct cmd_ctx *ctx, struct client *c,
			unsigned version);
bool client_has_feature(const struct client *c, const char *name);
/* The same, but a failure to connect or to start the daemon is not printed:
 * err says it. (Errors of the Hello itself are printed, and err is "".) */
int client_open_err(const struct cmd_ctx *ctx, struct client *c, char *err,
		    size_t errlen);
/* Connects; the Hello goes in the same write as the request sent next
 * (the daemon handles frames in order); client_hello_reply() then reads
 * the reply, or the daemon's refusal, before anything else. */
int client_open_pipelined(const struct cmd_ctx *ctx, struct client *c);
int client_hello_reply(struct client *c);
void client_close(struct client *c);

/* Writes one whole frame (blocking), with fds attached when nfds > 0. */
int client_send(struct client *c, const Sbx__Envelope *env, const int *fds,
		int nfds);
/* Reads one whole frame (blocking). 0 and *out NULL on clean EOF. */
int client_recv(struct client *c, Sbx__Envelope **out);
/* Sends env and waits for a reply of case want (an Error reply is printed
 * and returns -EPROTO). */
int client_call(struct client *c, const Sbx__Envelope *env,
		Sbx__Envelope__MsgCase want, Sbx__Envelope **out);

/* r is what a send or receive returned: when it is the connect deadline
 * running out, prints so (naming the socket and the daemon's pid) and
 * returns true. */
bool client_timed_out(const struct client *c, int r);

/* Prints "sbxctl: msg" to stderr. */
void client_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
