/* Who is at the far end of a loopback TCP connection: the kernel's socket
 * table, asked through NETLINK_SOCK_DIAG (sandbox_peer_uid, sandbox.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/linux/probe.h"
#include "daemon/sandbox.h"

/*
 * Both ends of a loopback connection are sockets of this host, so the
 * peer's socket is in the table under the connection's addresses turned
 * around: its source is our peer, its destination our local address. The
 * owner the kernel keeps for it (sk_uid) is the uid that created it; only
 * fchown() on the socket changes it, which takes CAP_CHOWN over both uids
 * (sandboxes have no capabilities). Handing the socket to another process
 * (SCM_RIGHTS, inheritance) keeps that owner, which is what the check
 * wants: another user gets a socket of ours only from us.
 *
 * The answer is given in the user namespace of whoever asks: where that is
 * not the initial one, a uid without a name in it reads as the overflow
 * uid, which is then refused rather than taken for someone (in the
 * initial namespace every uid has its name: nobody is nobody).
 */

/* The uid unnamed ones read as, or -1 when every uid has a name here. */
static uid_t
unnamed_uid(void)
{
	static int known;
	static uid_t uid = (uid_t)-1;
	unsigned v = 65534;
	FILE *f;

	if (known)
		return uid;
	known = 1;
	if (probe_initial_userns())
		return uid;
	if ((f = fopen("/proc/sys/kernel/overflowuid", "re")) != NULL) {
		if (fscanf(f, "%u", &v) != 1)
			v = 65534;
		fclose(f);
	}
	return uid = (uid_t)v;
}

/* Fills the peer socket's id from the connection's two addresses. */
static int
peer_id(int fd, struct inet_diag_sockid *id, int *family)
{
	struct sockaddr_storage local, peer;
	socklen_t llen = sizeof(local), plen = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&local, &llen) < 0 ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen) < 0)
		return -errno;
	if (local.ss_family != peer.ss_family)
		return -EAFNOSUPPORT;
	memset(id, 0, sizeof(*id));
	id->idiag_cookie[0] = id->idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	if (peer.ss_family == AF_INET) {
		const struct sockaddr_in *l = (void *)&local, *p = (void *)&peer;

		id->idiag_sport = p->sin_port;
		id->idiag_dport = l->sin_port;
		memcpy(id->idiag_src, &p->sin_addr, 4);
		memcpy(id->idiag_dst, &l->sin_addr, 4);
	} else if (peer.ss_family == AF_INET6) {
		const struct sockaddr_in6 *l = (void *)&local, *p = (void *)&peer;

		id->idiag_sport = p->sin6_port;
		id->idiag_dport = l->sin6_port;
		memcpy(id->idiag_src, &p->sin6_addr, 16);
		memcpy(id->idiag_dst, &l->sin6_addr, 16);
	} else
		return -EAFNOSUPPORT;
	*family = peer.ss_family;
	return 0;
}

/* One exact lookup; the kernel answers within the send (no dump). */
static int
lookup(const struct inet_diag_sockid *id, int family,
       struct inet_diag_msg *out)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	} rep;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	const struct nlmsghdr *h = &rep.nlh;
	ssize_t n;
	int nl, e;

	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST;
	msg.nlh.nlmsg_seq = 1;
	msg.req.sdiag_family = (uint8_t)family;
	msg.req.sdiag_protocol = IPPROTO_TCP;
	msg.req.idiag_states = ~0U;
	msg.req.id = *id;
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;
	if (sendto(nl, &msg, sizeof(msg), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		e = errno;
		close(nl);
		return -e;
	}
	n = recv(nl, &rep, sizeof(rep), MSG_DONTWAIT);
	e = errno;
	close(nl);
	if (n < 0)
		return -e;
	if (!NLMSG_OK(h, (size_t)n) || h->nlmsg_seq != 1)
		return -EBADMSG;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *err = NLMSG_DATA(h);

		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
			return -EBADMSG;
		return err->error < 0 ? err->error : -EBADMSG;
	}
	if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(*out)))
		return -EBADMSG;
	memcpy(out, NLMSG_DATA(h), sizeof(*out));
	return 0;
}

int
sandbox_peer_uid(int fd, uid_t *uid)
{
	struct inet_diag_sockid id;
	struct inet_diag_msg m = { 0 };
	int family = 0, r;

	if ((r = peer_id(fd, &id, &family)) < 0 ||
	    (r = lookup(&id, family, &m)) < 0)
		return r;
	/* The very socket asked for (the kernel matched the four values). */
	if (m.id.idiag_sport != id.idiag_sport ||
	    m.id.idiag_dport != id.idiag_dport)
		return -ESRCH;
	if ((uid_t)m.idiag_uid == unnamed_uid())
		return -EOVERFLOW;
	*uid = (uid_t)m.idiag_uid;
	return 0;
}
