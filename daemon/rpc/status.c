/* StatusRequest: the daemon's own state (capabilities come with Hello). */
#include <string.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/org.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/ws-tmp.h"

/* The workspaces whose /tmp is held (a session runs, or ran within the
 * idle time), with the size of their home layer. */
static size_t
workspace_disks(Sbx__WorkspaceDisk *d, Sbx__WorkspaceDisk **p, size_t max)
{
	const struct session *s;
	struct home_usage u;
	const char *ws;
	size_t n;

	for (n = 0; n < max && (ws = ws_tmp_nth((unsigned)n)); n++) {
		sbx__workspace_disk__init(&d[n]);
		p[n] = &d[n];
		d[n].workspace = (char *)ws;
		ws_tmp_usage(ws, &d[n].tmp_used, &d[n].tmp_limit);
		home_overlay_measure(ws, 0, &u);
		d[n].home_used = u.used;
		d[n].home_limit = u.size;
		for (s = session_first(); s; s = session_next(s)) {
			if (strcmp(session_workspace(s), ws) ||
			    !session_live(s))
				continue;
			d[n].sessions++;
			session_home_usage(s, &d[n].home_used,
					   &d[n].home_limit);
		}
	}
	return n;
}

static void
rpc_status(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__StatusReply sr = SBX__STATUS_REPLY__INIT;
	const char *const *store, *const *org;
	char *problems[64], limits[96];
	Sbx__WorkspaceDisk disk[32], *disks[32];
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
	sr.disks = disks;
	sr.n_disks = workspace_disks(disk, disks, 32);
	sr.home_quota = (char *)sandbox_caps()->home_quota;
	sr.cgroups = (char *)sandbox_caps()->cgroups;
	sr.cgroups_off = (char *)sandbox_caps()->cgroups_off;
	session_limits_text(NULL, limits, sizeof(limits));
	sr.limits = limits;
	out.msg_case = SBX__ENVELOPE__MSG_STATUS_REPLY;
	out.status_reply = &sr;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_status_entry = {
	SBX__ENVELOPE__MSG_STATUS, 0, rpc_status,
};
