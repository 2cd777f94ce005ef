/* Hello: protocol version check and the daemon's capabilities. */
#include <stdio.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"

/* What this daemon does beyond protocol version 1, by name: clients test
 * for a name, never for a version (docs/protocol.md, "Features"). */
static const char *const features[] = {
	"request-id",         /* replies echo Envelope.request_id */
	"multiplex",          /* runs, attaches, subscriptions and queries
				 in flight together on one connection */
	"attach",             /* Attach, RunRequest.keep_on_disconnect */
	"session-ids-unique", /* never reused, across restarts too */
	"umask-default",      /* an unset umask is 022 */
	"timeout-term",       /* timeout: SIGTERM, kill_grace_ms, SIGKILL */
	"half-close",         /* shutdown(SHUT_WR) is the end of stdin */
	"signal-target",      /* SendSignal.target */
	"stdin-credit",       /* RunRequest.stdin_credit, StdinCredit */
	"summary-lines",      /* ExitStatus.summary_lines */
	"approvals-broker",   /* Subscribe.approver, ApprovalAnswered, scopes
				 sandbox and always, errors for unknown ids */
	"lifecycle-events",   /* Subscribe.kinds, Event (sessions, approvals,
				 policy, sandboxes) */
	"output-mirror",      /* Subscribe.mirror_output */
	"sandboxes",          /* CreateSandbox, RunRequest.sandbox_id,
				 DestroySandbox, ListSandboxes */
	"forwards",           /* RunRequest.publish, Event.forwarded,
				 network.hostServices */
};

static void
rpc_hello(struct conn *c, const Sbx__Envelope *env)
{
	const struct sandbox_caps *caps = sandbox_caps();
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__HelloReply hr = SBX__HELLO_REPLY__INIT;
	Sbx__Capabilities cap = SBX__CAPABILITIES__INIT;
	char *degraded[SANDBOX_DEGRADED_MAX], limits[96];
	size_t n = 0;
	int i;

	if (env->hello->protocol_version < WIRE_PROTOCOL_VERSION_MIN ||
	    env->hello->protocol_version > WIRE_PROTOCOL_VERSION) {
		conn_fail(c, SBX__ERROR_CODE__ERROR_CODE_BAD_VERSION,
			  "protocol version %u not supported (daemon speaks "
			  "%u to %u)", env->hello->protocol_version,
			  WIRE_PROTOCOL_VERSION_MIN, WIRE_PROTOCOL_VERSION);
		return;
	}
	/* Nothing differs by the client's version yet: a version 1 client
	 * sends no request ids, and 0 is an id like any other. */
	c->hello = true;
	/* Who answered an approval, who started a session: for people. */
	if (env->hello->client_name)
		snprintf(c->name, sizeof(c->name), "%s",
			 env->hello->client_name);
	cap.backend = (char *)caps->backend;
	cap.landlock_abi = caps->landlock_abi;
	cap.seccomp = caps->seccomp;
	cap.seccomp_notify = caps->seccomp_notify;
	cap.protect_new = caps->protect_new;
	cap.landlock_audit = caps->landlock_audit;
	cap.landlock_audit_off = (char *)caps->landlock_audit_off;
	cap.cgroups = (char *)caps->cgroups;
	cap.cgroups_off = (char *)caps->cgroups_off;
	session_limits_text(NULL, limits, sizeof(limits));
	cap.limits = limits;
	while (caps->namespaces[n])
		n++;
	cap.namespaces = (char **)caps->namespaces;
	cap.n_namespaces = n;
	cap.run_mode = sbxd.privileged ? SBX__RUN_MODE__RUN_MODE_PRIVILEGED :
		       caps->landlock_only ?
		       SBX__RUN_MODE__RUN_MODE_LANDLOCK_ONLY :
		       SBX__RUN_MODE__RUN_MODE_USER;
	for (i = 0; i < caps->ndegraded; i++)
		degraded[i] = (char *)caps->degraded[i];
	cap.degraded = degraded;
	cap.n_degraded = (size_t)caps->ndegraded;
	cap.uid = sbxd.uid;
	hr.protocol_version = WIRE_PROTOCOL_VERSION;
	hr.daemon_version = (char *)SBX_VERSION;
	hr.caps = &cap;
	hr.features = (char **)features;
	hr.n_features = sizeof(features) / sizeof(features[0]);
	out.msg_case = SBX__ENVELOPE__MSG_HELLO_REPLY;
	out.hello_reply = &hr;
	conn_send_id(c, c->req, &out);
}

const struct rpc_entry rpc_hello_entry = {
	SBX__ENVELOPE__MSG_HELLO, RPC_BEFORE_HELLO, rpc_hello,
};
