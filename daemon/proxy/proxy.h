/* The filtering proxy: serves each sandbox's HTTP and SOCKS5 listeners from the daemon's loop. */
#ifndef SBX_PROXY_H
#define SBX_PROXY_H

#include <stdbool.h>
#include <stdint.h>

#include <sys/socket.h>

#include "proto/wire.h"

struct policy;
struct proxy;
struct violation;

/* Daemon-wide settings (sbxd options). */
struct proxy_config {
	unsigned ask_timeout_ms;	/* an unanswered approval denies */
	unsigned head_timeout_ms;	/* for a request head, a SOCKS5
					   handshake, a tunnel's first bytes */
	const char *hosts_file;		/* extra resolver entries, or NULL */
	const char *resolv_conf;	/* NULL: /etc/resolv.conf */
	const char *upstream_ca;	/* PEM CAs for inspected upstreams
					   besides the system's, or NULL */
};

/*
 * The resolver (evdns on sbxd.base: /etc/resolv.conf, /etc/hosts, then
 * cfg->hosts_file). 0, or -errno with err set.
 */
int proxy_init(const struct proxy_config *cfg, char *err, size_t errlen);
void proxy_cleanup(void);

/* Who answered an approval request (a connection of the core's, opaque
 * here, and its request id: handed back to hooks.answered). */
struct proxy_answerer {
	const char *name;	/* its Hello's client_name, or "" */
	const void *conn;
	uint64_t req;
};

/* What a proxy needs from its session. */
struct proxy_hooks {
	void *arg;
	/* Sends env to the session's client; < 0 when it has none. */
	int (*send)(void *arg, const Sbx__Envelope *env);
	/* A denial, for the session's violation events (v and its strings
	 * are valid during the call only). */
	void (*violation)(void *arg, const struct violation *v);
	/* May this accepted connection be served? NULL: every one (the
	 * listeners are inside the sandbox's own network namespace). */
	bool (*admit)(void *arg, int fd);
	/* An approval request was settled: a (valid during the call) for
	 * the session's client and the approvers; by: who answered, NULL
	 * when nobody did (timeout, client gone). */
	void (*answered)(void *arg, Sbx__ApprovalAnswered *a,
			 const struct proxy_answerer *by);
};

/* The sockets a proxy serves, by index in proxy_attach's fds. */
enum {
	PROXY_FD_HTTP,
	PROXY_FD_SOCKS,
	PROXY_FD_CAPTURE4,	/* transparent capture (SANDBOX_CAPTURE_PORT) */
	PROXY_FD_CAPTURE6,
	PROXY_FD_DNS_UDP,	/* the stub resolver (SANDBOX_DNS_PORT) */
	PROXY_FD_DNS_TCP,
	PROXY_FD_DNS_UDP6,
	PROXY_FD_MAX
};

/*
 * Serves fds[PROXY_FD_*] (nfds of them, at least HTTP and SOCKS5; -1 for
 * one that is not there), sockets made inside session_id's network
 * namespace, with that session's effective policy (read during this call
 * only; NULL: every destination is denied). The fds are consumed. NULL if
 * it cannot (logged).
 */
struct proxy *proxy_attach(uint64_t session_id, const struct policy *policy,
    const struct proxy_hooks *hooks, int *fds, int nfds);
/*
 * For a sandbox without a network namespace of its own: listens on the
 * host's 127.0.0.1 at two ports the kernel picks, ports[0] HTTP and
 * ports[1] SOCKS5, and serves them as proxy_attach does. Any process of
 * the host can connect to them, so hooks->admit is required. NULL if it
 * cannot (logged).
 */
struct proxy *proxy_listen_loopback(uint64_t session_id,
    const struct policy *policy, const struct proxy_hooks *hooks,
    uint16_t ports[2]);
/* Is port one of proxy_listen_loopback's listeners (live ones)? */
bool proxy_loopback_port(uint16_t port);

/* The HTTP listener of a proxy that serves a sandbox's own network
 * namespace (not proxy_listen_loopback's), or -1: what gives that
 * namespace back (sandbox_net_recycle). Still the proxy's. */
int proxy_netns_listener(const struct proxy *px);

/*
 * A listener whose every connection goes to one fixed destination,
 * unchecked (proxy/forward.c): a host service the sandbox calls
 * (network.hostServices: the listener is in the sandbox's network
 * namespace, the destination the host's), or a published port the host
 * calls (the listener on the host, the destination in the sandbox's
 * namespace). Its connections are px's: counted in its share, closed
 * with it.
 */
struct proxy_forward {
	const char *kind;	/* "host-service", "published-port" */
	const char *id;		/* names it in events; copied */
	struct sockaddr_storage to[2];	/* tried in this order */
	socklen_t tolen[2];
	int nto;
	/* The socket to dial from (one made in the sandbox's network
	 * namespace), or -errno; NULL: an ordinary socket of the daemon's. */
	int (*socket)(void *arg, int family);
	/* May this accepted connection be served? NULL: every one. */
	bool (*admit)(void *arg, int fd);
	/* Each connection's outcome: target as text, err 0 or -errno. */
	void (*note)(void *arg, const struct proxy_forward *f,
	    const char *target, int err);
	void *arg;
};

/* Serves listening socket fd (consumed) as f says: 0, or -errno. */
int proxy_forward_add(struct proxy *px, int fd, const struct proxy_forward *f);
/* Closes every forward of px and its connections (its command ended: a
 * published port is free at once for the next run). NULL: nothing. */
void proxy_forwards_end(struct proxy *px);
/* The run's credentials (proxy/cred.h), taken over: inspected hosts get
 * their real values, and their sentinels go nowhere else. */
struct cred_set;
void proxy_credentials(struct proxy *px, struct cred_set *creds);
const struct cred_set *proxy_creds(const struct proxy *px);

/* Stops serving and frees every connection. Not from a proxy callback. */
void proxy_free(struct proxy *px);

/* The session's client or an approver (by) answered an ApprovalRequest:
 * 0, or -ENOENT when px has no pending request of that id. */
int proxy_approval(struct proxy *px, const Sbx__ApprovalDecision *d,
    const struct proxy_answerer *by);
/* The session's client left: nobody can answer now, pending asks deny. */
void proxy_client_gone(struct proxy *px);

#endif
