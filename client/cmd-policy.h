/* The policy sub-verbs (cmd-policy-*.c) and what they share. */
#ifndef SBX_CMD_POLICY_H
#define SBX_CMD_POLICY_H

#include <limits.h>

#include "client/cmd.h"

extern const struct cmd_entry cmd_policy_show_entry;
extern const struct cmd_entry cmd_policy_explain_entry;
extern const struct cmd_entry cmd_policy_lint_entry;
extern const struct cmd_entry cmd_policy_check_entry;
extern const struct cmd_entry cmd_policy_push_entry;
extern const struct cmd_entry cmd_policy_keygen_entry;
extern const struct cmd_entry cmd_policy_sign_entry;

/* The workspace a policy verb asks about: realpath of dir, or of the
 * current directory. Prints why on failure. */
int cmd_policy_workspace(const char *dir, char out[PATH_MAX]);

/* Sends env and prints the daemon's error, if any; *rep is the reply of
 * case want. Connects first (c is closed again on failure). */
int cmd_policy_call(const struct cmd_ctx *ctx, struct client *c,
		    Sbx__Envelope *env, Sbx__Envelope__MsgCase want,
		    Sbx__Envelope **rep);

#endif
