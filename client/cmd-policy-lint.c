/* sbxctl policy check (lint): a policy file parsed and validated here, then
 * merged by sbxd below its current higher layers, which says what of the
 * file would be cut. Exits 1 when the file has errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd-policy.h"
#include "client/file.h"
#include "daemon/policy/policy.h"

enum { OPT_LAYER = 0x100, OPT_LOCAL };

struct lint {
	const char *file;
	char *buf;
	size_t len;
	enum policy_layer layer;
	char ws[PATH_MAX];
	size_t errors;
	json_t *diags; /* --json: the lines, printed as one object at the end */
	bool daemon;   /* the daemon checked it against the layers above */
};

/* One diagnostic line, printed now or kept for the JSON output. */
static void __attribute__((format(printf, 2, 3)))
say(struct lint *l, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (l->diags)
		json_array_append_new(l->diags, json_string(line));
	else
		printf("%s\n", line);
}

static int
parse_layer(const char *s, enum policy_layer *out)
{
	int l;

	for (l = POLICY_LAYER_ORG; l < POLICY_NLAYERS; l++)
		if (!strcmp(s, policy_layer_name((enum policy_layer)l))) {
			*out = (enum policy_layer)l;
			return 0;
		}
	client_err("--layer is org, user, workspace or request");
	return -EINVAL;
}

/* Unless told: a WS/.sbx/policy.json is the workspace layer of WS, any
 * other file the user layer. */
static int
defaults(struct lint *l, const char *wsdir, bool layer_set)
{
	char path[PATH_MAX], *p;
	size_t n;

	if (!realpath(l->file, path))
		return cmd_policy_workspace(wsdir, l->ws);
	n = strlen(path);
	p = n > 17 && !strcmp(path + n - 17, "/.sbx/policy.json") ?
		path + n - 17 : NULL;
	if (p && !layer_set)
		l->layer = POLICY_LAYER_WORKSPACE;
	if (p && !wsdir && l->layer == POLICY_LAYER_WORKSPACE) {
		*p = '\0';
		return cmd_policy_workspace(path[0] ? path : "/", l->ws);
	}
	return cmd_policy_workspace(wsdir, l->ws);
}

/* A grant for a path that does not exist is most often a typo. */
static void
note_missing(struct lint *l, const struct policy *p)
{
	static const enum policy_list grants[] = { POLICY_ALLOW_WRITE,
						   POLICY_ALLOW_READ,
						   POLICY_UNIX_SOCKETS };
	const struct policy_rule *r;
	struct stat st;
	size_t g, i;

	for (g = 0; g < sizeof(grants) / sizeof(grants[0]); g++)
		for (i = 0; i < p->lists[grants[g]].n; i++) {
			r = &p->lists[grants[g]].v[i];
			if ((r->flags & POLICY_RULE_GLOB) ||
			    lstat(r->value, &st) == 0 || errno != ENOENT)
				continue;
			say(l, "%s:%d:%d: note: %s \"%s\": no such file or "
			    "directory", r->origin.file, r->origin.line,
			    r->origin.col, policy_list_info(grants[g])->name,
			    r->value);
		}
}

static int
lint_local(struct lint *l)
{
	struct passwd *pw = getpwuid(getuid());
	const char *home = getenv("HOME");
	struct policy_ctx ctx = { l->layer, l->file, NULL, l->ws };
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	size_t i;
	int r;

	ctx.home = home && home[0] == '/' ? home : pw ? pw->pw_dir : "/";
	r = policy_parse(l->buf, l->len, &ctx, &p, &d);
	for (i = 0; i < d.n; i++)
		say(l, "%s", d.v[i].msg);
	if (d.errors > d.n)
		say(l, "%s: error: %zu more errors", l->file, d.errors - d.n);
	if (r == 0)
		note_missing(l, p);
	l->errors += d.errors ? d.errors : r < 0;
	policy_diag_free(&d);
	policy_free(p);
	return r;
}

/* The layers above, as the daemon has them now. */
static void
lint_daemon(const struct cmd_ctx *ctx, struct lint *l)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__PolicyLint req = SBX__POLICY_LINT__INIT;
	const Sbx__PolicyLintReply *lr;
	struct client c;
	size_t i;

	req.policy.data = (uint8_t *)l->buf;
	req.policy.len = l->len;
	req.file = (char *)l->file;
	req.layer = (Sbx__PolicyLayer)l->layer;
	req.workspace = l->ws;
	env.msg_case = SBX__ENVELOPE__MSG_POLICY_LINT;
	env.policy_lint = &req;
	if (cmd_policy_call(ctx, &c, &env, SBX__ENVELOPE__MSG_POLICY_LINT_REPLY,
			    &rep) < 0) {
		if (!l->diags)
			fprintf(stderr, "%s: note: not checked against the "
				"layers above (no answer from sbxd)\n",
				l->file);
		return;
	}
	lr = rep->policy_lint_reply;
	for (i = 0; i < lr->n_diagnostics; i++)
		say(l, "%s", lr->diagnostics[i]);
	l->errors += lr->errors;
	l->daemon = true;
	wire_envelope_free(rep);
	client_close(&c);
}

static const struct option opts[] = {
	{ "layer", required_argument, NULL, OPT_LAYER },
	{ "workspace", required_argument, NULL, 'w' },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ NULL, 0, NULL, 0 },
};

static void
print_json(const struct lint *l)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:b, s:O}", "file", l->file,
			      "layer", policy_layer_name(l->layer),
			      "workspace", l->ws, "errors",
			      (json_int_t)l->errors, "checked_by_daemon",
			      l->daemon, "diagnostics", l->diags);

	if (o)
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static int
cmd_policy_lint(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct lint l = { .layer = POLICY_LAYER_USER };
	const char *wsdir = NULL;
	bool local = false, layer_set = false;
	int ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == OPT_LAYER) {
			if (parse_layer(optarg, &l.layer) < 0)
				return EXIT_SBX;
			layer_set = true;
		} else if (ch == 'w')
			wsdir = optarg;
		else if (ch == OPT_LOCAL)
			local = true;
		else
			return cmd_bad_usage(&cmd_policy_lint_entry, "policy ");
	}
	if (optind != argc - 1) {
		client_err("usage: sbxctl policy %s", cmd_policy_lint_entry.usage);
		return EXIT_SBX;
	}
	l.file = argv[optind];
	if (file_read(l.file, POLICY_MAX_BYTES, &l.buf, &l.len) < 0 ||
	    defaults(&l, wsdir, layer_set) < 0) {
		free(l.buf);
		return EXIT_SBX;
	}
	if (ctx->json && !(l.diags = json_array())) {
		free(l.buf);
		return EXIT_SBX;
	}
	if (lint_local(&l) == 0 && !local)
		lint_daemon(ctx, &l);
	if (l.diags)
		print_json(&l);
	json_decref(l.diags);
	free(l.buf);
	return l.errors ? 1 : 0;
}

#define LINT_USAGE "FILE [--layer org|user|workspace|request] " \
	"[--workspace DIR] [--local] [--json]"

const struct cmd_entry cmd_policy_lint_entry = {
	.name = "lint",
	.usage = "lint " LINT_USAGE,
	.summary = "The same as check.",
	.fn = cmd_policy_lint,
	.opts = opts,
	.shortopts = "",
};

/* The man page's name for it. */
const struct cmd_entry cmd_policy_check_entry = {
	.name = "check",
	.usage = "check " LINT_USAGE,
	.summary = "Validate a policy file, then ask sbxd what a merge below "
		   "its higher layers would cut; exit 1 on errors.",
	.fn = cmd_policy_lint,
	.opts = opts,
	.shortopts = "",
};
