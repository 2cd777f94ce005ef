/* The I/O loop of `sbxctl run`: frames from sbxd, stdin, the pty, and
 * signals, until the command's exit status arrives. */
#ifndef SBX_RELAY_H
#define SBX_RELAY_H

#include <stdbool.h>

#include "client/ask.h"
#include "client/client.h"

struct relay_opts {
	bool tty;
	bool stream;
	enum ask_mode on_ask; /* approval requests: prompt or deny */
	int master; /* fd-passing tty: our end of the pty, else -1 */
};

/* Runs until the session ends; returns sbxctl's exit status. */
int relay_run(struct client *c, const struct relay_opts *o);

#endif
