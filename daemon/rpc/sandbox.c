/* CreateSandbox, DestroySandbox, ListSandboxes: long-lived sandboxes
 * (sbox.h). Their commands are RunRequests with sandbox_id (rpc/run.c). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "daemon/conn.h"
#include "daemon/policy/policy.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sbox.h"

static void
send_info(struct conn *c, uint64_t id)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__SandboxCreated sc = SBX__SANDBOX_CREATED__INIT;
	Sbx__SandboxInfo info;

	if (sbox_info(id, &info) < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_SANDBOX,
			   "sandbox %llu ended as it was made",
			   (unsigned long long)id);
		return;
	}
	sc.sandbox = &info;
	out.msg_case = SBX__ENVELOPE__MSG_SANDBOX_CREATED;
	out.sandbox_created = &sc;
	conn_send_id(c, c->req, &out);
}

static void
rpc_sandbox_create(struct conn *c, const Sbx__Envelope *env)
{
	const Sbx__CreateSandbox *cs = env->create_sandbox;
	Sbx__RunRequest spec = SBX__RUN_REQUEST__INIT;
	char ws[PATH_MAX], cwd[PATH_MAX], err[512] = "";
	struct policy *pol = NULL;
	Sbx__ErrorCode code;
	uint64_t id;
	int r;

	if (cs->spec)
		spec = *cs->spec;
	/* One command's fields do not apply (sbox_create sets its own). */
	spec.io_mode = SBX__IO_MODE__IO_MODE_STREAMING;
	spec.fd_count = 0;
	spec.tty = false;
	spec.keep_on_disconnect = false;
	if (rpc_run_prepare(c, &spec, false, cwd, ws, &pol, NULL, 0) < 0)
		return;
	r = sbox_create(c, &spec, pol, cs->idle_timeout_ms, cs->lifetime_ms,
			&id, &code, err, sizeof(err));
	if (r == 0)
		send_info(c, id);
	else if (r != -EINPROGRESS) /* else held: answered when taken up */
		conn_error(c, code, "%s", err);
	policy_free(pol);
}

static void
rpc_sandbox_destroy(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__Ack ack = SBX__ACK__INIT;
	uint64_t id = env->destroy_sandbox->sandbox_id;
	int r = sbox_destroy(c, id);

	if (r == -ENOENT) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND,
			   "no sandbox %llu", (unsigned long long)id);
		return;
	}
	if (r < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_PERMISSION,
			   "sandbox %llu is another user's",
			   (unsigned long long)id);
		return;
	}
	out.msg_case = SBX__ENVELOPE__MSG_ACK;
	out.ack = &ack;
	conn_send_id(c, c->req, &out);
}

static void
rpc_sandbox_list(struct conn *c, const Sbx__Envelope *env)
{
	Sbx__Envelope out = SBX__ENVELOPE__INIT;
	Sbx__SandboxList list = SBX__SANDBOX_LIST__INIT;
	Sbx__SandboxInfo *infos, **ptrs;
	int n = sbox_list(&infos, &ptrs);

	if (n < 0) {
		conn_error(c, SBX__ERROR_CODE__ERROR_CODE_INTERNAL,
			   "out of memory");
		return;
	}
	list.sandboxes = ptrs;
	list.n_sandboxes = (size_t)n;
	out.msg_case = SBX__ENVELOPE__MSG_SANDBOX_LIST;
	out.sandbox_list = &list;
	conn_send_id(c, c->req, &out);
	free(infos);
	free(ptrs);
}

const struct rpc_entry rpc_sandbox_create_entry = {
	SBX__ENVELOPE__MSG_CREATE_SANDBOX, 0, rpc_sandbox_create,
};
const struct rpc_entry rpc_sandbox_destroy_entry = {
	SBX__ENVELOPE__MSG_DESTROY_SANDBOX, 0, rpc_sandbox_destroy,
};
const struct rpc_entry rpc_sandbox_list_entry = {
	SBX__ENVELOPE__MSG_LIST_SANDBOXES, 0, rpc_sandbox_list,
};
