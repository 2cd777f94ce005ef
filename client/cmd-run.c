/* sbxctl run: run a command in the sandbox, behaving like the command. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/cmd.h"
#include "client/relay.h"
#include "client/tty.h"

extern char **environ;

#define RUN_MAX_SETENV 256
#define RUN_MAX_DOMAINS 256
/* The daemon's limit for one policy document (policy.h). */
#define RUN_POLICY_MAX (256 * 1024)

struct run_opts {
	bool tty, stream;
	const char *cwd, *workspace;
	const char *setenv[RUN_MAX_SETENV];
	int nsetenv;
	unsigned timeout_ms;
	char *allow_domains[RUN_MAX_DOMAINS];
	size_t ndomains;
	const char *policy;
	enum ask_mode on_ask;
};

static int
parse(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "tty", no_argument, NULL, 't' },
		{ "stream", no_argument, NULL, 'S' },
		{ "env", required_argument, NULL, 'e' },
		{ "cwd", required_argument, NULL, 'C' },
		{ "workspace", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "allow-domain", required_argument, NULL, 'D' },
		{ "policy", required_argument, NULL, 'P' },
		{ "on-ask", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	double secs;
	int c;

	while ((c = getopt_long(argc, argv, "+te:C:", opts, NULL)) != -1) {
		switch (c) {
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
		case 'w':
			o->workspace = optarg;
			break;
		case 'T':
			secs = strtod(optarg, &end);
			if (*end || secs <= 0 || secs > 86400 * 7) {
				client_err("bad --timeout: %s", optarg);
				return -EINVAL;
			}
			o->timeout_ms = (unsigned)(secs * 1000);
			break;
		case 'D':
			if (o->ndomains >= RUN_MAX_DOMAINS) {
				client_err("too many --allow-domain");
				return -EINVAL;
			}
			o->allow_domains[o->ndomains++] = optarg;
			break;
		case 'P':
			o->policy = optarg;
			break;
		case 'A':
			if (!strcmp(optarg, "prompt"))
				o->on_ask = ASK_PROMPT;
			else if (!strcmp(optarg, "deny"))
				o->on_ask = ASK_DENY;
			else {
				client_err("--on-ask is prompt or deny");
				return -EINVAL;
			}
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind >= argc) {
		client_err("run: no command given");
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

/* The --policy file, whole, for the daemon to parse as a request layer. */
static int
read_policy(const char *path, char **out)
{
	char *buf = malloc(RUN_POLICY_MAX + 1);
	size_t len = 0;
	ssize_t n;
	int fd, r = 0;

	if (!buf)
		return -ENOMEM;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		r = -errno;
		client_err("--policy %s: %s", path, strerror(errno));
		free(buf);
		return r;
	}
	while ((n = read(fd, buf + len, RUN_POLICY_MAX + 1 - len)) > 0 &&
	       (len += (size_t)n) <= RUN_POLICY_MAX)
		;
	if (n < 0)
		r = -errno;
	else if (len > RUN_POLICY_MAX)
		r = -EFBIG;
	else if (memchr(buf, '\0', len))
		r = -EINVAL;
	close(fd);
	if (r < 0) {
		client_err("--policy %s: %s", path, r == -EFBIG ?
			   "larger than 256 KiB" : r == -EINVAL ?
			   "contains a NUL byte" : strerror(-r));
		free(buf);
		return r;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int
send_request(struct client *c, const struct run_opts *o, char **argv,
	     int argc, int *master)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	Sbx__WindowSize w = SBX__WINDOW_SIZE__INIT;
	Sbx__PolicyOverrides ov = SBX__POLICY_OVERRIDES__INIT;
	char cwd[PATH_MAX], ws[PATH_MAX], pfile[PATH_MAX], *pjson = NULL;
	int fds[3] = { 0, 1, 2 }, nfds = 0, slave = -1, r;
	struct winsize size;
	size_t nenv;

	if (resolve(o->cwd ? o->cwd : ".", cwd) < 0 ||
	    resolve(o->workspace ? o->workspace : cwd, ws) < 0)
		return -EINVAL;
	if (o->policy && (resolve(o->policy, pfile) < 0 ||
			  read_policy(pfile, &pjson) < 0))
		return -EINVAL;
	if (o->ndomains || pjson) {
		ov.allow_domains = (char **)o->allow_domains;
		ov.n_allow_domains = o->ndomains;
		ov.policy_json = pjson ? pjson : (char *)"";
		ov.policy_file = pjson ? pfile : (char *)"";
		req.overrides = &ov;
	}
	req.argv = argv;
	req.n_argv = (size_t)argc;
	req.env = make_env(o, &nenv);
	if (!req.env) {
		free(pjson);
		return -ENOMEM;
	}
	req.n_env = nenv;
	req.set_env = (char **)o->setenv;
	req.n_set_env = (size_t)o->nsetenv;
	req.cwd = cwd;
	req.workspace = ws;
	req.tty = o->tty;
	req.timeout_ms = o->timeout_ms;
	req.umask = umask(022);
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
			free(pjson);
			return r;
		}
		fds[0] = slave;
		nfds = 1;
	} else if (!o->stream)
		nfds = 3;
	req.fd_count = (uint32_t)nfds;
	env.msg_case = SBX__ENVELOPE__MSG_RUN;
	env.run = &req;
	r = client_send(c, &env, fds, nfds);
	free(req.env);
	free(pjson);
	if (slave >= 0)
		close(slave);
	if (r < 0)
		client_err("sending the request: %s", strerror(-r));
	return r;
}

static int
cmd_run(const struct cmd_ctx *ctx, int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct relay_opts ro = { .master = -1 };
	struct client c;
	int first, code;

	if ((first = parse(argc, argv, &o)) < 0)
		return EXIT_SBX;
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	if (send_request(&c, &o, argv + first, argc - first, &ro.master) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	ro.tty = o.tty;
	ro.stream = o.stream;
	ro.on_ask = o.on_ask;
	code = relay_run(&c, &ro);
	if (ro.master >= 0)
		close(ro.master);
	client_close(&c);
	return code;
}

const struct cmd_entry cmd_run_entry = {
	"run",
	"run [-t|--tty] [--stream] [-e K=V] [-C DIR] [--workspace DIR] "
	"[--timeout SEC]\n"
	"             [--allow-domain D]... [--policy FILE] "
	"[--on-ask=prompt|deny] -- CMD...",
	cmd_run,
};
