/* ListSessions: every running session of this daemon. */
#include <stdlib.h>

#include "daemon/conn.h"
#include "daemon/rpc/rpc.h"
#include "daemon/session.h"
#include "daemon/ws-tmp.h"

static void
rpc_ps(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__SessionList list = SBX__SESSION_LIST__INIT;
	Sbx__SessionInfo *infos, **ptrs;
	struct session *s;
	size_t n = 0;

	infos = calloc(session_count() + 1, sizeof(*infos));
	ptrs = calloc(session_count() + 1, sizeof(*ptrs));
	if (!infos || !ptrs) {
		free(infos);
		free(ptrs);
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "out of memory");
		return;
	}
	for (s = session_first(); s; s = session_next(s)) {
		if (!session_live(s))
			continue;
		sbx__session_info__init(&infos[n]);
		session_describe(s, &infos[n]);
		/* Its workspace's private disk: /tmp and the home layer. */
		ws_tmp_usage(infos[n].workspace, &infos[n].tmp_used,
			     &infos[n].tmp_limit);
		session_home_usage(s, &infos[n].home_used,
				   &infos[n].home_limit);
		ptrs[n] = &infos[n];
		n++;
	}
	list.sessions = ptrs;
	list.n_sessions = n;
	out.msg_case = SBX__ENVELOPE__MSG_SESSION_LIST;
	out.session_list = &list;
	conn_send_id(c, c->req, &out);
	free(infos);
	free(ptrs);
}

const struct rpc_entry rpc_ps_entry = {
	SBX__ENVELOPE__MSG_LIST_SESSIONS, 0, rpc_ps,
};
