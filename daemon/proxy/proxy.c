/* The proxy's per-session object: listeners, connections and their lifetime, the resolver. */

/*
 * The listeners were made inside one sandbox's network namespace, so
 * whoever connects to them is that sandbox: attribution needs no token.
 *
 * Where no network namespace can be made (sandbox.h,
 * SANDBOX_NET_HOST_PORTS) they are on the host's loopback instead, at
 * ports the kernel picks per session, and a port alone proves nothing.
 * A connection is that session's when two things hold:
 *  - every sandbox can reach its own session's ports only (Landlock's TCP
 *    connect rule, and the daemon, which makes each connect() itself to
 *    127.0.0.1 at those ports only; seccomp closes what passes both by:
 *    other IP protocols, listen(), TCP Fast Open), so no other sandbox
 *    can be the peer;
 *  - the peer's socket belongs to the served user (hooks->admit: the
 *    session asks the kernel, sandbox_peer_uid), so no other user can be.
 * What remains are the served user's own processes outside any sandbox:
 * they could reach what the proxy reaches without it (the session's
 * allowed hosts, its approvals, a loopback service a rule names), so
 * borrowing the proxy gains them nothing. They could ask the session's
 * client an approval question in the session's name, which a process of
 * that user can do to its terminal anyway. The proxy itself never dials
 * one of these ports (proxy_loopback_port): one session must not reach
 * another's policy through it.
 *
 * A connection is closed at once (sockets freed, dialling cancelled) but
 * its memory is released from reap_ev, never inside its own callback.
 */
#include <errno.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/proxy/cred.h"
#include "daemon/proxy/inspect-rules.h"
#include "daemon/proxy/inspect.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/tls.h"

static struct evdns_base *dns;
static struct proxy_config config;
/* The proxies listening on the host's loopback. */
static struct proxy *loopback_proxies;

const struct proxy_config *
proxy_config(void)
{
	return &config;
}

struct evdns_base *
proxy_dns(void)
{
	return dns;
}

int
proxy_init(const struct proxy_config *cfg, char *err, size_t errlen)
{
	config = *cfg;
	if (cfg->resolv_conf != NULL) {
		dns = evdns_base_new(sbxd.base,
		    EVDNS_BASE_DISABLE_WHEN_INACTIVE);
		if (dns == NULL || evdns_base_resolv_conf_parse(dns,
		    DNS_OPTIONS_ALL, cfg->resolv_conf) != 0) {
			snprintf(err, errlen, "--resolv-conf %s: cannot load "
			    "it", cfg->resolv_conf);
			return -EINVAL;
		}
	} else
		dns = evdns_base_new(sbxd.base,
		    EVDNS_BASE_INITIALIZE_NAMESERVERS |
		    EVDNS_BASE_DISABLE_WHEN_INACTIVE);
	if (dns == NULL) {
		/* No usable resolv.conf: /etc/hosts still answers. */
		log_warn("resolver: no usable /etc/resolv.conf; names resolve "
		    "from /etc/hosts only");
		dns = evdns_base_new(sbxd.base,
		    EVDNS_BASE_DISABLE_WHEN_INACTIVE);
		if (dns == NULL) {
			snprintf(err, errlen, "resolver: out of memory");
			return -ENOMEM;
		}
		evdns_base_load_hosts(dns, NULL);
	}
	if (cfg->hosts_file != NULL &&
	    evdns_base_load_hosts(dns, cfg->hosts_file) != 0) {
		snprintf(err, errlen, "--hosts-file %s: cannot load it",
		    cfg->hosts_file);
		return -EINVAL;
	}
	return tls_ca_init(cfg->upstream_ca, err, errlen);
}

void
proxy_cleanup(void)
{
	tls_ca_cleanup();
	if (dns != NULL)
		evdns_base_free(dns, 1);
	dns = NULL;
}

static void
reap_cb(evutil_socket_t fd, short what, void *arg)
{
	struct proxy *px = arg;
	struct pconn *pc;

	while ((pc = px->dead) != NULL) {
		px->dead = pc->next;
		http_free(pc);
		inspect_free(pc);
		free(pc->tc);
		event_free(pc->timer);
		free(pc);
	}
}

void
pconn_close(struct pconn *pc)
{
	struct proxy *px = pc->px;

	if (pc->dead)
		return;
	pc->dead = true;
	dial_stop(pc);
	pio_free(pc->c);
	pio_free(pc->u);
	pc->c = pc->u = NULL;
	pio_pipe_close(&pc->pipe[0]);
	pio_pipe_close(&pc->pipe[1]);
	event_del(pc->timer);
	*pc->pprev = pc->next;
	if (pc->next != NULL)
		pc->next->pprev = pc->pprev;
	px->nconns--;
	proxy_fds_give(px, pc->nfds);
	pc->nfds = 0;
	pc->next = px->dead;
	px->dead = pc;
	event_active(px->reap_ev, EV_TIMEOUT, 0);
	/* A listener paused at a limit may take connections again. */
	fdlimit_released();
}

static void
timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pconn *pc = arg;

	/* An upstream proxy that does not answer CONNECT: the client is
	 * told so (504), not just cut off. */
	if (pc->dial_done != NULL && pc->via != NULL && pc->u != NULL) {
		upstream_timeout(pc);
		return;
	}
	pconn_close(pc);
}

void
pconn_deadline(struct pconn *pc, unsigned ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (ms == 0)
		event_del(pc->timer);
	else
		evtimer_add(pc->timer, &tv);
}

static void
linger_drained(struct pconn *pc, struct pio *p)
{
	if (pio_pending(p) == 0)
		pconn_close(pc);
}

static void
linger_event(struct pconn *pc, struct pio *p, int what)
{
	pconn_close(pc);
}

static const struct pio_ops linger_ops = {
	NULL, linger_drained, linger_event,
};

void
pconn_finish(struct pconn *pc)
{
	if (pc->dead || pc->closing)
		return;
	pc->closing = true;
	dial_stop(pc);
	pio_free(pc->u);
	pc->u = NULL;
	pio_flush(pc->c);
	if (pio_pending(pc->c) == 0) {
		pconn_close(pc);
		return;
	}
	pio_read(pc->c, false);
	pio_low_mark(pc->c, 0);
	pio_set_ops(pc->c, &linger_ops);
	pconn_deadline(pc, PROXY_LINGER_MS);
}

struct pconn *
pconn_new(struct proxy *px, int fd)
{
	struct pconn *pc = calloc(1, sizeof(*pc));

	if (pc == NULL) {
		close(fd);
		return NULL;
	}
	pc->px = px;
	pc->cfd = -1;
	pio_pipe_init(&pc->pipe[0]);
	pio_pipe_init(&pc->pipe[1]);
	pc->c = pio_new(fd, pc);
	if (pc->c != NULL)
		pio_loopback(pc->c);	/* listeners are on loopback only */
	pc->timer = evtimer_new(sbxd.base, timer_cb, pc);
	if (pc->c == NULL || pc->timer == NULL) {
		pio_free(pc->c);
		if (pc->timer != NULL)
			event_free(pc->timer);
		free(pc);
		return NULL;
	}
	pc->next = px->conns;
	if (pc->next != NULL)
		pc->next->pprev = &pc->next;
	pc->pprev = &px->conns;
	px->conns = pc;
	px->nconns++;
	if (proxy_fds_take(px, PCONN_FDS))	/* room was checked */
		pc->nfds = PCONN_FDS;
	return pc;
}

static void
pause_listeners(struct proxy *px, bool pause)
{
	int i;

	for (i = 0; i < 4; i++)
		if (px->lis[i] != NULL) {
			if (pause)
				evconnlistener_disable(px->lis[i]);
			else
				evconnlistener_enable(px->lis[i]);
		}
	forward_pause_all(px, pause);
}

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int salen, void *arg)
{
	struct proxy *px = arg;
	struct pconn *pc;

	if (px->hooks.admit != NULL && !px->hooks.admit(px->hooks.arg, fd)) {
		close(fd);
		return;
	}
	if (px->nconns >= PROXY_CONNS_MAX ||
	    !proxy_fds_room(px, PCONN_FDS)) {
		/* This one is refused; the next wait in the backlog until a
		 * connection closes. */
		proxy_fds_refuse(px, fd, l == px->lis[0]);
		log_warn("session %llu: %u proxy connections holding %u file "
		    "descriptors (its share: %u), refusing more",
		    (unsigned long long)px->session_id, px->nconns, px->fds,
		    proxy_fds_share());
		pause_listeners(px, true);
		fdlimit_wait(&px->waiter);
		return;
	}
	if ((pc = pconn_new(px, fd)) == NULL) {
		log_warn("session %llu: proxy: out of memory",
		    (unsigned long long)px->session_id);
		return;
	}
	pconn_deadline(pc, config.head_timeout_ms);
	if (l == px->lis[PROXY_FD_HTTP])
		http_start(pc);
	else if (l == px->lis[PROXY_FD_SOCKS])
		socks_start(pc);
	else
		capture_start(pc, fd);
}

static void
resume_cb(void *arg)
{
	struct proxy *px = arg;

	if (px->nconns < PROXY_CONNS_MAX && proxy_fds_room(px, PCONN_FDS))
		pause_listeners(px, false);
	else
		fdlimit_wait(&px->waiter);
}

/* EMFILE above all: the backlog keeps the listener readable, and retrying
 * at once would spin. Paused until an fd closes (or a while, for other
 * errors). */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct proxy *px = arg;
	int e = EVUTIL_SOCKET_ERROR();

	log_warn("session %llu: proxy accept: %s; paused",
	    (unsigned long long)px->session_id, strerror(e));
	pause_listeners(px, true);
	fdlimit_wait(&px->waiter);
}

struct proxy *
proxy_attach(uint64_t session_id, const struct policy *policy,
    const struct proxy_hooks *hooks, int *fds, int nfds)
{
	struct proxy *px = calloc(1, sizeof(*px));
	char err[256] = "";
	int i, r;

	if (px == NULL || nfds < 2 || nfds > PROXY_FD_MAX)
		goto fail;
	px->session_id = session_id;
	px->hooks = *hooks;
	px->waiter.cb = resume_cb;
	px->waiter.arg = px;
	proxy_fds_join(px);
	if ((r = proxy_rules_compile(policy, &px->rules, err,
	    sizeof(err))) < 0) {
		/* Fail closed: no rules, unknown hosts denied. */
		log_error("session %llu: network policy: %s; denying every "
		    "destination", (unsigned long long)session_id,
		    r == -ENOMEM ? "out of memory" : err);
		if (proxy_rules_compile(NULL, &px->rules, err,
		    sizeof(err)) < 0)
			goto fail;
	}
	if (inspect_rules_compile(policy, &px->l7, err, sizeof(err)) < 0) {
		/* Fail closed: the rules cannot be applied. */
		log_error("session %llu: request rules: %s; denying every "
		    "destination", (unsigned long long)session_id, err);
		proxy_rules_free(px->rules);
		if (proxy_rules_compile(NULL, &px->rules, err,
		    sizeof(err)) < 0)
			goto fail;
	}
	px->reap_ev = event_new(sbxd.base, -1, 0, reap_cb, px);
	if (px->reap_ev == NULL)
		goto fail;
	for (i = 0; i < nfds && i < 4; i++) {
		if (fds[i] < 0)
			continue;
		px->lis[i] = evconnlistener_new(sbxd.base, accept_cb, px,
		    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fds[i]);
		if (px->lis[i] == NULL)
			goto fail;
		fds[i] = -1;
		evconnlistener_set_error_cb(px->lis[i], accept_error_cb);
	}
	if (nfds > PROXY_FD_DNS_UDP6) {
		r = dns_stub_attach(px, &fds[PROXY_FD_DNS_UDP]);
		if (r < 0)
			goto fail;
	}
	return px;
fail:
	log_error("session %llu: cannot serve the proxy listeners",
	    (unsigned long long)session_id);
	for (i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	proxy_free(px);
	return NULL;
}

/* A listening socket on 127.0.0.1 at a port the kernel picks. */
static int
listen_loopback(uint16_t *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd, e;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		e = errno;
		close(fd);
		return -e;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

struct proxy *
proxy_listen_loopback(uint64_t session_id, const struct policy *policy,
    const struct proxy_hooks *hooks, uint16_t ports[2])
{
	uint16_t p[2] = { 0, 0 };
	int fds[2] = { -1, -1 }, i;
	struct proxy *px;

	if (hooks->admit == NULL)
		return NULL;
	for (i = 0; i < 2; i++)
		if ((fds[i] = listen_loopback(&p[i])) < 0) {
			log_error("session %llu: proxy listener on 127.0.0.1: "
			    "%s", (unsigned long long)session_id,
			    strerror(-fds[i]));
			if (i == 1)
				close(fds[0]);
			return NULL;
		}
	if ((px = proxy_attach(session_id, policy, hooks, fds, 2)) == NULL)
		return NULL;
	memcpy(px->ports, p, sizeof(p));
	memcpy(ports, p, sizeof(p));
	px->lo_next = loopback_proxies;
	if (px->lo_next != NULL)
		px->lo_next->lo_pprev = &px->lo_next;
	px->lo_pprev = &loopback_proxies;
	loopback_proxies = px;
	return px;
}

bool
proxy_loopback_port(uint16_t port)
{
	const struct proxy *px;

	for (px = loopback_proxies; px != NULL; px = px->lo_next)
		if (port != 0 && (px->ports[0] == port || px->ports[1] == port))
			return true;
	return false;
}

void
proxy_free(struct proxy *px)
{
	int i;

	if (px == NULL)
		return;
	if (px->lo_pprev != NULL) {
		*px->lo_pprev = px->lo_next;
		if (px->lo_next != NULL)
			px->lo_next->lo_pprev = px->lo_pprev;
	}
	for (i = 0; i < 4; i++)
		if (px->lis[i] != NULL)
			evconnlistener_free(px->lis[i]);
	proxy_forwards_end(px);
	dns_stub_free(px);
	while (px->conns != NULL)
		pconn_close(px->conns);
	ask_end_all(px, NULL);
	if (px->reap_ev != NULL) {
		reap_cb(-1, 0, px);
		event_free(px->reap_ev);
	}
	fdlimit_cancel(&px->waiter);
	proxy_fds_leave(px);
	proxy_rules_free(px->rules);
	inspect_rules_free(px->l7);
	cred_set_free(px->creds);
	free(px);
}

int
proxy_netns_listener(const struct proxy *px)
{
	if (px == NULL || px->lo_pprev != NULL || px->lis[0] == NULL)
		return -1;
	return evconnlistener_get_fd(px->lis[0]);
}

int
proxy_approval(struct proxy *px, const Sbx__ApprovalDecision *d,
    const struct proxy_answerer *by)
{
	return ask_answer(px, d->request_id, d->answer,
	    d->reason && d->reason[0] ? d->reason : NULL, by);
}

void
proxy_client_gone(struct proxy *px)
{
	ask_end_all(px, "the client left before answering");
}

void
proxy_credentials(struct proxy *px, struct cred_set *creds)
{
	cred_set_free(px->creds);
	px->creds = creds;
}

const struct cred_set *
proxy_creds(const struct proxy *px)
{
	return px->creds;
}
