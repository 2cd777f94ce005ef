/* sbxctl policy push: hand an org policy (and its signature) to sbxd. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/cmd-policy.h"
#include "client/file.h"
#include "daemon/crypto.h"
#include "daemon/policy/policy.h"

/* A signature file is 64 bytes or their base64; anything much larger is
 * not one. */
#define SIG_FILE_MAX 1024

static void
print(const struct cmd_ctx *ctx, const Sbx__PolicyPushReply *r)
{
	json_t *o;

	if (!ctx->json) {
		printf("org policy serial %lld in force for new runs%s%s\n"
		       "stored in %s\n", (long long)r->serial,
		       r->key_id[0] ? ", signed by trusted key " : "",
		       r->key_id, r->stored);
		return;
	}
	o = json_pack("{s:I, s:s, s:s}", "serial", (json_int_t)r->serial,
		      "stored", r->stored, "key_id", r->key_id);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static const struct option opts[] = {
	{ "sig", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_policy_push(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__PolicyPush req = SBX__POLICY_PUSH__INIT;
	const char *sig_path = NULL;
	char *policy = NULL, *sig = NULL;
	size_t len = 0, siglen = 0;
	struct client c;
	int ch, code = EXIT_SBX;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 's')
			return cmd_bad_usage(&cmd_policy_push_entry, "policy ");
		sig_path = optarg;
	}
	if (optind != argc - 1) {
		client_err("usage: sbxctl policy %s", cmd_policy_push_entry.usage);
		return EXIT_SBX;
	}
	if (file_read(argv[optind], POLICY_MAX_BYTES, &policy, &len) < 0 ||
	    (sig_path && file_read(sig_path, SIG_FILE_MAX, &sig, &siglen) < 0))
		goto out;
	req.policy.data = (uint8_t *)policy;
	req.policy.len = len;
	req.signature.data = (uint8_t *)sig;
	req.signature.len = siglen;
	env.msg_case = SBX__ENVELOPE__MSG_POLICY_PUSH;
	env.policy_push = &req;
	if (cmd_policy_call(ctx, &c, &env, SBX__ENVELOPE__MSG_POLICY_PUSH_REPLY,
			    &rep) < 0)
		goto out;
	print(ctx, rep->policy_push_reply);
	wire_envelope_free(rep);
	client_close(&c);
	code = 0;
out:
	free(policy);
	free(sig);
	return code;
}

const struct cmd_entry cmd_policy_push_entry = {
	.name = "push",
	.usage = "push FILE [--sig SIGFILE] [--json]",
	.summary = "Push an organisation policy to the daemon (from root, or "
		   "signed by a trusted key).",
	.fn = cmd_policy_push,
	.opts = opts,
	.shortopts = "",
};
