/* The sbxctl verb table: one cmd-*.c per verb, and the dispatch every verb
 * (and policy's sub-verbs) goes through. */
#ifndef SBX_CMD_H
#define SBX_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "client/client.h"

struct cmd_entry {
	const char *name;
	const char *usage;   /* after "sbxctl ": the verb and its arguments */
	const char *summary; /* what it does, one line */
	/* Returns the process exit status. argv[0] is the verb; the global
	 * options are already taken out of argv and into ctx. */
	int (*fn)(const struct cmd_ctx *ctx, int argc, char **argv);
	/* The verb's getopt_long table (or NULL) and string (or NULL for
	 * none): a '+' first when its operands end its options. */
	const struct option *opts;
	const char *shortopts;
	const struct cmd_entry *const *subs; /* NULL-terminated sub-verbs */
};

/* The verbs, NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_attach_entry;
extern const struct cmd_entry cmd_sandbox_entry;
extern const struct cmd_entry cmd_mcp_entry;
extern const struct cmd_entry cmd_ps_entry;
extern const struct cmd_entry cmd_kill_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_policy_entry;
extern const struct cmd_entry cmd_describe_entry;
extern const struct cmd_entry cmd_events_entry;
extern const struct cmd_entry cmd_doctor_entry;
extern const struct cmd_entry cmd_reset_entry;
extern const struct cmd_entry cmd_shutdown_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_help_entry;

/* argv[0] names a verb of table (prefix: "" or "policy "): takes the global
 * options out of its arguments into ctx, prints its help to stdout for
 * --help or -h (exit 0), else runs it. An unknown verb or a bad global
 * prints usage to stderr: EXIT_SBX. */
int cmd_dispatch(const struct cmd_entry *const *table, const char *prefix,
		 struct cmd_ctx *ctx, int argc, char **argv);

/* The verb of table named name, or NULL. */
const struct cmd_entry *cmd_find(const struct cmd_entry *const *table,
				 const char *name);
/* The usage lines of table's verbs. */
void cmd_print_usage(FILE *f, const struct cmd_entry *const *table,
	       const char *prefix);
/* A verb's arguments are wrong: prints its usage to stderr, returns
 * EXIT_SBX. */
int cmd_bad_usage(const struct cmd_entry *e, const char *prefix);
/* One verb's help: its usage, summary, sub-verbs and the globals. */
void cmd_print_help(FILE *f, const struct cmd_entry *e, const char *prefix);

#endif
