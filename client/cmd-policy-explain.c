/* sbxctl policy explain: what the policy of a workspace decides about a
 * path, a host or an environment variable, and which rule decided. */
#define _GNU_SOURCE
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd-policy.h"
#include "daemon/policy/policy.h"

enum { OPT_WRITE = 0x100 };

static json_t *
origin_json(const Sbx__PolicyOrigin *o)
{
	if (!o)
		return json_null();
	return json_pack("{s:s, s:s, s:i, s:i, s:s?, s:s?}", "layer",
			 policy_layer_name((enum policy_layer)o->layer), "file", o->file,
			 "line", (int)o->line, "col", (int)o->col, "id",
			 o->id[0] ? o->id : NULL, "reason",
			 o->reason[0] ? o->reason : NULL);
}

static void
print_json(const Sbx__PolicyExplainReply *r)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s?, s:s?, s:o, s:o}",
			      "verdict", r->verdict, "access", r->access,
			      "target", r->target, "why", r->why, "list",
			      r->list[0] ? r->list : NULL, "value",
			      r->list[0] ? r->value : NULL, "origin",
			      origin_json(r->origin), "within",
			      origin_json(r->within));

	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

/* "env:NAME", "limits.KEY", else a path when it looks like one or names something that
 * exists, else HOST[:PORT]. */
static int
classify(const char *t, Sbx__PolicyExplain *q, char **own)
{
	struct stat st;
	char *cwd;

	if (!strncmp(t, "env:", 4)) {
		const char *v = getenv(t + 4);

		/* As a run would send it: some rules look at the value. The
		 * reply never repeats it. */
		q->env = (char *)t + 4;
		q->env_value = (char *)(v ? v : "");
		return 0;
	}
	if (!strncmp(t, "limits.", 7)) {
		q->limit = (char *)t + 7;
		return 0;
	}
	if (t[0] == '/' || t[0] == '~') {
		q->path = (char *)t;
		return 0;
	}
	if (t[0] == '.' || strchr(t, '/') || lstat(t, &st) == 0) {
		/* Relative to where the question is asked, lexically. */
		if (!(cwd = getcwd(NULL, 0)) ||
		    asprintf(own, "%s/%s", cwd, t) < 0) {
			free(cwd);
			return -1;
		}
		free(cwd);
		q->path = *own;
		return 0;
	}
	q->host = (char *)t;
	return 0;
}

static const struct option opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ "write", no_argument, NULL, OPT_WRITE },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_policy_explain(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__PolicyExplain req = SBX__POLICY_EXPLAIN__INIT;
	const char *wsdir = NULL;
	char ws[PATH_MAX], *own = NULL;
	struct client c;
	int ch, code = EXIT_SBX;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 'w')
			wsdir = optarg;
		else if (ch == OPT_WRITE)
			req.write = true;
		else
			return cmd_bad_usage(&cmd_policy_explain_entry,
					     "policy ");
	}
	if (optind != argc - 1 || !argv[optind][0]) {
		client_err("usage: sbxctl policy %s",
			   cmd_policy_explain_entry.usage);
		return EXIT_SBX;
	}
	if (cmd_policy_workspace(wsdir, ws) < 0 ||
	    classify(argv[optind], &req, &own) < 0)
		goto out;
	req.workspace = ws;
	env.msg_case = SBX__ENVELOPE__MSG_POLICY_EXPLAIN;
	env.policy_explain = &req;
	if (cmd_policy_call(ctx, &c, &env,
			    SBX__ENVELOPE__MSG_POLICY_EXPLAIN_REPLY, &rep) < 0)
		goto out;
	if (ctx->json)
		print_json(rep->policy_explain_reply);
	else
		printf("%s\n", rep->policy_explain_reply->text);
	wire_envelope_free(rep);
	client_close(&c);
	code = 0;
out:
	free(own);
	return code;
}

const struct cmd_entry cmd_policy_explain_entry = {
	.name = "explain",
	.usage = "explain PATH|HOST[:PORT]|env:NAME|limits.KEY [--workspace DIR] "
		 "[--write] [--json]",
	.summary = "Say whether the policy allows, denies or asks, and which "
		   "rule decided (for a limit: its value and where it is set).",
	.fn = cmd_policy_explain,
	.opts = opts,
	.shortopts = "",
};
