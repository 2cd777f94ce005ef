/* sbxctl policy show: the effective policy of a workspace and where each
 * rule came from. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "client/cmd-policy.h"

/* One rule: its value (whatever its item key), then where it came from. */
static void
print_rule(json_t *r)
{
	const char *key, *from = json_string_value(json_object_get(r, "from"));
	const char *id = json_string_value(json_object_get(r, "id"));
	const char *within = json_string_value(json_object_get(r, "within"));
	json_t *v;

	json_object_foreach(r, key, v)
		if (!strcmp(key, "path") || !strcmp(key, "domain") ||
		    !strcmp(key, "name"))
			printf("  %s%s\n", json_string_value(v),
			    json_is_true(json_object_get(r, "allowPrivate")) ?
			    " (allowPrivate)" : "");
	printf("      from %s%s%s%s%s\n", from ? from : "?", id ? ", id " : "",
	       id ? id : "", within ? ", within " : "", within ? within : "");
}

static void
print_entry(const char *name, json_t *v)
{
	size_t i;
	json_t *r;

	if (json_is_array(v)) {
		printf("%s:%s\n", name, json_array_size(v) ? "" : " (none)");
		json_array_foreach(v, i, r)
			print_rule(r);
	} else if (json_is_object(v) && json_object_get(v, "value")) {
		r = json_object_get(v, "value");
		printf("%s: %s\n      from %s\n", name,
		       json_is_string(r) ? json_string_value(r) :
		       json_is_true(r) ? "true" : "false",
		       json_string_value(json_object_get(v, "from")));
	} else if (json_is_integer(v))
		printf("%s: %lld\n", name, (long long)json_integer_value(v));
}

/* Sections ("filesystem": {...}) one level down, in key order. */
static void
print_text(const char *text)
{
	json_t *root = json_loads(text, 0, NULL), *v, *w;
	const char *k, *k2;
	char name[256];

	json_object_foreach(root, k, v) {
		if (json_is_object(v) && !json_object_get(v, "value")) {
			json_object_foreach(v, k2, w) {
				snprintf(name, sizeof(name), "%s.%s", k, k2);
				print_entry(name, w);
			}
		} else
			print_entry(k, v);
	}
	json_decref(root);
}

static const struct option opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_policy_show(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__PolicyShow req = SBX__POLICY_SHOW__INIT;
	const char *wsdir = NULL;
	char ws[PATH_MAX];
	struct client c;
	int ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 'w')
			wsdir = optarg;
		else
			return cmd_bad_usage(&cmd_policy_show_entry, "policy ");
	}
	if (optind != argc) {
		client_err("usage: sbxctl policy %s", cmd_policy_show_entry.usage);
		return EXIT_SBX;
	}
	if (cmd_policy_workspace(wsdir, ws) < 0)
		return EXIT_SBX;
	req.workspace = ws;
	env.msg_case = SBX__ENVELOPE__MSG_POLICY_SHOW;
	env.policy_show = &req;
	if (cmd_policy_call(ctx, &c, &env, SBX__ENVELOPE__MSG_POLICY_SHOW_REPLY,
			    &rep) < 0)
		return EXIT_SBX;
	if (ctx->json)
		printf("%s\n", rep->policy_show_reply->json);
	else
		print_text(rep->policy_show_reply->json);
	wire_envelope_free(rep);
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_policy_show_entry = {
	.name = "show",
	.usage = "show [--workspace DIR] [--json]",
	.summary = "Print the effective policy of a workspace, each rule with "
		   "its layer and file:line:col.",
	.fn = cmd_policy_show,
	.opts = opts,
	.shortopts = "",
};
