/* A session's proxy: the listeners its sandbox made in its network
 * namespace, or loopback ports on the host's when it has none, served for
 * that session only. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/log.h"
#include "daemon/proxy/proxy.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/sbox.h"
#include "daemon/session-int.h"

/* An approval request goes to the session's client and every approver:
 * asked if any of them got it. */
static int
session_send_hook(void *arg, const Sbx__Envelope *env)
{
	struct session *s = arg, *t;
	int r;

	/* A long-lived sandbox's proxy asks the command running in it. */
	if (s->sbox_holder && (t = sbox_client(s->sbox_id)))
		s = t;
	r = s->conn ? conn_send_id(s->conn, s->req, env) : -ENOTCONN;

	if (env->msg_case == SBX__ENVELOPE__MSG_APPROVAL_REQUEST &&
	    events_approval_asked(s->id, env) > 0)
		r = 0;
	return r;
}

static void
session_answered_hook(void *arg, Sbx__ApprovalAnswered *a,
		      const struct proxy_answerer *by)
{
	struct session *s = arg;

	events_approval_answered(a, s->conn, s->req, by ? by->conn : NULL,
				 by ? by->req : 0);
}

int
session_approval(struct session *s, const Sbx__ApprovalDecision *d,
		 const struct conn *by, uint64_t by_req)
{
	const struct proxy_answerer who = { by->name, by, by_req };
	struct session *h;

	if (s->proxy)
		return proxy_approval(s->proxy, d, &who);
	/* A command of a long-lived sandbox: the sandbox's proxy asked. */
	if (s->sbox_id && (h = sbox_holder(s->sbox_id)) && h->proxy)
		return proxy_approval(h->proxy, d, &who);
	return -ENOENT;
}

/* The sandbox made its proxy listeners (HTTP, SOCKS5, and with capture
 * its capture and DNS sockets) inside its network namespace: the proxy
 * serves them, for this session only. which: the PROXY_FD_* slots the fds
 * fill, in order. */
void
session_proxy_listeners(struct session *s, int *fds, int nfds,
			unsigned which)
{
	const struct proxy_hooks hooks = { s, session_send_hook,
					   session_violation, NULL,
					   session_answered_hook };
	int slot[PROXY_FD_MAX], i, k = 0;

	/* A record that does not say: the first nfds slots. */
	if (which == 0 && nfds > 0 && nfds <= PROXY_FD_MAX)
		which = (1u << nfds) - 1;
	for (i = 0; i < PROXY_FD_MAX; i++)
		slot[i] = (which & (1u << i)) && k < nfds ? fds[k++] : -1;
	if (s->proxy || k != nfds || slot[0] < 0 || slot[1] < 0) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		return;
	}
	s->proxy = proxy_attach(s->id, s->policy, &hooks, slot,
				PROXY_FD_MAX);
	session_forward_attach(s);
	if (s->proxy) {
		proxy_credentials(s->proxy, s->creds);
		s->creds = NULL;
	}
}
/* No network namespace (SANDBOX_NET_HOST_PORTS): the proxy's ports are
 * on the host's loopback, and a connection is served only when its peer
 * socket is the served user's; Landlock keeps the user's other sandboxes
 * off these ports (proxy/proxy.c says why the two together are enough).
 * A published port on the host admits the same way. */
bool
session_admit(void *arg, int fd)
{
	struct session *s = arg;
	uid_t uid = (uid_t)-1;
	int r = sandbox_peer_uid(fd, &uid);

	if (r == 0 && uid == sbxd.uid)
		return true;
	/* Someone else's doing: the daemon's log, not the session's
	 * violations, and not without end. */
	if (s->proxy_refused++ < 8)
		log_warn("session %llu: proxy connection refused: %s %u",
			 (unsigned long long)s->id, r == 0 ?
			 "it comes from uid" : "cannot tell its owner, errno",
			 r == 0 ? (unsigned)uid : (unsigned)-r);
	return false;
}

/* Listeners on the host's loopback, made before the spawn: their ports go
 * into the command's environment and its Landlock rules. */
int
session_loopback_proxy(struct session *s, uint16_t ports[2])
{
	const struct proxy_hooks hooks = { s, session_send_hook,
					   session_violation, session_admit,
					   session_answered_hook };

	s->proxy = proxy_listen_loopback(s->id, s->policy, &hooks, ports);
	if (!s->proxy)
		return -EADDRNOTAVAIL;
	proxy_credentials(s->proxy, s->creds);
	s->creds = NULL;
	return 0;
}

