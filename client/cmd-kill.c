/* sbxctl kill ID [SIG]: signal a session (default TERM). */
#include <signal.h>
#include <stdlib.h>

#include "client/cmd.h"
#include "client/signame.h"

static int
cmd_kill(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__KillSession req = SBX__KILL_SESSION__INIT;
	struct client c;
	char *end;
	int r;

	if (argc < 2 || argc > 3) {
		client_err("usage: sbxctl %s", cmd_kill_entry.usage);
		return EXIT_SBX;
	}
	req.session_id = strtoull(argv[1], &end, 10);
	if (*end || !req.session_id) {
		client_err("bad session id: %s", argv[1]);
		return EXIT_SBX;
	}
	req.signo = argc == 3 ? signame_parse(argv[2]) : SIGTERM;
	if (req.signo < 0) {
		client_err("bad signal: %s", argv[2]);
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	env.msg_case = SBX__ENVELOPE__MSG_KILL_SESSION;
	env.kill_session = &req;
	r = client_call(&c, &env, SBX__ENVELOPE__MSG_ACK, &rep);
	wire_envelope_free(rep);
	client_close(&c);
	return r < 0 ? EXIT_SBX : 0;
}

const struct cmd_entry cmd_kill_entry = {
	.name = "kill",
	.usage = "kill ID [SIGNAL]",
	.summary = "Send SIGNAL (default TERM) to session ID's command "
		   "(see sbxctl ps).",
	.fn = cmd_kill,
};
