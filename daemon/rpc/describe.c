/* DescribeRequest: the constraints of a sandbox in a workspace. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/conn.h"
#include "daemon/envfilter.h"
#include "daemon/policy/describe.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/store.h"
#include "daemon/rpc/rpc.h"
#include "daemon/runenv.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/workspace.h"
#include "daemon/ws-tmp.h"
#include "daemon/policy/limits.h"

static void
rpc_describe(struct conn *c, const Sbx__Envelope *env)
{
	const struct sandbox_caps *caps = sandbox_caps();
	struct describe_ctx dc = { .backend = caps->backend,
				   .landlock_abi = caps->landlock_abi,
				   .seccomp = caps->seccomp,
				   .host_network = caps->net ==
						   SANDBOX_NET_HOST_PORTS,
				   .no_network = caps->net == SANDBOX_NET_NONE,
				   .captured = caps->capture,
				   .unix_sockets = caps->unix_sockets,
				   .ptrace = caps->ptrace,
				   .protect_unguarded = caps->landlock_only &&
							!caps->protect_new,
				   .no_link_mounts = caps->landlock_only,
				   .tmp = "/tmp" };
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__DescribeReply rep = SBX__DESCRIBE_REPLY__INIT;
	char ws[PATH_MAX], tmpdir[PATH_MAX], err[512];
	struct policy *eff = NULL;
	struct fsplan *fs = NULL;
	json_t *json = NULL;
	char *text = NULL, **withheld = NULL;
	int r;

	r = workspace_resolve(env->describe->workspace, ws, sizeof(ws));
	if (r < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
			   "workspace: %s", strerror(-r));
		return;
	}
	dc.workspace = ws;
	session_limit_defaults(&dc.limits);
	dc.limits_enforced = caps->cgroups[0] != '\0';
	/* Without mounts /tmp is the host's: runs get this one (session.c). */
	if (caps->landlock_only &&
	    workspace_tmpdir(ws, tmpdir, sizeof(tmpdir), NULL) == 0)
		dc.tmp = tmpdir;
	if ((r = policy_store_effective(ws, NULL, &eff, err, sizeof(err))) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID, "%s", err);
		return;
	}
	for (size_t i = 0; i < env->describe->n_env; i++)
		if (!envfilter_valid(env->describe->env[i])) {
			conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INVALID,
				   "env: malformed entry");
			policy_free(eff);
			return;
		}
	withheld = runenv_withheld(env->describe->env, env->describe->n_env,
				   eff);
	dc.env_withheld = withheld;
	/* Where there are mounts, /tmp is the workspace's tmpfs: one made
	 * now would have this size (one held keeps its own). */
	if (caps->private_tmpfs) {
		uint64_t used;

		if (!ws_tmp_usage(ws, &used, &dc.tmp_limit))
			dc.tmp_limit = policy_limit_value(eff, POLICY_LIMIT_TMP,
							  ws_tmp_default_size());
		dc.tmp_idle_s = ws_tmp_idle_ms() / 1000;
	}
	r = fsplan_build(eff, ws, caps->home_overlay ? policy_store_home() :
			 NULL, &fs);
	if (r == 0)
		r = describe_build(eff, fs, &dc, &text, &json);
	if (r == 0 && !(rep.json = json_dumps(json, JSON_INDENT(2))))
		r = -ENOMEM;
	if (r < 0)
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "describe: %s", strerror(-r));
	else {
		rep.text = text;
		out.msg_case = SBX__ENVELOPE__MSG_DESCRIBE_REPLY;
		out.describe_reply = &rep;
		conn_send_id(c, c->req, &out);
	}
	free(rep.json);
	free(text);
	json_decref(json);
	fsplan_free(fs);
	policy_free(eff);
	runenv_names_free(withheld);
}

const struct rpc_entry rpc_describe_entry = {
	SBX__ENVELOPE__MSG_DESCRIBE, 0, rpc_describe,
};
