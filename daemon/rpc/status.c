/* StatusRequest: the daemon's own state (capabilities come with Hello). */
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/policy/org.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"

static void
rpc_status(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__StatusReply sr = SBX__STATUS_REPLY__INIT;
	const char *const *store, *const *org;
	char *problems[64], limits[96];
	size_t ns, no, i;

	/* Edits made before this request show now, not at the next run. */
	policy_watch_sync();
	ns = policy_store_problems(&store);
	no = policy_org_problems(&org);
	for (i = 0; i < ns + no && i < 64; i++)
		problems[i] = (char *)(i < no ? org[i] : store[i - no]);
	sr.pid = (int32_t)getpid();
	sr.uptime_ms = sbxd_now_ms() - sbxd.start_ms;
	sr.sessions = session_count();
	sr.connections = conn_count();
	sr.socket = (char *)sbxd.socket_path;
	sr.version = (char *)SBX_VERSION;
	sr.n_policy_problems = i;
	sr.policy_problems = problems;
	sr.templates = sandbox_templates();
	sr.cgroups = (char *)sandbox_caps()->cgroups;
	sr.cgroups_off = (char *)sandbox_caps()->cgroups_off;
	session_limits_text(NULL, limits, sizeof(limits));
	sr.limits = limits;
	out.msg_case = SBX__ENVELOPE__MSG_STATUS_REPLY;
	out.status_reply = &sr;
	conn_send(c, &out);
}

const struct rpc_entry rpc_status_entry = {
	SBX__ENVELOPE__MSG_STATUS, 0, rpc_status,
};
