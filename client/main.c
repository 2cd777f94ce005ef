/* sbxctl: the thin client of sbxd. Global options, then one verb (whose
 * arguments may hold global options too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/args.h"
#include "client/cmd.h"

int
main(int argc, char **argv)
{
	struct cmd_ctx ctx = { .connect_timeout_ms =
				       CLIENT_CONNECT_TIMEOUT_MS };
	const char *env = getenv("SBX_CONNECT_TIMEOUT"), *bad = "";
	char *version[] = { (char *)"version", NULL };
	int r;

	if (env && *env && args_timeout(env, &ctx.connect_timeout_ms) < 0) {
		client_err("bad SBX_CONNECT_TIMEOUT: %s (seconds, 0 for none)",
			   env);
		return EXIT_SBX;
	}
	/* "+": stop at the verb; what follows it is the verb's to split. */
	r = args_take_globals(&argc, argv, NULL, "+", ARGS_SHORT, &ctx, &bad);
	if (r < 0) {
		client_err("bad option or value: %s (--connect-timeout takes "
			   "seconds, 0 for none)", bad);
		cmd_print_usage(stderr, cmd_table, "");
		return EXIT_SBX;
	}
	if (argc > 1 && !strcmp(argv[1], "--"))
		argv++, argc--;
	if (r & ARGS_VERSION)
		return cmd_version_entry.fn(&ctx, 1, version);
	if ((r & ARGS_HELP) && argc < 2) {
		cmd_print_usage(stdout, cmd_table, "");
		return 0;
	}
	if (argc < 2) {
		cmd_print_usage(stderr, cmd_table, "");
		return EXIT_SBX;
	}
	if (argv[1][0] == '-') {
		client_err("unknown option: %s", argv[1]);
		cmd_print_usage(stderr, cmd_table, "");
		return EXIT_SBX;
	}
	if (r & ARGS_HELP) /* sbxctl --help VERB ...: that verb's help */
		return cmd_help_entry.fn(&ctx, argc, argv);
	return cmd_dispatch(cmd_table, "", &ctx, argc - 1, argv + 1);
}
