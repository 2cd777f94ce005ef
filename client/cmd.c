/* The verb table, its usage and help text, and the dispatch that takes the
 * global options out of a verb's arguments first. */
#include <string.h>

#include "client/args.h"
#include "client/cmd.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,	     &cmd_attach_entry,	 &cmd_sandbox_entry,
	&cmd_mcp_entry,	     &cmd_ps_entry,
	&cmd_kill_entry,     &cmd_status_entry,	 &cmd_policy_entry,
	&cmd_describe_entry, &cmd_events_entry,	 &cmd_doctor_entry,
	&cmd_reset_entry,    &cmd_shutdown_entry, &cmd_version_entry,
	&cmd_help_entry,
	NULL,
};

#define GLOBALS "[--json] [--socket PATH] [--no-autostart] " \
		"[--connect-timeout SEC]"

const struct cmd_entry *
cmd_find(const struct cmd_entry *const *table, const char *name)
{
	for (; *table; table++)
		if (!strcmp((*table)->name, name))
			return *table;
	return NULL;
}

void
cmd_print_usage(FILE *f, const struct cmd_entry *const *table,
		const char *prefix)
{
	fprintf(f, "usage: sbxctl %s%sCOMMAND ...\n", *prefix ? "" : GLOBALS " ",
		prefix);
	for (; *table; table++)
		fprintf(f, "  sbxctl %s%s\n", prefix, (*table)->usage);
	fprintf(f, "The options above go before or after the command "
		"(sbxctl help COMMAND).\n");
}

void
cmd_print_help(FILE *f, const struct cmd_entry *e, const char *prefix)
{
	const struct cmd_entry *const *s;

	fprintf(f, "usage: sbxctl %s%s\n%s\n", prefix, e->usage, e->summary);
	for (s = e->subs; s && *s; s++)
		fprintf(f, "  sbxctl %s%s %s\n      %s\n", prefix, e->name,
			(*s)->usage, (*s)->summary);
	fprintf(f, "global options, before or after the command:\n"
		"  " GLOBALS "\n");
}

int
cmd_bad_usage(const struct cmd_entry *e, const char *prefix)
{
	client_err("usage: sbxctl %s%s", prefix, e->usage);
	return EXIT_SBX;
}

int
cmd_dispatch(const struct cmd_entry *const *table, const char *prefix,
	     struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *e = cmd_find(table, argv[0]);
	char *version[] = { (char *)"version", NULL };
	const char *bad = "";
	int r;

	if (!e) {
		client_err("unknown command: %s%s", prefix, argv[0]);
		cmd_print_usage(stderr, table, prefix);
		return EXIT_SBX;
	}
	r = args_take_globals(&argc, argv, e->opts, e->shortopts, 0, ctx,
			      &bad);
	if (r < 0) {
		client_err("bad option or value: %s", bad);
		cmd_print_help(stderr, e, prefix);
		return EXIT_SBX;
	}
	if (r & ARGS_HELP) {
		cmd_print_help(stdout, e, prefix);
		return 0;
	}
	if (r & ARGS_VERSION)
		return cmd_version_entry.fn(ctx, 1, version);
	optind = 0; /* the verb runs getopt on its own argv */
	return e->fn(ctx, argc, argv);
}
