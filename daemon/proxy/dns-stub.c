/* A sandbox's stub resolver: names the policy may allow get made-up addresses, the rest NXDOMAIN; nothing is resolved on the host here. */

/*
 * Every DNS query of a captured sandbox arrives here, over UDP or TCP,
 * whatever name server it was sent to (linux/capture.c). A name is never
 * looked up on the host at this point: the answer is an address of the
 * sandbox's made-up ranges (proxy/fakeip.c), and the name is decided,
 * resolved and checked only when the sandbox connects to that address
 * (proxy/capture.c), with the port. So a name no rule allows leaks
 * nothing, not even to the host's resolver.
 *
 * A name gets an address when a deny rule for every port does not match
 * it and either an allow rule (for any port) or a session approval does,
 * or unknownHosts is "ask": the question then comes with the connection,
 * when the port is known. Otherwise NXDOMAIN, reported as a network
 * violation once per name in a row (resolvers ask for A and AAAA, and
 * retry). "localhost" and names below it are the sandbox's own loopback
 * (RFC 6761), and so is its host name (SANDBOX_HOSTNAME: programs look
 * themselves up, Java's InetAddress.getLocalHost); reverse lookups are
 * NXDOMAIN without a violation; an address literal sent as a name is answered with itself.
 * Types other than A and AAAA get an empty answer for a name that would
 * get an address, so a resolver falls back to A/AAAA at once.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/proxy/dns-msg.h"
#include "daemon/proxy/fakeip.h"
#include "daemon/proxy/int.h"
#include "daemon/sandbox.h"

/* Made-up addresses stay the same for the sandbox's life: any TTL is
 * right; a short one keeps resolver caches from outliving a rule change
 * by long. */
#define DNS_TTL 60
/* Clients over TCP at once, and how long one may stay idle. */
#define TCP_CLIENTS_MAX 16
#define TCP_IDLE_S 10
/* Datagrams read per wake-up before other work gets a turn. */
#define UDP_BURST 32
#define TCP_MSG_MAX 4096
/* Answers a TCP client may leave unread: past it, its queries are not
 * read until it has read them (else a client that never reads grows the
 * daemon without bound, one answer per query it sends). */
#define TCP_OUT_MAX (16 * 1024)

struct dns_tcp {
	struct dns_stub *stub;
	struct bufferevent *bev;
	struct dns_tcp *next, **pprev;
};

struct dns_stub {
	struct proxy *px;
	/* UDP on 127.0.0.1 and ::1: a reply must leave from the address
	 * the redirected query reached, or conntrack cannot give it the
	 * name server's address back (a wildcard socket would answer from
	 * the address the program asked, which is local here too). */
	int udp[2];
	struct event *udp_ev[2];
	struct evconnlistener *tcp;
	struct dns_tcp *clients;
	unsigned nclients;
	struct fakeip map;
	struct host last_denied;	/* reported already */
};

/* Reverse lookups (PTR under in-addr.arpa and ip6.arpa): no host to
 * connect to, nothing to allow; answered NXDOMAIN without a violation
 * (servers look their clients up, Python's http.server among them). */
static bool
reverse_name(const struct host *h)
{
	static const char *const zones[] = { ".in-addr.arpa", ".ip6.arpa" };
	size_t i, n;

	for (i = 0; i < 2; i++) {
		n = strlen(zones[i]);
		if (h->len > n && strcmp(h->text + h->len - n, zones[i]) == 0)
			return true;
	}
	return false;
}

/* Whether h may get an address (see the top of this file). */
static bool
name_may_connect(const struct proxy_rules *r, const struct host *h)
{
	size_t i;

	for (i = 0; i < r->ndeny; i++)
		if (r->deny[i].nr.port == 0 && (r->deny[i].any ||
		    netrule_match(&r->deny[i].nr, h, 0)))
			return false;
	for (i = 0; i < r->nallow; i++)
		if (r->allow[i].any || netrule_match(&r->allow[i].nr, h,
		    r->allow[i].nr.port))
			return true;
	for (i = 0; i < r->ngrant; i++)
		if (netrule_match(&r->grant[i].nr, h, r->grant[i].nr.port))
			return true;
	return r->ask;
}

static void
report_denied(struct dns_stub *d, const struct host *h)
{
	struct pconn pc;
	struct proxy_denial den = { 0 };
	const struct proxy_rules *r = d->px->rules;

	if (host_equal(&d->last_denied, h))
		return;
	d->last_denied = *h;
	memset(&pc, 0, sizeof(pc));
	pc.px = d->px;
	pc.host = *h;
	pc.proto = "dns";
	den.o = &r->unknown;
	den.why = "not in allowedDomains: answered NXDOMAIN";
	den.remedy = "ask the user to add it to network.allowedDomains";
	proxy_report(&pc, &den);
}

/* The answer to the query in msg[0..len) into out: its length, or -1
 * for no answer at all. */
static int
answer(struct dns_stub *d, const uint8_t *msg, size_t len, uint8_t *out,
    size_t size)
{
	static const uint8_t lo4[4] = { 127, 0, 0, 1 }, lo6[16] = { [15] = 1 };
	struct dns_query q;
	struct host h;
	const char *why;
	uint8_t a4[4], a6[16];
	const uint8_t *addr = NULL;
	size_t alen = 0;
	uint32_t idx;
	int r = dns_query_parse(msg, len, &q), rcode = DNS_NOERROR;

	if (r == -EINVAL)
		return -1;
	if (r < 0)
		return dns_reply(&q, msg, r == -EOPNOTSUPP ? DNS_NOTIMP :
		    DNS_FORMERR, NULL, 0, 0, out, size);
	if (q.qclass != DNS_CLASS_IN ||
	    host_canon(q.name, q.name_len, &h, &why) < 0)
		return dns_reply(&q, msg, DNS_NXDOMAIN, NULL, 0, 0, out, size);
	if (h.kind != HOST_NAME) {
		if (h.kind == HOST_IPV4 && q.qtype == DNS_TYPE_A)
			addr = h.addr, alen = 4;
		else if (h.kind == HOST_IPV6 && q.qtype == DNS_TYPE_AAAA)
			addr = h.addr, alen = 16;
	} else if (proxy_rules_localhost(&h) ||
	    strcmp(h.text, SANDBOX_HOSTNAME) == 0) {
		if (q.qtype == DNS_TYPE_A)
			addr = lo4, alen = 4;
		else if (q.qtype == DNS_TYPE_AAAA)
			addr = lo6, alen = 16;
	} else if (reverse_name(&h)) {
		rcode = DNS_NXDOMAIN;
	} else if (!name_may_connect(d->px->rules, &h)) {
		report_denied(d, &h);
		rcode = DNS_NXDOMAIN;
	} else if (q.qtype == DNS_TYPE_A || (q.qtype == DNS_TYPE_AAAA &&
	    d->px->lis[PROXY_FD_CAPTURE6] != NULL)) {
		/* (No IPv6 capture in the namespace: no AAAA, so that
		 * programs do not try an address they cannot reach.) */
		if ((r = fakeip_get(&d->map, &h, &idx)) < 0) {
			log_warn("session %llu: DNS stub: %s",
			    (unsigned long long)d->px->session_id, r ==
			    -ENOSPC ? "out of made-up addresses" :
			    "out of memory");
			rcode = DNS_SERVFAIL;
		} else if (q.qtype == DNS_TYPE_A) {
			fakeip_v4(idx, a4);
			addr = a4, alen = 4;
		} else {
			fakeip_v6(idx, a6);
			addr = a6, alen = 16;
		}
	}
	return dns_reply(&q, msg, rcode, addr, alen, DNS_TTL, out, size);
}

static void
udp_cb(evutil_socket_t fd, short what, void *arg)
{
	struct dns_stub *d = arg;
	uint8_t in[DNS_UDP_MAX * 2], out[DNS_UDP_MAX];
	struct sockaddr_storage from;
	socklen_t flen;
	ssize_t n;
	int i, k;

	for (i = 0; i < UDP_BURST; i++) {
		flen = sizeof(from);
		n = recvfrom(fd, in, sizeof(in), MSG_DONTWAIT,
		    (struct sockaddr *)&from, &flen);
		if (n < 0)
			return;
		if ((k = answer(d, in, (size_t)n, out, sizeof(out))) > 0)
			sendto(fd, out, (size_t)k, MSG_DONTWAIT,
			    (struct sockaddr *)&from, flen);
	}
}

static void
tcp_free(struct dns_tcp *c)
{
	*c->pprev = c->next;
	if (c->next != NULL)
		c->next->pprev = c->pprev;
	c->stub->nclients--;
	bufferevent_free(c->bev);
	free(c);
}

/* Each whole message (a 2-byte length first) answered in turn. */
static void
tcp_read(struct bufferevent *bev, void *arg)
{
	struct dns_tcp *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	uint8_t msg[TCP_MSG_MAX], out[DNS_UDP_MAX + 2], hdr[2];
	size_t len;
	int k;

	while (evbuffer_copyout(in, hdr, 2) == 2) {
		if (evbuffer_get_length(bufferevent_get_output(bev)) >=
		    TCP_OUT_MAX) {
			/* Read again once it has read its answers. */
			bufferevent_disable(bev, EV_READ);
			return;
		}
		len = (size_t)hdr[0] << 8 | hdr[1];
		if (len > sizeof(msg)) {
			tcp_free(c);
			return;
		}
		if (evbuffer_get_length(in) < len + 2)
			return;
		evbuffer_drain(in, 2);
		evbuffer_remove(in, msg, len);
		if ((k = answer(c->stub, msg, len, out + 2,
		    sizeof(out) - 2)) > 0) {
			out[0] = (uint8_t)(k >> 8);
			out[1] = (uint8_t)k;
			bufferevent_write(bev, out, (size_t)k + 2);
		}
	}
}

/* The answers are read (the output at its low watermark): queries again,
 * those waiting first. */
static void
tcp_written(struct bufferevent *bev, void *arg)
{
	if (bufferevent_get_enabled(bev) & EV_READ)
		return;
	bufferevent_enable(bev, EV_READ);
	tcp_read(bev, arg);
}

static void
tcp_event(struct bufferevent *bev, short what, void *arg)
{
	tcp_free(arg);
}

static void
tcp_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int salen, void *arg)
{
	struct dns_stub *d = arg;
	struct timeval idle = { TCP_IDLE_S, 0 };
	struct dns_tcp *c;

	if (d->nclients >= TCP_CLIENTS_MAX ||
	    (c = calloc(1, sizeof(*c))) == NULL) {
		close(fd);
		return;
	}
	c->stub = d;
	c->bev = bufferevent_socket_new(sbxd.base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		close(fd);
		free(c);
		return;
	}
	bufferevent_setcb(c->bev, tcp_read, tcp_written, tcp_event, c);
	bufferevent_setwatermark(c->bev, EV_WRITE, TCP_OUT_MAX / 2, 0);
	bufferevent_set_timeouts(c->bev, &idle, &idle);
	bufferevent_enable(c->bev, EV_READ);
	c->next = d->clients;
	if (c->next != NULL)
		c->next->pprev = &c->next;
	c->pprev = &d->clients;
	d->clients = c;
	d->nclients++;
}

int
dns_stub_attach(struct proxy *px, int fds[3])
{
	struct dns_stub *d = calloc(1, sizeof(*d));
	int i;

	if (d == NULL)
		goto fail;
	d->px = px;
	d->udp[0] = d->udp[1] = -1;
	fakeip_init(&d->map);
	px->dns = d;
	for (i = 0; i < 2; i++) {
		if ((d->udp[i] = fds[i * 2]) < 0)
			continue;
		fds[i * 2] = -1;
		d->udp_ev[i] = event_new(sbxd.base, d->udp[i],
		    EV_READ | EV_PERSIST, udp_cb, d);
		if (d->udp_ev[i] == NULL || event_add(d->udp_ev[i], NULL) < 0)
			goto fail;
	}
	if (fds[1] >= 0) {
		d->tcp = evconnlistener_new(sbxd.base, tcp_accept, d,
		    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fds[1]);
		if (d->tcp == NULL)
			goto fail;
		fds[1] = -1;
	}
	return 0;
fail:
	for (i = 0; i < 3; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
	dns_stub_free(px);
	return -ENOMEM;
}

void
dns_stub_free(struct proxy *px)
{
	struct dns_stub *d = px->dns;
	int i;

	if (d == NULL)
		return;
	px->dns = NULL;
	for (i = 0; i < 2; i++) {
		if (d->udp_ev[i] != NULL)
			event_free(d->udp_ev[i]);
		if (d->udp[i] >= 0)
			close(d->udp[i]);
	}
	if (d->tcp != NULL)
		evconnlistener_free(d->tcp);
	while (d->clients != NULL)
		tcp_free(d->clients);
	fakeip_free(&d->map);
	free(d);
}

int
dns_stub_name(const struct proxy *px, const uint8_t *addr, size_t len,
    struct host *out)
{
	const struct host *h;
	uint32_t idx;

	if (fakeip_index(addr, len, &idx) < 0)
		return -ENOENT;
	if (px->dns == NULL || (h = fakeip_name(&px->dns->map, idx)) == NULL)
		return -ESRCH;
	*out = *h;
	return 0;
}
