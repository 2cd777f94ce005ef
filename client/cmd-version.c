/* sbxctl version (and --version): this client's version and protocol, and
 * those of the daemon when one answers. Never starts a daemon to ask it. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "client/cmd.h"

static void
print_json(const struct client *c, const Sbx__HelloReply *h, const char *err)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:s?, s:o, s:o}", "sbxctl",
			      SBX_VERSION, "protocol", WIRE_PROTOCOL_VERSION,
			      "socket", c->socket, "sbxd_error",
			      err[0] ? err : NULL, "sbxd",
			      h ? json_string(h->daemon_version) : json_null(),
			      "sbxd_protocol",
			      h ? json_integer(h->protocol_version) :
				  json_null());

	if (o)
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static int
cmd_version(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cmd_ctx quiet = *ctx;
	const Sbx__HelloReply *h = NULL;
	struct client c = { .fd = -1 };
	char err[4400] = "";
	int r;

	if (argc != 1) {
		client_err("usage: sbxctl %s", cmd_version_entry.usage);
		return EXIT_SBX;
	}
	quiet.no_autostart = true;
	r = client_open_err(&quiet, &c, err, sizeof(err));
	if (r == 0)
		h = c.hello->hello_reply;
	else if (r == -ENOENT || r == -ECONNREFUSED)
		snprintf(err, sizeof(err), "no sbxd answers at %s", c.socket);
	else if (!err[0])
		snprintf(err, sizeof(err), "sbxd at %s: %s", c.socket,
			 strerror(-r));
	if (ctx->json)
		print_json(&c, h, err);
	else {
		printf("sbxctl %s (protocol %d)\n", SBX_VERSION,
		       WIRE_PROTOCOL_VERSION);
		if (h)
			printf("sbxd %s (protocol %u) at %s\n",
			       h->daemon_version, h->protocol_version,
			       c.socket);
		else
			printf("sbxd: %s\n", err);
	}
	if (r == 0)
		client_close(&c);
	return 0;
}

const struct cmd_entry cmd_version_entry = {
	.name = "version",
	.usage = "version [--json]",
	.summary = "Print the version and protocol of sbxctl, and of the "
		   "daemon when one answers (none is started to ask).",
	.fn = cmd_version,
};
