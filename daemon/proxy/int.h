/* Shared by the proxy's files: one client connection and the steps every protocol takes. */
#ifndef SBX_PROXY_INT_H
#define SBX_PROXY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/fdlimit.h"
#include "daemon/proxy/host.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/rules.h"
#include "daemon/proxy/proxy.h"

struct evutil_addrinfo;
struct evdns_base;
struct evdns_getaddrinfo_request;
struct ask;
struct http_state;
struct inspect;
struct inspect_rules;
struct cred_set;
struct tunnel_check;
struct upstream_url;
struct dns_stub;

/* Stop reading one side while this much waits to be written to the other. */
#define PROXY_HIGH (1u << 20)
#define PROXY_CONNECT_TIMEOUT_MS 10000
/* A client that does not read its error reply is cut off after this. */
#define PROXY_LINGER_MS 5000
/* Connections one session may hold open; more are refused at accept. */
#define PROXY_CONNS_MAX 4096
/* What a connection costs in fds before any pipe (proxy-fds.c). */
#define PCONN_FDS 2


struct proxy {
	uint64_t session_id;
	struct proxy_hooks hooks;
	struct proxy_rules *rules;	/* never NULL */
	struct inspect_rules *l7;	/* request rules (inspect-rules.h) */
	struct cred_set *creds;		/* the run's credentials, or NULL */
	/* HTTP, SOCKS5, captured TCP over IPv4 and IPv6 (PROXY_FD_*) */
	struct evconnlistener *lis[4];
	struct dns_stub *dns;		/* with capture: names, made-up
					   addresses; else NULL */
	/* Listeners paused (at a limit, or EMFILE) wait for fds here. */
	struct fdlimit_waiter waiter;
	struct event *reap_ev;
	struct pconn *conns, *dead;
	struct ask *asks;
	unsigned nconns;
	unsigned fds;			/* held by its connections */
	bool joined;			/* counted by proxy-fds.c */
	/* proxy_listen_loopback's: the ports, and the list of such proxies */
	uint16_t ports[2];
	struct proxy *lo_next, **lo_pprev;
	/* Fixed-destination listeners (proxy/forward.c) */
	struct forward *fwds;
};

/*
 * What denied a connection: a rule or setting (o), or one of sbx's own
 * checks (o NULL, check names it). Valid only while being reported.
 */
struct proxy_denial {
	const struct proxy_origin *o;
	const char *check;	/* "address check", "tunnel check", ... */
	const char *why;	/* static phrase */
	char detail[320];
	const char *remedy;	/* when the rule gives no reason */
	char fix[512];		/* a remedy made for this denial: first */
};

struct pconn;
/* err: 0 connected (pc->u), -EACCES denied (d says why, already
 * reported), else -errno with pc->errmsg. */
typedef void (*dial_fn)(struct pconn *pc, int err,
    const struct proxy_denial *d);

/* One accepted connection; owned by its proxy, freed from reap_ev. */
struct pconn {
	struct proxy *px;
	int state;			/* the protocol file's */
	struct pio *c, *u;		/* client; upstream or NULL */
	struct event *timer;		/* a deadline: closes on expiry */
	bool dead, closing;
	unsigned nfds;			/* counted in px->fds */

	/* The destination asked for, and how. */
	struct host host;
	uint16_t port;
	const char *proto;		/* "http", "connect", "socks5", "tcp",
					   "forward" */
	struct forward *fwd;		/* a forward's connection */
	int fwd_next;			/* its next target to try */
	/* Captured (proxy/capture.c): the client's socket, reset when
	 * refused; by_port: not port 80 or 443, so bytes that are neither
	 * TLS nor HTTP pass (tunnel-check.h). */
	int cfd;
	bool by_port;
	/* HTTP keep-alive: what u is connected to. */
	struct host up_host;
	uint16_t up_port;

	/* Dialling: decision, approval, resolution, connect. */
	dial_fn dial_done;
	bool by_exact, has_once;
	struct proxy_rule once;		/* an allow-once approval */
	struct evdns_getaddrinfo_request *dns;
	struct evutil_addrinfo *ai, *ai_next;
	int dial_err;
	struct ask *ask;
	struct pconn *ask_next;
	char errmsg[320];
	/* Through network.parentProxy (rules->up owns it), or NULL: direct.
	 * via_forward: a plain HTTP request sent to it in absolute form;
	 * else u is a CONNECT tunnel through it. */
	const struct upstream_url *via;
	bool via_forward;

	/* Tunnels: first bytes checked; each side's end seen. Splice pipes
	 * per direction (0: client to upstream; 1 also carries HTTP
	 * response bodies), opened when first needed. tc: the check of the
	 * client's bytes while it lasts (all of a plain HTTP stream). */
	bool sniffed, c_eof, u_eof;
	struct pio_pipe pipe[2];
	struct tunnel_check *tc;

	struct http_state *http;
	struct inspect *insp;		/* inspect.c's, while it runs */
	struct pconn *next, **pprev;
};

/* proxy.c */
const struct proxy_config *proxy_config(void);
/* A connection of px on accepted fd (counted; room was checked), or NULL
 * (fd closed). */
struct pconn *pconn_new(struct proxy *px, int fd);
/* proxy/forward.c: paused or taking connections again with px's own
 * listeners. */
void forward_pause_all(struct proxy *px, bool pause);
struct evdns_base *proxy_dns(void);
/* Closes now: both sockets, any dialling; freed later. */
void pconn_close(struct pconn *pc);
/* Closes once what is queued for the client is written (or after
 * PROXY_LINGER_MS); the upstream goes at once. */
void pconn_finish(struct pconn *pc);
/* Arms pc->timer (0 disarms). */
void pconn_deadline(struct pconn *pc, unsigned ms);

/* proxy/fds.c: each proxy's share of fdlimit_budget(). */
void proxy_fds_join(struct proxy *px);
void proxy_fds_leave(struct proxy *px);
unsigned proxy_fds_share(void);
/* Whether px may hold n more; take counts them (false: not taken). */
bool proxy_fds_room(const struct proxy *px, unsigned n);
bool proxy_fds_take(struct proxy *px, unsigned n);
void proxy_fds_give(struct proxy *px, unsigned n);
/* Opens pc->pipe[d] within the share: 0, -EMFILE past it, or -errno. */
int proxy_fds_pipe(struct pconn *pc, int d);
/* Closes an accepted fd past the share; an HTTP client is told why. */
void proxy_fds_refuse(struct proxy *px, int fd, bool http);

/*
 * proxy/dial.c: decide, maybe ask, resolve, connect; done is called once
 * unless the connection closes first. This is the one way to an upstream
 * for every protocol, captured connections included: pc->host, port and
 * proto set, pc->c the client. An allowed destination goes through the
 * session's network.parentProxy unless noProxy names it (upstream.h):
 * pc->u is then a CONNECT tunnel through it to host:port, except for
 * proto "http", whose requests the upstream gets in absolute form
 * (pc->via_forward).
 */
void dial_start(struct pconn *pc, dial_fn done);
/* The dial's end from upstream.c: 0 (pc->u connected) or -errno with
 * pc->errmsg. */
void dial_finish(struct pconn *pc, int err);
/* proxy/upstream.c: pc->u connected to pc->via: CONNECT host:port. */
void upstream_handshake(struct pconn *pc);
/* Its deadline passed without an answer: the dial fails (-ETIMEDOUT). */
void upstream_timeout(struct pconn *pc);
void dial_stop(struct pconn *pc);
/* An approval answered (SBX__APPROVAL_ANSWER__*, or -1: timed out). */
void dial_asked(struct pconn *pc, int answer, const char *reason);

/* proxy/ask.c */
int ask_start(struct pconn *pc);
/* What the address check will say of pc once allowed, when it refuses
 * every address pc is known to have without a DNS lookup (an address
 * literal, a hosts-file name): the reason in buf, else "". */
void dial_refused(struct pconn *pc, char *buf, size_t len);
void ask_leave(struct pconn *pc);
/* -ENOENT: no pending request id (unknown, settled, timed out). */
int ask_answer(struct proxy *px, uint64_t id, int answer,
    const char *reason, const struct proxy_answerer *by);
/* Every pending ask answered deny (reason), or dropped (reason NULL). */
void ask_end_all(struct proxy *px, const char *reason);

/* proxy/report.c */
void proxy_report(struct pconn *pc, const struct proxy_denial *d);
/* "blocked HOST:PORT: WHY (RULE) - REMEDY" for replies and logs. */
int proxy_denial_format(const struct pconn *pc, const struct proxy_denial *d,
    char *buf, size_t size);

/* The protocols. */
void http_start(struct pconn *pc);
void http_free(struct pconn *pc);
void socks_start(struct pconn *pc);
/* c and u connected, the reply sent: check the first bytes, relay. */
void tunnel_start(struct pconn *pc);
/* The same without a check (pc->tc NULL): a forward's fixed destination. */
void tunnel_relay(struct pconn *pc);
/* proxy/capture.c: fd was accepted on a capture listener (pc->c's). */
void capture_start(struct pconn *pc, int fd);

/* proxy/dns-stub.c: serves fds[0] (UDP on 127.0.0.1), fds[1] (TCP),
 * fds[2] (UDP on ::1) for px, any of them -1; each is consumed (set to
 * -1). 0 or -errno (nothing served then). */
int dns_stub_attach(struct proxy *px, int fds[3]);
void dns_stub_free(struct proxy *px);
/* The name the made-up address addr (4 or 16 bytes) stands for: 0 with
 * *out set; -ENOENT when addr is not one; -ESRCH when it is one the stub
 * never gave. */
int dns_stub_name(const struct proxy *px, const uint8_t *addr, size_t len,
    struct host *out);

#endif
