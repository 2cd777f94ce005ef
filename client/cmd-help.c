/* sbxctl help [VERB [SUB-VERB]]: the usage of sbxctl, or one verb's help
 * (what `sbxctl VERB --help` prints), on stdout. */
#include <stdio.h>

#include "client/cmd.h"

static int
cmd_help(const struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *e, *s;
	char prefix[64];

	if (argc < 2) {
		cmd_print_usage(stdout, cmd_table, "");
		return 0;
	}
	if (!(e = cmd_find(cmd_table, argv[1]))) {
		client_err("unknown command: %s", argv[1]);
		cmd_print_usage(stderr, cmd_table, "");
		return EXIT_SBX;
	}
	if (argc == 2) {
		cmd_print_help(stdout, e, "");
		return 0;
	}
	s = e->subs && argc == 3 ? cmd_find(e->subs, argv[2]) : NULL;
	if (!s) {
		client_err("usage: sbxctl %s", cmd_help_entry.usage);
		cmd_print_help(stderr, e, "");
		return EXIT_SBX;
	}
	snprintf(prefix, sizeof(prefix), "%s ", e->name);
	cmd_print_help(stdout, s, prefix);
	return 0;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.usage = "help [COMMAND [SUBCOMMAND]]",
	.summary = "Print the usage of sbxctl, or of one command (as "
		   "COMMAND --help does).",
	.fn = cmd_help,
};
