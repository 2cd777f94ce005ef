/* sbxctl policy check (lint): a policy file parsed and validated here, then
 * merged by sbxd below its current higher layers, which says what of the
 * file would be cut. Exits 1 when the file has errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd-policy.h"
#include "client/file.h"
#include "daemon/policy.h"

enum { OPT_LAYER = 0x100, OPT_LOCAL };

struct lint {
	const char *file;
	char *buf;
	size_t len;
	enum policy_layer layer;
	char ws[PATH_MAX];
	size_t errors;
};

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
note_missing(const struct policy *p)
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
			printf("%s:%d:%d: note: %s \"%s\": no such file or "
			       "directory\n", r->origin.file, r->origin.line,
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
		printf("%s\n", d.v[i].msg);
	if (d.errors > d.n)
		printf("%s: error: %zu more errors\n", l->file, d.errors - d.n);
	if (r == 0)
		note_missing(p);
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
		fprintf(stderr, "%s: note: not checked against the layers "
			"above (no answer from sbxd)\n", l->file);
		return;
	}
	lr = rep->policy_lint_reply;
	for (i = 0; i < lr->n_diagnostics; i++)
		printf("%s\n", lr->diagnostics[i]);
	l->errors += lr->errors;
	wire_envelope_free(rep);
	client_close(&c);
}

static int
cmd_policy_lint(const struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "layer", required_argument, NULL, OPT_LAYER },
		{ "workspace", required_argument, NULL, 'w' },
		{ "local", no_argument, NULL, OPT_LOCAL },
		{ NULL, 0, NULL, 0 },
	};
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
			return EXIT_SBX;
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
	if (lint_local(&l) == 0 && !local)
		lint_daemon(ctx, &l);
	free(l.buf);
	return l.errors ? 1 : 0;
}

const struct cmd_entry cmd_policy_lint_entry = {
	"lint",
	"lint FILE [--layer org|user|workspace|request] [--workspace DIR] "
	"[--local]",
	cmd_policy_lint,
};

/* The man page's name for it. */
const struct cmd_entry cmd_policy_check_entry = {
	"check", "check FILE ...   (the same as lint)", cmd_policy_lint,
};
