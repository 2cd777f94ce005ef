/* sbxctl describe: the sandbox's constraints, for an agent's tool text. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "client/cmd.h"

extern char **environ;

static const struct option opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_describe(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__DescribeRequest req = SBX__DESCRIBE_REQUEST__INIT;
	char ws[PATH_MAX];
	const char *dir = ".";
	struct client c;
	int o;

	while ((o = getopt_long(argc, argv, cmd_describe_entry.shortopts, opts,
				 NULL)) != -1) {
		if (o != 'w') {
			client_err("usage: sbxctl %s", cmd_describe_entry.usage);
			return EXIT_SBX;
		}
		dir = optarg;
	}
	if (optind < argc) {
		client_err("usage: sbxctl %s", cmd_describe_entry.usage);
		return EXIT_SBX;
	}
	if (!realpath(dir, ws)) {
		client_err("%s: cannot resolve", dir);
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	req.workspace = ws;
	/* Which of our variables a run would withhold (names only come
	 * back). */
	for (req.n_env = 0; environ[req.n_env]; req.n_env++)
		;
	req.env = environ;
	env.msg_case = SBX__ENVELOPE__MSG_DESCRIBE;
	env.describe = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_DESCRIBE_REPLY, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	fputs(ctx->json ? rep->describe_reply->json : rep->describe_reply->text,
	      stdout);
	if (ctx->json)
		putchar('\n');
	wire_envelope_free(rep);
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_describe_entry = {
	.name = "describe",
	.usage = "describe [--workspace DIR] [--json]",
	.summary = "Print the sandbox's constraints for a workspace, worded for "
		   "an agent's tool description.",
	.fn = cmd_describe,
	.opts = opts,
	.shortopts = "+w:",
};
