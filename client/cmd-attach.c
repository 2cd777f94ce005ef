/* sbxctl attach ID: take up a session kept past its client (run --stream
 * --keep, or an IDE's keep_on_disconnect): its output so far, then live
 * output, our stdin, signals and window size, and its exit status as ours. */
#include <stdlib.h>
#include <unistd.h>

#include "client/cmd.h"
#include "client/relay.h"
#include "client/tty.h"

/* The Attached reply, or the daemon's refusal (printed). */
static int
attach(struct client *c, uint64_t id, Sbx__Envelope **out)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Attach at = SBX__ATTACH__INIT;

	at.session_id = id;
	at.stdin_credit = true;
	env.msg_case = SBX__ENVELOPE__MSG_ATTACH;
	env.attach = &at;
	env.request_id = RELAY_REQUEST_ID;
	return client_call(c, &env, SBX__ENVELOPE__MSG_ATTACHED, out);
}

static int
cmd_attach(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct relay_opts ro = { .master = -1, .stream = true,
				 .request_id = RELAY_REQUEST_ID };
	Sbx__Envelope *rep = NULL;
	struct client c;
	uint64_t id;
	char *end;
	int code;

	if (argc != 2)
		return cmd_bad_usage(&cmd_attach_entry, "");
	id = strtoull(argv[1], &end, 10);
	if (*end || !id) {
		client_err("bad session id: %s", argv[1]);
		return EXIT_SBX;
	}
	if (client_open_version(ctx, &c, WIRE_PROTOCOL_VERSION) < 0)
		return EXIT_SBX;
	if (!client_has_feature(&c, "attach")) {
		client_err("this sbxd cannot attach sessions (restart it: "
			   "sbxctl shutdown)");
		client_close(&c);
		return EXIT_SBX;
	}
	if (attach(&c, id, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	/* A terminal session on our terminal is relayed raw, as run -t. */
	ro.tty = rep->attached->session && rep->attached->session->tty &&
		 isatty(0) && isatty(1);
	ro.json = ctx->json;
	ro.credit = client_has_feature(&c, "stdin-credit");
	wire_envelope_free(rep);
	code = relay_run(&c, &ro);
	client_close(&c);
	return code;
}

const struct cmd_entry cmd_attach_entry = {
	.name = "attach",
	.usage = "attach ID",
	.summary = "Take up session ID, kept past its client (run --stream "
		   "--keep): its output so far, then input and output; exit "
		   "with its status.",
	.fn = cmd_attach,
};
