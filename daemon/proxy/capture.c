/* Connections the sandbox made to any address, sent to the proxy by its network namespace: decided by name or address, then a tunnel. */

/*
 * The namespace's nftables redirect every TCP connection leaving for an
 * address other than loopback to a capture listener (linux/capture.c);
 * the accepted socket still knows what was asked for (SO_ORIGINAL_DST).
 * A made-up address of the DNS stub stands for the name it was given to
 * (proxy/dns-stub.c), any other for itself: then the proxy decides,
 * asks, resolves and connects as for a SOCKS5 CONNECT of that name or
 * address, and the bytes are checked as a tunnel's (TLS server name, HTTP
 * Host; other protocols by port except on 80 and 443).
 *
 * The program's connect() succeeded before any of this (the kernel
 * completed the handshake with the listener), so a refusal can only end
 * the connection: reset at once, so the program fails fast with
 * ECONNRESET; to port 22, an SSH banner and a disconnect message
 * carrying the reason first, which ssh and git print.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/ssh-msg.h"

#ifndef SO_ORIGINAL_DST
#define SO_ORIGINAL_DST 80	/* linux/netfilter_ipv4.h, IP6T_ too */
#endif

#define SSH_PORT 22

/* Ends pc with an RST: the program sees ECONNRESET, not a clean end. */
static void
reset(struct pconn *pc)
{
	struct linger lg = { 1, 0 };

	if (pc->cfd >= 0)
		setsockopt(pc->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	pconn_close(pc);
}

static void
refuse(struct pconn *pc, int err, const struct proxy_denial *d)
{
	uint8_t msg[SSH_REFUSAL_MAX];
	char why[SSH_REASON_MAX];
	int n;

	if (pc->port != SSH_PORT) {
		reset(pc);
		return;
	}
	if (d == NULL || proxy_denial_format(pc, d, why, sizeof(why)) < 0)
		snprintf(why, sizeof(why), "sbx: %s", pc->errmsg[0] ?
		    pc->errmsg : strerror(-err));
	if ((n = ssh_refusal(why, msg, sizeof(msg))) < 0) {
		reset(pc);
		return;
	}
	pio_write(pc->c, msg, (size_t)n);
	pconn_finish(pc);
}

static void
dial_done(struct pconn *pc, int err, const struct proxy_denial *d)
{
	if (err < 0) {
		refuse(pc, err, d);
		return;
	}
	tunnel_start(pc);
}

/* What the program connected to: *host and pc->port. -1 if not known. */
static int
destination(struct pconn *pc, int fd)
{
	struct sockaddr_storage ss, self;
	socklen_t len = sizeof(ss), slen = sizeof(self);
	const uint8_t *a;
	size_t alen;
	int r;

	if (getsockname(fd, (struct sockaddr *)&self, &slen) < 0 ||
	    getsockopt(fd, self.ss_family == AF_INET6 ? SOL_IPV6 : SOL_IP,
	    SO_ORIGINAL_DST, &ss, &len) < 0)
		return -1;
	/* Not redirected: a connection to the listener itself, which
	 * stands for no destination. */
	if (len <= slen && memcmp(&ss, &self, len) == 0)
		return -1;
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)&ss;

		a = (const uint8_t *)&in->sin_addr;
		alen = 4;
		pc->port = ntohs(in->sin_port);
	} else if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)&ss;

		a = in6->sin6_addr.s6_addr;
		alen = 16;
		pc->port = ntohs(in6->sin6_port);
	} else
		return -1;
	r = dns_stub_name(pc->px, a, alen, &pc->host);
	if (r == -ENOENT) {
		if (alen == 4)
			host_set_ipv4(&pc->host, a);
		else
			host_set_ipv6(&pc->host, a);
		r = 0;
	}
	return r < 0 || pc->port == 0 ? -1 : 0;
}

void
capture_start(struct pconn *pc, int fd)
{
	pc->cfd = fd;
	pc->proto = "tcp";
	if (destination(pc, fd) < 0) {
		reset(pc);
		return;
	}
	pc->by_port = pc->port != 80 && pc->port != 443;
	pconn_deadline(pc, 0);
	dial_start(pc, dial_done);
}
