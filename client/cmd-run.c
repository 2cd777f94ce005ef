/* sbxctl run: run a command in the sandbox, behaving like the command. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd.h"
#include "client/file.h"
#include "client/relay.h"
#include "client/run-policy.h"
#include "client/tty.h"
#include "daemon/policy/policy.h"

extern char **environ;

#define RUN_MAX_SETENV 256

struct run_opts {
	bool tty, stream;
	const char *cwd, *workspace;
	const char *setenv[RUN_MAX_SETENV];
	int nsetenv;
	unsigned timeout_ms;
	unsigned kill_after_ms;
	unsigned keep_ms;      /* --keep: detach grace; 0: dies with us */
	struct run_policy policy;
	enum ask_mode on_ask;
	bool quiet;
	uint64_t sandbox;      /* --sandbox: run in this long-lived one */
};

enum {
	OPT_ON_ASK = 0x100,
	OPT_KILL_AFTER,
	OPT_KEEP,
	OPT_SANDBOX,
};

/* --json is a global option: ctx->json asks for the summary as JSON. */
static const struct option opts[] = {
	{ "tty", no_argument, NULL, 't' },
	{ "stream", no_argument, NULL, 'S' },
	{ "env", required_argument, NULL, 'e' },
	{ "cwd", required_argument, NULL, 'C' },
	{ "workspace", required_argument, NULL, 'w' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "kill-after", required_argument, NULL, OPT_KILL_AFTER },
	{ "keep", required_argument, NULL, OPT_KEEP },
	RUN_POLICY_OPTIONS,
	{ "on-ask", required_argument, NULL, OPT_ON_ASK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "sandbox", required_argument, NULL, OPT_SANDBOX },
	{ NULL, 0, NULL, 0 },
};

static int
parse(int argc, char **argv, struct run_opts *o)
{
	char *end;
	double secs;
	unsigned ms;
	int c, r;

	while ((c = getopt_long(argc, argv, cmd_run_entry.shortopts, opts,
				NULL)) != -1) {
		if ((r = run_policy_flag(c, optarg, &o->policy)) != 0) {
			if (r < 0)
				return r;
			continue;
		}
		switch (c) {
		case 'q':
			o->quiet = true;
			break;
		case 't':
			o->tty = true;
			break;
		case 'S':
			o->stream = true;
			break;
		case 'e':
			if (!strchr(optarg, '=') || optarg[0] == '=' ||
			    o->nsetenv >= RUN_MAX_SETENV) {
				client_err("-e needs NAME=VALUE");
				return -EINVAL;
			}
			o->setenv[o->nsetenv++] = optarg;
			break;
		case 'C':
			o->cwd = optarg;
			break;
		case OPT_SANDBOX:
			o->sandbox = strtoull(optarg, &end, 10);
			if (*end || !o->sandbox) {
				client_err("bad sandbox id: %s", optarg);
				return -EINVAL;
			}
			break;
		case 'w':
			o->workspace = optarg;
			break;
		case OPT_ON_ASK:
			if (!strcmp(optarg, "prompt"))
				o->on_ask = ASK_PROMPT;
			else if (!strcmp(optarg, "deny"))
				o->on_ask = ASK_DENY;
			else {
				client_err("--on-ask is prompt or deny");
				return -EINVAL;
			}
			break;
		case 'T':
		case OPT_KILL_AFTER:
		case OPT_KEEP:
			secs = strtod(optarg, &end);
			if (*end || secs <= 0 || secs > 86400 * 7) {
				client_err("bad number of seconds: %s", optarg);
				return -EINVAL;
			}
			ms = (unsigned)(secs * 1000);
			*(c == 'T' ? &o->timeout_ms : c == OPT_KEEP ?
			  &o->keep_ms : &o->kill_after_ms) = ms ? ms : 1;
			break;
		default:
			cmd_bad_usage(&cmd_run_entry, "");
			return -EINVAL;
		}
	}
	if (optind >= argc) {
		client_err("run: no command given");
		return -EINVAL;
	}
	if (o->keep_ms && !o->stream) {
		client_err("--keep needs --stream (the daemon then holds the "
			   "command's stdio)");
		return -EINVAL;
	}
	return optind;
}

/* Our environment minus the names -e sets (those travel in set_env). */
static char **
make_env(const struct run_opts *o, size_t *n)
{
	size_t cap = 1, i, k = 0;
	char **env;
	int j;

	for (i = 0; environ[i]; i++)
		cap++;
	env = calloc(cap, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; environ[i]; i++) {
		size_t len = strcspn(environ[i], "=");
		bool replaced = false;

		for (j = 0; j < o->nsetenv; j++)
			if (!strncmp(o->setenv[j], environ[i], len + 1))
				replaced = true;
		if (!replaced)
			env[k++] = environ[i];
	}
	*n = k;
	return env;
}

static int
resolve(const char *in, char *out)
{
	if (!realpath(in, out)) {
		client_err("%s: %s", in, strerror(errno));
		return -errno;
	}
	return 0;
}

static int
send_request(struct client *c, const struct run_opts *o, char **argv,
	     int argc, int *master)
{
	Sbx__PolicyOverrides po = SBX__POLICY_OVERRIDES__INIT;
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	Sbx__WindowSize w = SBX__WINDOW_SIZE__INIT;
	char cwd[PATH_MAX], ws[PATH_MAX];
	int fds[3] = { 0, 1, 2 }, nfds = 0, slave = -1, r;
	struct winsize size;
	size_t nenv;

	if (o->sandbox) {
		/* In a long-lived sandbox -C is a path inside it (its /tmp
		 * is its own), entered there; the workspace we are in is
		 * where we are, to be the sandbox's or under it. */
		if (resolve(o->workspace ? o->workspace : ".", ws) < 0 ||
		    (o->cwd && o->cwd[0] != '/' &&
		     snprintf(cwd, sizeof(cwd), "%s/%s", ws, o->cwd) >=
		     (int)sizeof(cwd)))
			return -EINVAL;
		if (o->cwd && o->cwd[0] == '/')
			snprintf(cwd, sizeof(cwd), "%s", o->cwd);
		else if (!o->cwd && resolve(".", cwd) < 0)
			return -EINVAL;
	} else if (resolve(o->cwd ? o->cwd : ".", cwd) < 0 ||
		   resolve(o->workspace ? o->workspace : cwd, ws) < 0)
		return -EINVAL;
	if ((r = run_policy_overrides(&o->policy, cwd, &po, &req.overrides)) < 0) {
		run_policy_free(&po);
		return r;
	}
	req.publish = (char **)o->policy.publish;
	req.n_publish = o->policy.npublish;
	req.argv = argv;
	req.n_argv = (size_t)argc;
	req.env = make_env(o, &nenv);
	if (!req.env) {
		run_policy_free(&po);
		return -ENOMEM;
	}
	req.n_env = nenv;
	req.set_env = (char **)o->setenv;
	req.n_set_env = (size_t)o->nsetenv;
	req.cwd = cwd;
	req.workspace = ws;
	req.tty = o->tty;
	req.timeout_ms = o->timeout_ms;
	req.kill_grace_ms = o->kill_after_ms;
	req.keep_on_disconnect = o->keep_ms > 0;
	req.detach_grace_ms = o->keep_ms;
	req.umask = umask(022);
	req.umask_set = true;
	req.stdin_credit = o->stream;
	/* In a long-lived sandbox: its policy is the sandbox's, and the
	 * workspace we are in must be it (or inside it). */
	req.sandbox_id = o->sandbox;
	umask((mode_t)req.umask);
	tty_winsize(&size);
	w.rows = size.ws_row;
	w.cols = size.ws_col;
	req.winsize = &w;
	req.io_mode = o->stream ? SBX__IO_MODE__IO_MODE_STREAMING :
				  SBX__IO_MODE__IO_MODE_FD_PASSING;
	if (!o->stream && o->tty) {
		if ((r = tty_openpty(master, &slave)) < 0) {
			client_err("cannot allocate a pty: %s", strerror(-r));
			free(req.env);
			run_policy_free(&po);
			return r;
		}
		fds[0] = slave;
		nfds = 1;
	} else if (!o->stream)
		nfds = 3;
	req.fd_count = (uint32_t)nfds;
	env.msg_case = SBX__ENVELOPE__MSG_RUN;
	env.run = &req;
	env.request_id = RELAY_REQUEST_ID;
	r = client_send(c, &env, fds, nfds);
	free(req.env);
	run_policy_free(&po);
	if (slave >= 0)
		close(slave);
	/* A daemon that refused us has said why: client_hello_reply(). */
	if (r < 0 && r != -EPIPE && r != -ECONNRESET && !client_timed_out(c, r))
		client_err("sending the request: %s", strerror(-r));
	return r;
}

/* After a failed command that ran git: when the workspace lies inside a
 * git repository, git in the sandbox cannot write it (it stops at the
 * workspace's mount, or gets EROFS with GIT_DISCOVERY_ACROSS_FILESYSTEM),
 * and the way to commit is to make the repository the workspace. Said
 * only then: a fact that can explain the failure. */
static void
enclosing_repo_note(const struct run_opts *o, char **argv, int argc)
{
	char ws[PATH_MAX], git[PATH_MAX + 8], *slash;
	struct stat st;
	bool ran_git = false;
	int i;

	for (i = 0; i < argc && !ran_git; i++)
		ran_git = strstr(argv[i], "git") != NULL;
	if (!ran_git || resolve(o->workspace ? o->workspace : o->cwd ?
				o->cwd : ".", ws) < 0)
		return;
	snprintf(git, sizeof(git), "%s/.git", ws);
	if (lstat(git, &st) == 0)
		return; /* the workspace is a repository's top itself */
	while ((slash = strrchr(ws, '/')) != NULL && slash != ws) {
		*slash = '\0';
		snprintf(git, sizeof(git), "%s/.git", ws);
		if (lstat(git, &st) == 0) {
			fprintf(stderr, "sbx: the workspace is inside the git "
				"repository %s, which git in the sandbox cannot "
				"write (it stops at the workspace, or gets a "
				"read-only file system); to commit, run with "
				"--workspace %s\n", ws, ws);
			return;
		}
	}
}

static int
cmd_run(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct relay_opts ro = { .master = -1 };
	struct client c;
	int first, code, r;

	if ((first = parse(argc, argv, &o)) < 0)
		return EXIT_SBX;
	/* Hello and the request go together: no round trip before the
	 * daemon starts on the run. */
	if (client_open_pipelined(ctx, &c) < 0)
		return EXIT_SBX;
	r = send_request(&c, &o, argv + first, argc - first, &ro.master);
	if (c.hello_queued || r == -EAGAIN) {
		/* Refused before anything was sent (it said why), or the
		 * daemon took nothing before the deadline. */
		client_close(&c);
		return EXIT_SBX;
	}
	if (client_hello_reply(&c) == 0 && (r == -EPIPE || r == -ECONNRESET))
		client_err("sending the request: %s", strerror(-r));
	if (!c.hello || r < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	ro.tty = o.tty;
	ro.stream = o.stream;
	ro.on_ask = o.on_ask;
	ro.quiet = o.quiet;
	ro.json = ctx->json;
	ro.request_id = RELAY_REQUEST_ID;
	/* A daemon without credit never sends any: paced the old way. */
	ro.credit = o.stream && client_has_feature(&c, "stdin-credit");
	code = relay_run(&c, &ro);
	if (code != 0 && code != EXIT_SBX && !o.quiet && !ctx->json)
		enclosing_repo_note(&o, argv + first, argc - first);
	if (ro.master >= 0)
		close(ro.master);
	client_close(&c);
	return code;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.usage = "run [-t|--tty] [--stream [--keep SEC]] [-e K=V] [-C DIR] "
	"[--workspace DIR]\n"
	"             [--timeout SEC [--kill-after SEC]]\n"
	"             [--allow-domain HOST] [--deny-read PATH] "
	"[--allow-write PATH]\n"
	"             [--publish [ADDR:]HOSTPORT[:SANDBOXPORT]]\n"
	"             [--policy FILE] [--on-ask=prompt|deny] "
	"[-q|--quiet] [--json]\n"
	"             [--sandbox ID] -- CMD...",
	.summary = "Run CMD in a sandbox whose writable root is the workspace; "
		   "exit with its status.",
	.fn = cmd_run,
	.opts = opts,
	.shortopts = "+te:C:q",
};
