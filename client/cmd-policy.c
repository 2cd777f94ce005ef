/* sbxctl policy: the policy verbs, one cmd-policy-*.c each. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/cmd-policy.h"

static const struct cmd_entry *const policy_table[] = {
	&cmd_policy_show_entry,   &cmd_policy_explain_entry,
	&cmd_policy_lint_entry,   &cmd_policy_check_entry,
	&cmd_policy_push_entry,   &cmd_policy_keygen_entry,
	&cmd_policy_sign_entry,
};
#define NPOLICY (sizeof(policy_table) / sizeof(policy_table[0]))

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

static void
usage(FILE *f)
{
	size_t i;

	for (i = 0; i < NPOLICY; i++)
		fprintf(f, "usage: sbxctl policy %s\n", policy_table[i]->usage);
}

static int
cmd_policy(const struct cmd_ctx *ctx, int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_SBX : 0;
	}
	for (i = 0; i < NPOLICY; i++)
		if (!strcmp(argv[1], policy_table[i]->name)) {
			optind = 0; /* the sub-verb runs getopt on its argv */
			return policy_table[i]->fn(ctx, argc - 1, argv + 1);
		}
	client_err("unknown policy command: %s", argv[1]);
	usage(stderr);
	return EXIT_SBX;
}

const struct cmd_entry cmd_policy_entry = {
	"policy",
	"policy show|explain|check|lint|push|keygen|sign ... "
	"(sbxctl policy --help)",
	cmd_policy,
};
