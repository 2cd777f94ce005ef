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
 * the connection, in the protocol the client speaks where sbx knows it:
 * to port 22, or when the client's first bytes are an SSH banner, an SSH
 * banner and a disconnect message carrying the reason (ssh and git print
 * it); to an HTTP request a 403 with the reason; anything else, or
 * nothing within REFUSE_WAIT_MS, a reset (ECONNRESET).
 */
#include <errno.h>
#include <event2/buffer.h>
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
/* How long a refused connection waits for the client's first bytes (an
 * SSH client sends its banner at once, an HTTP client its request): past
 * it, a reset. */
#define REFUSE_WAIT_MS 2000

static const char http_refusal[] = "HTTP/1.1 403 Forbidden\r\n"
    "Content-Type: text/plain\r\nConnection: close\r\n"
    "Content-Length: %d\r\n\r\n%s\n";

/* Whether an RST ends pc (SO_LINGER 0) or the usual FIN. */
static void
set_reset(struct pconn *pc, bool on)
{
	struct linger lg = { on, 0 };

	if (pc->cfd >= 0)
		setsockopt(pc->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
}

/* Ends pc with an RST: the program sees ECONNRESET, not a clean end. */
static void
reset(struct pconn *pc)
{
	set_reset(pc, true);
	pconn_close(pc);
}

/* After the refusal is written: read and drop what the client still
 * sends until it closes (closing with its bytes unread would reset the
 * connection before it read ours), or the linger ends. */
static void
drop_read(struct pconn *pc, struct pio *p)
{
	evbuffer_drain(pio_in(p), evbuffer_get_length(pio_in(p)));
}

static void
drop_event(struct pconn *pc, struct pio *p, int what)
{
	pconn_close(pc);
}

static const struct pio_ops drop_ops = { drop_read, NULL, drop_event };

/* Says why in the client's protocol, then ends once it has read it. */
static void
answer(struct pconn *pc, const void *msg, size_t len)
{
	set_reset(pc, false);
	evbuffer_drain(pio_in(pc->c), evbuffer_get_length(pio_in(pc->c)));
	pio_set_ops(pc->c, &drop_ops);
	pio_write(pc->c, msg, len);
	pio_shutdown(pc->c);
	pio_read(pc->c, true);
	pconn_deadline(pc, PROXY_LINGER_MS);
}

static void
answer_ssh(struct pconn *pc)
{
	uint8_t msg[SSH_REFUSAL_MAX];
	int n = ssh_refusal(pc->errmsg, msg, sizeof(msg));

	if (n < 0)
		reset(pc);
	else
		answer(pc, msg, (size_t)n);
}

/* The client's first bytes say what it speaks: SSH and HTTP get the
 * reason, anything else a reset. */
static void
refused_read(struct pconn *pc, struct pio *p)
{
	struct evbuffer *in = pio_in(p);
	size_t len = evbuffer_get_length(in), i;
	const char *b = (const char *)evbuffer_pullup(in, len < 16 ?
	    (ev_ssize_t)len : 16);
	char msg[sizeof(http_refusal) + sizeof(pc->errmsg) + 16];
	int n;

	if (len > 16)
		len = 16;
	if (memcmp(b, "SSH-", len < 4 ? len : 4) == 0) {
		if (len >= 4)
			answer_ssh(pc);
		return;
	}
	for (i = 0; i < len && b[i] >= 'A' && b[i] <= 'Z'; i++)
		;
	if (i == len && len < 16)
		return;		/* a method, maybe: more */
	if (i > 0 && i < len && b[i] == ' ') {
		n = snprintf(msg, sizeof(msg), http_refusal,
		    (int)strlen(pc->errmsg) + 1, pc->errmsg);
		if (n > 0 && (size_t)n < sizeof(msg)) {
			answer(pc, msg, (size_t)n);
			return;
		}
	}
	reset(pc);
}

static void
refused_event(struct pconn *pc, struct pio *p, int what)
{
	reset(pc);
}

static const struct pio_ops refused_ops = { refused_read, NULL,
    refused_event };

static void
refuse(struct pconn *pc, int err, const struct proxy_denial *d)
{
	/* The reason, kept (d lives for this call only). */
	if (d == NULL || proxy_denial_format(pc, d, pc->errmsg,
	    sizeof(pc->errmsg)) < 0) {
		char why[sizeof(pc->errmsg)];

		snprintf(why, sizeof(why), "%s", pc->errmsg[0] ? pc->errmsg :
		    strerror(-err));
		snprintf(pc->errmsg, sizeof(pc->errmsg), "sbx: %.300s", why);
	}
	if (pc->port == SSH_PORT) {
		answer_ssh(pc);
		return;
	}
	/* Reset unless the first bytes come in time and say otherwise. */
	set_reset(pc, true);
	pio_set_ops(pc->c, &refused_ops);
	pio_read(pc->c, true);
	pconn_deadline(pc, REFUSE_WAIT_MS);
	if (evbuffer_get_length(pio_in(pc->c)) > 0)
		refused_read(pc, pc->c);
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
	/* The client's bytes wait in its socket until the dial is done. */
	pconn_deadline(pc, 0);
	pio_read(pc->c, false);
	dial_start(pc, dial_done);
}
