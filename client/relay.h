/* The I/O loop of `sbxctl run`: frames from sbxd, stdin, the pty, and
 * signals, until the command's exit status arrives. */
#ifndef SBX_RELAY_H
#define SBX_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "client/ask.h"
#include "client/client.h"

struct relay_opts {
	bool tty;
	bool stream;
	enum ask_mode on_ask; /* approval requests: prompt or deny */
	bool quiet;           /* no violation summary after the run */
	bool json;            /* the summary as one JSON line */
	int master; /* fd-passing tty: our end of the pty, else -1 */
	uint64_t request_id; /* of the run or attach: every frame we send
				names it */
	bool credit;         /* stdin only as StdinCredit allows */
};

/* The request id sbxctl gives its one run or attach on a connection. */
#define RELAY_REQUEST_ID 1

/* Runs until the session ends; returns sbxctl's exit status. */
int relay_run(struct client *c, const struct relay_opts *o);

#endif
