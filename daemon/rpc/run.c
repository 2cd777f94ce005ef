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
#include "daemon/session.h"
#include "daemon/workspace.h"

#define RUN_MAX_ARGS 4096
#define RUN_MAX_WINSIZE 10000

static const char *
check_request(const Sbx__RunRequest *r)
{
	size_t i;

	if (r->n_argv == 0 || !r->argv[0][0])
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
rpc_run(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__RunRequest req = *env->run;
	char ws[PATH_MAX], cwd[PATH_MAX], err[512] = "";
	struct policy *pol = NULL;
	Sbx__ErrorCode code;
	const char *bad;
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
	if ((bad = check_request(&req))) {
		for (nfds--; nfds >= 0; nfds--)
			close(fds[nfds]);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", bad);
		return;
	}
	r = workspace_resolve(req.cwd, cwd, sizeof(cwd));
	/* sbxctl names its cwd as the workspace unless told otherwise: the
	 * same path, resolved once (the request's path is on every run's). */
	if (r == 0 && (!req.workspace[0] || !strcmp(req.workspace, req.cwd)))
		memcpy(ws, cwd, sizeof(ws));
	else if (r == 0)
		r = workspace_resolve(req.workspace, ws, sizeof(ws));
	if (r == 0 && !strcmp(ws, "/"))
		r = -EPERM;
	if (r < 0) {
		for (nfds--; nfds >= 0; nfds--)
			close(fds[nfds]);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace or cwd: %s", r == -EPERM ?
			   "/ cannot be the workspace" : strerror(-r));
		return;
	}
	/* The request layer: refused when it does not parse, rather than run
	 * with less policy than was asked for. */
	r = policy_request_from_overrides(req.overrides, policy_store_home(),
					  ws, &pol, err, sizeof(err));
	if (r < 0) {
		for (nfds--; nfds >= 0; nfds--)
			close(fds[nfds]);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", err);
		return;
	}
	req.cwd = cwd;
	req.workspace = ws;
	if (client_gone(c)) {
		policy_free(pol);
		for (nfds--; nfds >= 0; nfds--)
			close(fds[nfds]);
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_ORDER,
			  "the client left before its run started");
		return;
	}
	r = session_start(c, &req, pol, fds, nfds, &code, err, sizeof(err));
	policy_free(pol);
	if (r < 0)
		conn_error(c, code, "%s", err);
}

const struct rpc_entry rpc_run_entry = {
	SBX__ENVELOPE__MSG_RUN, RPC_NEW_ID, rpc_run,
};
