/* sbxctl sandbox create|exec|ls|rm: long-lived sandboxes, one sandbox
 * (processes, /tmp, network namespace, approvals) for many commands. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "client/cmd.h"
#include "client/run-policy.h"

static int
seconds_ms(const char *arg, uint64_t *ms)
{
	char *end;
	double secs = strtod(arg, &end);

	if (*end || secs <= 0 || secs > 86400 * 7) {
		client_err("bad number of seconds: %s", arg);
		return -EINVAL;
	}
	*ms = (uint64_t)(secs * 1000) ? (uint64_t)(secs * 1000) : 1;
	return 0;
}

static int
sandbox_id(const char *arg, uint64_t *id)
{
	char *end;

	*id = strtoull(arg, &end, 10);
	if (*end || !*id) {
		client_err("bad sandbox id: %s", arg);
		return -EINVAL;
	}
	return 0;
}

static int
call(const struct cmd_ctx *ctx, Sbx__Envelope *env,
     Sbx__Envelope__MsgCase want, Sbx__Envelope **rep)
{
	struct client c;
	int r;

	if (client_open(ctx, &c) < 0)
		return -EIO;
	r = client_call(&c, env, want, rep);
	client_close(&c);
	return r;
}

static const struct option create_opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ "cwd", required_argument, NULL, 'C' },
	{ "idle", required_argument, NULL, 'i' },
	{ "lifetime", required_argument, NULL, 'l' },
	RUN_POLICY_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int
cmd_create(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__CreateSandbox cs = SBX__CREATE_SANDBOX__INIT;
	Sbx__RunRequest spec = SBX__RUN_REQUEST__INIT;
	Sbx__PolicyOverrides po = SBX__POLICY_OVERRIDES__INIT;
	struct run_policy *pol = calloc(1, sizeof(*pol));
	const char *ws_arg = NULL, *cwd_arg = ".";
	char cwd[PATH_MAX], ws[PATH_MAX];
	uint64_t ms;
	mode_t um;
	int c, r = EXIT_SBX;

	if (!pol)
		return EXIT_SBX;
	while ((c = getopt_long(argc, argv, "+w:C:", create_opts,
				NULL)) != -1) {
		if ((r = run_policy_flag(c, optarg, pol)) != 0) {
			if (r < 0)
				goto out;
			continue;
		}
		r = EXIT_SBX;
		switch (c) {
		case 'w':
			ws_arg = optarg;
			break;
		case 'C':
			cwd_arg = optarg;
			break;
		case 'i':
		case 'l':
			if (seconds_ms(optarg, &ms) < 0)
				goto out;
			if (c == 'i')
				cs.idle_timeout_ms = (uint32_t)ms;
			else
				cs.lifetime_ms = ms;
			break;
		default:
			cmd_bad_usage(&cmd_sandbox_entry, "");
			goto out;
		}
	}
	r = EXIT_SBX;
	if (optind != argc) {
		cmd_bad_usage(&cmd_sandbox_entry, "");
		goto out;
	}
	if (!realpath(cwd_arg, cwd) || !realpath(ws_arg ? ws_arg : cwd, ws)) {
		client_err("%s: %s", ws_arg ? ws_arg : cwd_arg,
			   strerror(errno));
		goto out;
	}
	/* The sandbox's request layer, for all its commands. */
	if (run_policy_overrides(pol, cwd, &po, &spec.overrides) < 0)
		goto out;
	spec.publish = (char **)pol->publish;
	spec.n_publish = pol->npublish;
	spec.cwd = cwd;
	spec.workspace = ws;
	um = umask(022);
	umask(um);
	spec.umask = um;
	spec.umask_set = true;
	cs.spec = &spec;
	env.msg_case = SBX__ENVELOPE__MSG_CREATE_SANDBOX;
	env.create_sandbox = &cs;
	if (call(ctx, &env, SBX__ENVELOPE__MSG_SANDBOX_CREATED, &rep) < 0)
		goto out;
	printf("%llu\n",
	       (unsigned long long)rep->sandbox_created->sandbox->id);
	wire_envelope_free(rep);
	r = 0;
out:
	run_policy_free(&po);
	free(pol);
	return r;
}

/* exec ID [run's options] -- CMD: `sbxctl run --sandbox ID ...`. */
static int
cmd_exec(const struct cmd_ctx *ctx, int argc, char **argv)
{
	char **v, opt[] = "--sandbox";
	uint64_t id;
	int i, r;

	if (argc < 3 || sandbox_id(argv[1], &id) < 0)
		return cmd_bad_usage(&cmd_sandbox_entry, "");
	if (!(v = calloc((size_t)argc + 2, sizeof(*v))))
		return EXIT_SBX;
	v[0] = argv[0];
	v[1] = opt;
	v[2] = argv[1];
	for (i = 2; i < argc; i++)
		v[i + 1] = argv[i];
	optind = 0;
	r = cmd_run_entry.fn(ctx, argc + 1, v);
	free(v);
	return r;
}

static void
print_json(const Sbx__SandboxList *l, const Sbx__SessionList *sl)
{
	json_t *arr = json_array();
	size_t i, j, k;

	for (i = 0; i < l->n_sandboxes; i++) {
		const Sbx__SandboxInfo *b = l->sandboxes[i];
		json_t *o = json_object(), *cmds = json_array();

		json_object_set_new(o, "id", json_integer((json_int_t)b->id));
		json_object_set_new(o, "pid", json_integer(b->pid));
		json_object_set_new(o, "workspace", json_string(b->workspace));
		json_object_set_new(o, "created_unix_ms", json_integer(
			(json_int_t)b->created_unix_ms));
		json_object_set_new(o, "commands", json_integer(b->commands));
		json_object_set_new(o, "execs",
				    json_integer((json_int_t)b->execs));
		json_object_set_new(o, "idle_ms",
				    json_integer((json_int_t)b->idle_ms));
		json_object_set_new(o, "idle_timeout_ms",
				    json_integer(b->idle_timeout_ms));
		json_object_set_new(o, "lifetime_ms",
				    json_integer((json_int_t)b->lifetime_ms));
		json_object_set_new(o, "published", json_array());
		for (k = 0; k < b->n_published; k++)
			json_array_append_new(json_object_get(o, "published"),
					      json_string(b->published[k]));
		for (j = 0; j < sl->n_sessions; j++) {
			const Sbx__SessionInfo *s = sl->sessions[j];
			json_t *c, *argv;

			if (s->sandbox_id != b->id || s->pid == b->pid)
				continue;
			c = json_object();
			argv = json_array();
			for (k = 0; k < s->n_argv; k++)
				json_array_append_new(argv,
						      json_string(s->argv[k]));
			json_object_set_new(c, "session",
					    json_integer((json_int_t)s->id));
			json_object_set_new(c, "argv", argv);
			json_array_append_new(cmds, c);
		}
		json_object_set_new(o, "running", cmds);
		json_array_append_new(arr, o);
	}
	json_dumpf(arr, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(arr);
}

static void
print_text(const Sbx__SandboxList *l, const Sbx__SessionList *sl)
{
	size_t i, j, k;

	printf("%-8s %-8s %-6s %-8s %-8s %s\n", "ID", "PID", "CMDS", "IDLE",
	       "TIMEOUT", "WORKSPACE");
	for (i = 0; i < l->n_sandboxes; i++) {
		const Sbx__SandboxInfo *b = l->sandboxes[i];

		printf("%-8llu %-8d %-6u %-8llu %-8u %s\n",
		       (unsigned long long)b->id, b->pid, b->commands,
		       (unsigned long long)(b->idle_ms / 1000),
		       b->idle_timeout_ms / 1000, b->workspace);
		for (k = 0; k < b->n_published; k++)
			printf("  published %s\n", b->published[k]);
		/* Its commands (the holder, whose pid is the sandbox's
		 * init, is the sandbox itself). */
		for (j = 0; j < sl->n_sessions; j++) {
			const Sbx__SessionInfo *s = sl->sessions[j];

			if (s->sandbox_id != b->id || s->pid == b->pid)
				continue;
			printf("  session %llu:", (unsigned long long)s->id);
			for (k = 0; k < s->n_argv; k++)
				printf(" %s", s->argv[k]);
			putchar('\n');
		}
	}
}

static int
cmd_ls(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL, *srep = NULL;
	Sbx__ListSandboxes req = SBX__LIST_SANDBOXES__INIT;
	Sbx__ListSessions sreq = SBX__LIST_SESSIONS__INIT;
	struct client c;
	int r;

	if (argc != 1)
		return cmd_bad_usage(&cmd_sandbox_entry, "");
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	env.msg_case = SBX__ENVELOPE__MSG_LIST_SANDBOXES;
	env.list_sandboxes = &req;
	r = client_call(&c, &env, SBX__ENVELOPE__MSG_SANDBOX_LIST, &rep);
	env.msg_case = SBX__ENVELOPE__MSG_LIST_SESSIONS;
	env.list_sessions = &sreq;
	if (r == 0)
		r = client_call(&c, &env, SBX__ENVELOPE__MSG_SESSION_LIST,
				&srep);
	client_close(&c);
	if (r == 0 && ctx->json)
		print_json(rep->sandbox_list, srep->session_list);
	else if (r == 0)
		print_text(rep->sandbox_list, srep->session_list);
	wire_envelope_free(rep);
	wire_envelope_free(srep);
	return r < 0 ? EXIT_SBX : 0;
}

static int
cmd_rm(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__DestroySandbox req = SBX__DESTROY_SANDBOX__INIT;
	int i, r = 0;

	if (argc < 2)
		return cmd_bad_usage(&cmd_sandbox_entry, "");
	for (i = 1; i < argc && r == 0; i++) {
		if (sandbox_id(argv[i], &req.sandbox_id) < 0)
			return EXIT_SBX;
		env.msg_case = SBX__ENVELOPE__MSG_DESTROY_SANDBOX;
		env.destroy_sandbox = &req;
		r = call(ctx, &env, SBX__ENVELOPE__MSG_ACK, &rep);
		wire_envelope_free(rep);
		rep = NULL;
	}
	return r < 0 ? EXIT_SBX : 0;
}

static int
cmd_sandbox(const struct cmd_ctx *ctx, int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return cmd_create(ctx, argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "exec"))
		return cmd_exec(ctx, argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "ls"))
		return cmd_ls(ctx, argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "rm"))
		return cmd_rm(ctx, argc - 1, argv + 1);
	cmd_print_help(stderr, &cmd_sandbox_entry, "");
	return EXIT_SBX;
}

const struct cmd_entry cmd_sandbox_entry = {
	.name = "sandbox",
	.usage = "sandbox create [--workspace DIR] [-C DIR] [--idle SEC] "
	"[--lifetime SEC]\n"
	"             [--allow-domain HOST] [--deny-read PATH] "
	"[--allow-write PATH] [--policy FILE]\n"
	"             [--publish [ADDR:]HOSTPORT[:SANDBOXPORT]]\n"
	"             | exec ID [run's options] -- CMD... | ls [--json] "
	"| rm ID...",
	.summary = "Long-lived sandboxes: create one (prints its id), run "
		   "commands in it (same processes, /tmp, network and "
		   "approvals), list them with their commands, destroy them.",
	.fn = cmd_sandbox,
	.shortopts = "+",
};
