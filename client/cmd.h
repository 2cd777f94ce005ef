/* The sbxctl verb table: one cmd-*.c per verb. */
#ifndef SBX_CMD_H
#define SBX_CMD_H

#include "client/client.h"

struct cmd_entry {
	const char *name;
	const char *usage;
	/* Returns the process exit status. argv[0] is the verb. */
	int (*fn)(const struct cmd_ctx *ctx, int argc, char **argv);
};

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_ps_entry;
extern const struct cmd_entry cmd_kill_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_policy_entry;
extern const struct cmd_entry cmd_describe_entry;
extern const struct cmd_entry cmd_events_entry;
extern const struct cmd_entry cmd_doctor_entry;
extern const struct cmd_entry cmd_reset_entry;

#endif
