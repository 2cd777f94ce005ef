/* sbxctl reset [--workspace DIR | DIR]: forget what sandboxes of the
 * workspace wrote to the home (its home overlay layer). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/cmd.h"

#define USAGE "usage: sbxctl reset [--workspace DIR | DIR]"

/* The workspace as the daemon names it: canonical, or, when it is gone,
 * absolute as given. */
static int
workspace_path(const char *dir, char *out)
{
	char cwd[PATH_MAX];

	if (realpath(dir, out))
		return 0;
	if (errno != ENOENT)
		return -errno;
	if (dir[0] == '/')
		return snprintf(out, PATH_MAX, "%s", dir) < PATH_MAX ?
			       0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)) ||
	    snprintf(out, PATH_MAX, "%s/%s", cwd, dir) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

static const struct option opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_reset(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__ResetRequest req = SBX__RESET_REQUEST__INIT;
	char ws[PATH_MAX];
	const char *dir = NULL;
	struct client c;
	int o, r;

	while ((o = getopt_long(argc, argv, cmd_reset_entry.shortopts, opts,
				 NULL)) != -1) {
		if (o != 'w' || dir) {
			client_err(USAGE);
			return EXIT_SBX;
		}
		dir = optarg;
	}
	if (optind < argc && !dir)
		dir = argv[optind++];
	if (optind < argc) {
		client_err(USAGE);
		return EXIT_SBX;
	}
	if ((r = workspace_path(dir ? dir : ".", ws)) < 0) {
		client_err("%s: %s", dir ? dir : ".", strerror(-r));
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	req.workspace = ws;
	env.msg_case = SBX__ENVELOPE__MSG_RESET;
	env.reset = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_RESET_REPLY, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	if (ctx->json) {
		json_t *j = json_pack("{s:s, s:b}", "workspace", ws, "removed",
				      rep->reset_reply->removed);

		if (j)
			json_dumpf(j, stdout, JSON_SORT_KEYS);
		putchar('\n');
		json_decref(j);
	} else
		printf("%s: %s\n", ws, rep->reset_reply->removed ?
		       "home overlay discarded" : "no home overlay to discard");
	wire_envelope_free(rep);
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_reset_entry = {
	.name = "reset",
	.usage = "reset [--workspace DIR | DIR] [--json]",
	.summary = "Discard what sandboxes of the workspace wrote to the home "
		   "(its home overlay layer).",
	.fn = cmd_reset,
	.opts = opts,
	.shortopts = "+w:",
};
