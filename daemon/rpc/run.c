/* RunRequest: validate everything a client sent, then start a session. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/envfilter.h"
#include "daemon/policy/request.h"
#include "daemon/policy/store.h"
#include "daemon/policy/policy.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sbox.h"
#include "daemon/session.h"
#include "daemon/workspace.h"

#define RUN_MAX_ARGS 4096
#define RUN_MAX_WINSIZE 10000

static const char *
check_request(const Sbx__RunRequest *r, bool argv)
{
	size_t i;

	if (argv && (r->n_argv == 0 || !r->argv[0][0]))
		return "empty command";
	if (r->n_argv > RUN_MAX_ARGS || r->n_env > RUN_MAX_ARGS)
		return "too many arguments or environment entries";
	if (r->n_set_env > RUN_MAX_ARGS)
		return "too many environment entries";
	for (i = 0; i < r->n_env; i++)
		if (!envfilter_valid(r->env[i]))
			return "environment entry without NAME=";
	for (i = 0; i < r->n_set_env; i++)
		if (!envfilter_valid(r->set_env[i]))
			return "environment entry without NAME=";
	if (r->cwd[0] != '/')
		return "cwd must be an absolute path";
	if (r->workspace[0] && r->workspace[0] != '/')
		return "workspace must be an absolute path";
	if (strlen(r->cwd) >= PATH_MAX || strlen(r->workspace) >= PATH_MAX)
		return "path too long";
	if (r->winsize && (r->winsize->rows > RUN_MAX_WINSIZE ||
			   r->winsize->cols > RUN_MAX_WINSIZE))
		return "window size out of range";
	if (r->keep_on_disconnect &&
	    r->io_mode != SBX__IO_MODE__IO_MODE_STREAMING)
		return "keep_on_disconnect needs streaming mode (with fd "
		       "passing the client holds the command's stdio)";
	if (r->umask > 0777)
		return "umask out of range";
	if (r->io_mode == SBX__IO_MODE__IO_MODE_FD_PASSING) {
		if (r->fd_count != (r->tty ? 1u : 3u))
			return "fd passing needs 3 fds (1 with a tty)";
	} else if (r->io_mode == SBX__IO_MODE__IO_MODE_STREAMING) {
		if (r->fd_count != 0)
			return "streaming mode takes no fds";
	} else
		return "unknown I/O mode";
	return NULL;
}

/* The client hung up with its request still unread (the daemon was
 * stopped, or busy, while it gave up or was killed): nobody wants this
 * run, and a command nobody waits for must not start. A half-close
 * (shutdown of the client's writing side only) still reads the result. */
static bool
client_gone(const struct conn *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

static void
close_fds(int *fds, int nfds)
{
	while (nfds-- > 0)
		close(fds[nfds]);
}

int
rpc_run_prepare(struct conn *c, Sbx__RunRequest *req, bool argv, char *cwd,
		char *ws, struct policy **pol, int *fds, int nfds)
{
	char err[512] = "";
	const char *bad;
	int r;

	if ((bad = check_request(req, argv))) {
		close_fds(fds, nfds);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", bad);
		return -1;
	}
	r = workspace_resolve(req->cwd, cwd, PATH_MAX);
	/* sbxctl names its cwd as the workspace unless told otherwise: the
	 * same path, resolved once (the request's path is on every run's). */
	if (r == 0 && (!req->workspace[0] || !strcmp(req->workspace, req->cwd)))
		memcpy(ws, cwd, PATH_MAX);
	else if (r == 0)
		r = workspace_resolve(req->workspace, ws, PATH_MAX);
	if (r == 0 && !strcmp(ws, "/"))
		r = -EPERM;
	if (r < 0) {
		close_fds(fds, nfds);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace or cwd: %s", r == -EPERM ?
			   "/ cannot be the workspace" : strerror(-r));
		return -1;
	}
	/* The request layer: refused when it does not parse, rather than run
	 * with less policy than was asked for. */
	r = policy_request_from_overrides(req->overrides, policy_store_home(),
					  ws, pol, err, sizeof(err));
	if (r < 0) {
		close_fds(fds, nfds);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", err);
		return -1;
	}
	req->cwd = cwd;
	req->workspace = ws;
	if (client_gone(c)) {
		policy_free(*pol);
		*pol = NULL;
		close_fds(fds, nfds);
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "the client left before its run started");
		return -1;
	}
	return 0;
}

/* A command for a long-lived sandbox: its policy is the sandbox's, and
 * its cwd is a path inside it (its own /tmp included), where the command
 * changes to it; the workspace the client names must be the sandbox's. */
static void
rpc_exec(struct conn *c, Sbx__RunRequest *req, int *fds, int nfds)
{
	char ws[PATH_MAX], err[512] = "";
	Sbx__ErrorCode code;
	const char *bad;
	int r;

	bad = check_request(req, true);
	if (!bad && req->overrides &&
	    sbx__policy_overrides__get_packed_size(req->overrides) > 0)
		bad = "a sandbox's policy is set when it is created: no "
		      "overrides with sandbox_id";
	if (!bad && req->n_publish > 0)
		bad = "a sandbox's ports are published when it is created: "
		      "no publish with sandbox_id";
	if (bad) {
		close_fds(fds, nfds);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", bad);
		return;
	}
	if (req->workspace[0] &&
	    (r = workspace_resolve(req->workspace, ws, sizeof(ws))) < 0) {
		close_fds(fds, nfds);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace: %s", strerror(-r));
		return;
	}
	if (req->workspace[0])
		req->workspace = ws;
	if (client_gone(c)) {
		close_fds(fds, nfds);
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "the client left before its run started");
		return;
	}
	if (sbox_exec(c, req, fds, nfds, &code, err, sizeof(err)) < 0)
		conn_error(c, code, "%s", err);
}

static void
rpc_run(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__RunRequest req = *env->run;
	char ws[PATH_MAX], cwd[PATH_MAX], err[512] = "";
	struct policy *pol = NULL;
	Sbx__ErrorCode code;
	int fds[FDPASS_MAX], r, nfds;

	/* The fds come first: whatever else is wrong, the ones sent with
	 * this frame must not be left for a later one. A count that does not
	 * match means fds and frames no longer line up: the stream is lost. */
	nfds = (int)req.fd_count;
	if (nfds > FDPASS_MAX || conn_take_fds(c, nfds, fds) < 0) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_FRAME,
			  "expected %d file descriptors with the request",
			  nfds);
		return;
	}
	if (req.sandbox_id) {
		rpc_exec(c, &req, fds, nfds);
		return;
	}
	if (rpc_run_prepare(c, &req, true, cwd, ws, &pol, fds, nfds) < 0)
		return;
	r = session_start(c, &req, pol, fds, nfds, &code, err, sizeof(err));
	policy_free(pol);
	if (r < 0 && r != -EINPROGRESS)
		conn_error(c, code, "%s", err);
}

const struct rpc_entry rpc_run_entry = {
	SBX__ENVELOPE__MSG_RUN, RPC_NEW_ID, rpc_run,
};
