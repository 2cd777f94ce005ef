/* ResetRequest: drops a workspace's home overlay layer, once nothing runs
 * in the workspace (its templates hold the overlay mounted). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/log.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/workspace.h"
#include "daemon/ws-tmp.h"

/* A workspace that is gone can still be reset: then its path is taken as
 * given, if it is absolute and plain (no ".", "..", "//"). */
static int
resolve(const char *in, char *out, size_t len)
{
	int r = workspace_resolve(in, out, len);

	if (r != -ENOENT)
		return r;
	if (in[0] != '/' || strstr(in, "//") || strstr(in, "/./") ||
	    strstr(in, "/../") || strlen(in) >= len)
		return -EINVAL;
	if ((strlen(in) >= 2 && !strcmp(in + strlen(in) - 2, "/.")) ||
	    (strlen(in) >= 3 && !strcmp(in + strlen(in) - 3, "/..")))
		return -EINVAL;
	strcpy(out, in);
	if (len > 1 && out[1] && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	return 0;
}

static unsigned
sessions_in(const char *ws)
{
	struct session *s;
	Sbx__SessionInfo info = SBX__SESSION_INFO__INIT;
	unsigned n = 0;

	for (s = session_first(); s; s = session_next(s)) {
		session_describe(s, &info);
		n += !strcmp(info.workspace, ws);
	}
	return n;
}

static void
rpc_reset(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__ResetReply rep = SBX__RESET_REPLY__INIT;
	char ws[PATH_MAX];
	unsigned n;
	int r;

	if ((r = resolve(env->reset->workspace, ws, sizeof(ws))) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace %s: %s", env->reset->workspace,
			   strerror(-r));
		return;
	}
	if ((n = sessions_in(ws)) > 0 ||
	    (r = sandbox_retire_workspace(ws)) == -EBUSY) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_BUSY,
			   "%u session%s still run%s in %s: the home overlay "
			   "is reset once they end (sbxctl ps, sbxctl kill)",
			   n ? n : 1, n > 1 ? "s" : "", n > 1 ? "" : "s", ws);
		return;
	}
	/* Its /tmp goes too (the templates holding it are gone). */
	ws_tmp_drop(ws);
	if ((r = home_overlay_remove(ws)) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "removing the home overlay layer of %s (in %s/home): "
			   "%s", ws, sbxd.statedir, strerror(-r));
		return;
	}
	if (r > 0)
		log_info("home overlay of %s reset", ws);
	rep.removed = r > 0;
	out.msg_case = SBX__ENVELOPE__MSG_RESET_REPLY;
	out.reset_reply = &rep;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_reset_entry = {
	SBX__ENVELOPE__MSG_RESET, 0, rpc_reset,
};
