/* sbxctl shutdown: ask the daemon to stop as SIGTERM stops it, and wait
 * until it has. Never starts a daemon just to stop it. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "client/cmd.h"

static void
report(const struct cmd_ctx *ctx, const char *socket, bool was_running)
{
	json_t *o;

	if (!ctx->json) {
		if (was_running)
			printf("sbxd at %s stopped\n", socket);
		else
			printf("no sbxd answers at %s: nothing to stop\n",
			       socket);
		return;
	}
	o = json_pack("{s:s, s:b}", "socket", socket, "stopped", was_running);
	if (o)
		json_dumpf(o, stdout, JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

/* The daemon closes every connection as it exits: until then, whatever it
 * sends (nothing is expected) is dropped. */
static int
wait_gone(struct client *c)
{
	Sbx__Envelope *rep;
	int r;

	while ((r = client_recv(c, &rep)) == 0 && rep)
		wire_envelope_free(rep);
	return r == -ECONNRESET ? 0 : r;
}

static int
cmd_shutdown(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__ShutdownRequest req = SBX__SHUTDOWN_REQUEST__INIT;
	struct cmd_ctx quiet = *ctx;
	struct client c = { .fd = -1 };
	char err[4400] = "";
	int r;

	if (argc != 1) {
		client_err("usage: sbxctl %s", cmd_shutdown_entry.usage);
		return EXIT_SBX;
	}
	quiet.no_autostart = true;
	r = client_open_err(&quiet, &c, err, sizeof(err));
	if (r == -ENOENT || r == -ECONNREFUSED) {
		report(ctx, c.socket, false);
		return 0;
	}
	if (r < 0) {
		if (err[0])
			client_err("%s", err);
		return EXIT_SBX;
	}
	env.msg_case = SBX__ENVELOPE__MSG_SHUTDOWN;
	env.shutdown = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_ACK, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	wire_envelope_free(rep);
	r = wait_gone(&c);
	client_close(&c);
	if (r < 0) {
		client_err("waiting for sbxd at %s to stop: %s", c.socket,
			   strerror(-r));
		return EXIT_SBX;
	}
	report(ctx, c.socket, true);
	return 0;
}

const struct cmd_entry cmd_shutdown_entry = {
	.name = "shutdown",
	.usage = "shutdown [--json]",
	.summary = "Stop the daemon as SIGTERM does: sessions get SIGTERM, "
		   "SIGKILL after 3 s; waits until it exited.",
	.fn = cmd_shutdown,
};
