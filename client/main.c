/* sbxctl: the thin client of sbxd. Global options, then one verb. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/cmd.h"

static const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry, &cmd_ps_entry, &cmd_kill_entry, &cmd_status_entry,
	&cmd_policy_entry, &cmd_describe_entry, &cmd_events_entry,
	&cmd_doctor_entry, &cmd_reset_entry,
};
#define NCMDS (sizeof(cmd_table) / sizeof(cmd_table[0]))

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: sbxctl [--socket PATH] [--json] "
		"[--connect-timeout SEC] COMMAND ...\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  sbxctl %s\n", cmd_table[i]->usage);
}

/* Seconds (fractions allowed) to milliseconds; 0 is "no deadline". */
static int
parse_timeout(const char *what, const char *s, unsigned *ms)
{
	char *end;
	double secs = strtod(s, &end);

	if (end == s || *end || !(secs >= 0) || secs > 86400) {
		client_err("bad %s: %s (seconds, 0 for none)", what, s);
		return -1;
	}
	*ms = (unsigned)(secs * 1000);
	if (secs > 0 && *ms == 0)
		*ms = 1;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-autostart", no_argument, NULL, 'n' },
		{ "connect-timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_ctx ctx = { .connect_timeout_ms =
				       CLIENT_CONNECT_TIMEOUT_MS };
	const char *env = getenv("SBX_CONNECT_TIMEOUT");
	size_t i;
	int c;

	if (env && *env && parse_timeout("SBX_CONNECT_TIMEOUT", env,
					 &ctx.connect_timeout_ms) < 0)
		return EXIT_SBX;

	/* "+": stop at the verb; its options are its own. */
	while ((c = getopt_long(argc, argv, "+s:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			ctx.socket = optarg;
			break;
		case 'j':
			ctx.json = true;
			break;
		case 'n':
			ctx.no_autostart = true;
			break;
		case 't':
			if (parse_timeout("--connect-timeout", optarg,
					  &ctx.connect_timeout_ms) < 0)
				return EXIT_SBX;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("sbxctl %s\n", SBX_VERSION);
			return 0;
		default:
			usage(stderr);
			return EXIT_SBX;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_SBX;
	}
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[optind], cmd_table[i]->name)) {
			int vi = optind;

			optind = 0; /* verbs run getopt again on their argv */
			return cmd_table[i]->fn(&ctx, argc - vi, argv + vi);
		}
	client_err("unknown command: %s", argv[optind]);
	usage(stderr);
	return EXIT_SBX;
}
