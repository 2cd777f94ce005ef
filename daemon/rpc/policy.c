/* The workspace and effective policy a policy request asks about, found
 * exactly as a run in that workspace would find them. */
#include <errno.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/rpc/policy.h"
#include "daemon/workspace.h"

int
rpc_policy_workspace(struct conn *c, const char *in, char ws[PATH_MAX])
{
	int r;

	if (in[0] != '/')
		r = -EINVAL;
	else if ((r = workspace_resolve(in, ws, PATH_MAX)) == 0 &&
		 !strcmp(ws, "/"))
		r = -EPERM;
	if (r < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace %s: %s", in, r == -EINVAL ?
			   "not an absolute path" : r == -EPERM ?
			   "/ cannot be the workspace" : strerror(-r));
		return r;
	}
	policy_watch_workspace(ws);
	return 0;
}

int
rpc_policy_effective(struct conn *c, const char *in, char ws[PATH_MAX],
		     struct policy **eff)
{
	char err[512];
	int r;

	if ((r = rpc_policy_workspace(c, in, ws)) < 0)
		return r;
	if ((r = policy_store_effective(ws, NULL, eff, err, sizeof(err))) < 0)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", err);
	return r;
}
