/* sbxctl policy: the policy verbs, one cmd-policy-*.c each. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/cmd-policy.h"

static const struct cmd_entry *const policy_table[] = {
	&cmd_policy_show_entry,   &cmd_policy_explain_entry,
	&cmd_policy_lint_entry,   &cmd_policy_check_entry,
	&cmd_policy_push_entry,   &cmd_policy_keygen_entry,
	&cmd_policy_sign_entry,   NULL,
};

int
cmd_policy_workspace(const char *dir, char out[PATH_MAX])
{
	if (!realpath(dir ? dir : ".", out)) {
		client_err("workspace %s: %s", dir ? dir : ".",
			   strerror(errno));
		return -errno;
	}
	return 0;
}

int
cmd_policy_call(const struct cmd_ctx *ctx, struct client *c,
		Sbx__Envelope *env, Sbx__Envelope__MsgCase want,
		Sbx__Envelope **rep)
{
	int r;

	if ((r = client_open(ctx, c)) < 0)
		return r;
	if ((r = client_call(c, env, want, rep)) < 0)
		client_close(c);
	return r;
}

static int
cmd_policy(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cmd_ctx sub = *ctx;

	if (argc < 2) {
		cmd_print_help(stderr, &cmd_policy_entry, "");
		return EXIT_SBX;
	}
	return cmd_dispatch(policy_table, "policy ", &sub, argc - 1, argv + 1);
}

const struct cmd_entry cmd_policy_entry = {
	.name = "policy",
	.usage = "policy show|explain|check|lint|push|keygen|sign ...",
	.summary = "Show, explain, check, sign and push policies:",
	.fn = cmd_policy,
	.shortopts = "+", /* its first operand is the sub-verb */
	.subs = policy_table,
};
