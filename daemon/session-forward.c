/* A session's forwards: the host services its policy lists
 * (network.hostServices) and the ports its request publishes (--publish),
 * both served by its proxy (proxy/forward.c) and each connection an event.
 *
 * A host service: the sandbox's command process listens at the service's
 * address inside the sandbox's network namespace before it runs anything
 * (sandbox_request.listen, the HOST_LISTENERS record), and the daemon
 * relays each connection to the same address on the host. Nothing else
 * of the host's loopback is reachable: the listener is the rule.
 *
 * A published port: the daemon listens at the host address before the
 * sandbox is spawned (a port in use is the run's error), admits only the
 * served user's connections (the peer socket's owner, as for the proxy's
 * host ports), and dials the sandbox's loopback from a socket made in
 * its network namespace (sandbox_net_socket), IPv4 first, then IPv6. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/log.h"
#include "daemon/policy/domain.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/proxy.h"
#include "daemon/proxy/publish.h"
#include "daemon/sandbox.h"
#include "daemon/session-int.h"

struct session_fwd {
	int fd[SESSION_PUBLISH_MAX];	/* -1 once the proxy took it */
	struct publish_spec spec[SESSION_PUBLISH_MAX];
	char text[SESSION_PUBLISH_MAX][PUBLISH_FORMAT_MAX];
	char *texts[SESSION_PUBLISH_MAX];	/* text[i], for messages */
	unsigned n;
	int ns[2];			/* sandbox_net_open's, or -1 */
};

static void
note(void *arg, const struct proxy_forward *f, const char *target, int err)
{
	struct session *s = arg;
	Sbx__Forwarded ev = SBX__FORWARDED__INIT;
	char session[32], kind[40], id[160], tgt[80];
	const char *fields[] = { session, kind, id, tgt, NULL };

	snprintf(session, sizeof(session), "SBX_SESSION=%llu",
		 (unsigned long long)s->id);
	snprintf(kind, sizeof(kind), "SBX_FORWARD=%s", f->kind);
	snprintf(id, sizeof(id), "SBX_FORWARD_ID=%s", f->id);
	snprintf(tgt, sizeof(tgt), "SBX_TARGET=%s", target);
	log_fields(LOG_NOTICE, fields, "session %llu: %s %s: connection to "
		   "%s%s%s", (unsigned long long)s->id, f->kind, f->id,
		   target, err ? ": " : "", err ? strerror(-err) : "");
	ev.session_id = s->id;
	ev.kind = (char *)f->kind;
	ev.id = (char *)f->id;
	ev.target = (char *)target;
	ev.error = err ? strerror(-err) : (char *)"";
	events_forwarded(&ev);
}

/* The address of a listener, as a forward's target: the same one. */
static int
self_target(int fd, struct proxy_forward *f, char *host, size_t len,
	    int *port)
{
	struct sockaddr_storage *ss = &f->to[0];
	socklen_t sl = sizeof(*ss);
#ifdef SO_PROTOCOL
	int v = 0;
	socklen_t vl = sizeof(v);

	/* Only a TCP socket: an AF_UNIX one's address read as IPv4 would
	 * make us connect to whatever those bytes name. */
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &vl) < 0)
		return -errno;
	if (v != IPPROTO_TCP)
		return -EPROTONOSUPPORT;
#endif
	if (getsockname(fd, (struct sockaddr *)ss, &sl) < 0)
		return -errno;
	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		return -EAFNOSUPPORT;
	f->tolen[0] = sl;
	f->nto = 1;
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, (socklen_t)len);
		*port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, host, (socklen_t)len);
		*port = ntohs(s4->sin_port);
	}
	return 0;
}

/* The rule a listener at host:port was made for: its id, else its text;
 * NULL when the policy lists no such service. */
static const char *
service_id(const struct policy *p, const char *host, int port)
{
	const struct policy_rules *l = &p->lists[POLICY_HOST_SERVICES];
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct policy_domain *d = l->v[i].dom;

		if (d && d->port == port && (strcmp(d->host, host) == 0 ||
		    (strcmp(d->host, "localhost") == 0 &&
		     (strcmp(host, "127.0.0.1") == 0 ||
		      strcmp(host, "::1") == 0))))
			return l->v[i].origin.id ? l->v[i].origin.id :
			       l->v[i].value;
	}
	return NULL;
}

void
session_host_listeners(struct session *s, int *fds, int nfds)
{
	struct proxy_forward f = { .kind = "host-service", .note = note,
				   .arg = s };
	char host[INET6_ADDRSTRLEN];
	int i, port = 0, r, on = 0;
	socklen_t olen = sizeof(on);

	/* One record per session, sent before the command runs: a further
	 * one (SO_REUSEPORT copies of the same listener) could make us hold
	 * fds without bound. */
	if (s->host_listeners_seen) {
		log_warn("session %llu: a second host service record: closed",
			 (unsigned long long)s->id);
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		return;
	}
	s->host_listeners_seen = true;
	for (i = 0; i < nfds; i++) {
		/* The record comes from inside the sandbox: a process there
		 * that took over one of ours (a debugger on the job server)
		 * could send one. Only a listening TCP socket at an address
		 * the policy lists is relayed to the host. */
		if (!s->proxy || !s->policy ||
		    getsockopt(fds[i], SOL_SOCKET, SO_ACCEPTCONN, &on,
			       &olen) < 0 || !on ||
		    self_target(fds[i], &f, host, sizeof(host), &port) < 0 ||
		    !(f.id = service_id(s->policy, host, port))) {
			log_warn("session %llu: a host service listener "
				 "not served (no proxy, or not a listener at "
				 "an address the policy lists): closed",
				 (unsigned long long)s->id);
			close(fds[i]);
			continue;
		}
		if ((r = proxy_forward_add(s->proxy, fds[i], &f)) < 0)
			log_error("session %llu: host service %s: %s",
				  (unsigned long long)s->id, f.id,
				  strerror(-r));
	}
}

/* -E2BIG when sr has no room left for it. */
static int
add_listen(struct sandbox_request *sr, int family, const char *text,
	   int port)
{
	struct sandbox_listen l = { .family = (uint8_t)family,
				    .port = (uint16_t)port };
	unsigned i;

	if (inet_pton(family, text, l.addr) != 1)
		return 0;
	for (i = 0; i < sr->nlisten; i++)
		if (memcmp(&sr->listen[i], &l, sizeof(l)) == 0)
			return 0;
	if (sr->nlisten == SANDBOX_LISTEN_MAX)
		return -E2BIG;
	sr->listen[sr->nlisten++] = l;
	return 0;
}

int
session_host_listen(struct session *s, struct sandbox_request *sr,
		    char *err, size_t errlen)
{
	const struct policy_rules *l = &s->policy->lists[POLICY_HOST_SERVICES];
	size_t i;
	int r = 0;

	if (l->n == 0)
		return 0;
	if (sandbox_caps()->net != SANDBOX_NET_NAMESPACE) {
		/* Said by describe; the run goes on without them. */
		log_warn("session %llu: network.hostServices needs a network "
			 "namespace: not served", (unsigned long long)s->id);
		return 0;
	}
	for (i = 0; i < l->n && r == 0; i++) {
		const struct policy_domain *d = l->v[i].dom;

		if (!d)
			continue;
		if (strcmp(d->host, "localhost") == 0 &&
		    (r = add_listen(sr, AF_INET, "127.0.0.1", d->port)) == 0)
			r = add_listen(sr, AF_INET6, "::1", d->port);
		else if (strcmp(d->host, "localhost") != 0)
			r = add_listen(sr, strchr(d->host, ':') ? AF_INET6 :
				       AF_INET, d->host, d->port);
	}
	if (r < 0)
		snprintf(err, errlen, "network.hostServices: at most %d "
			 "addresses (\"localhost\" counts two)",
			 SANDBOX_LISTEN_MAX);
	return r;
}

/* Published ports */

static int
pub_socket(void *arg, int family)
{
	struct session *s = arg;
	struct session_fwd *w = s->fwd;

	int r;

	/* Opened once the sandbox's init is known (a templated sandbox's
	 * comes with its STARTED record): until then, tried again. */
	if (w->ns[0] < 0 && (r = sandbox_net_open(&s->proc, w->ns)) < 0) {
		w->ns[0] = w->ns[1] = -1;
		return r;
	}
	return sandbox_net_socket(w->ns, family);
}

int
session_publish_bind(struct session *s, const Sbx__RunRequest *req,
		     char *err, size_t errlen)
{
	struct sandbox_listen l;
	struct session_fwd *w;
	const char *why;
	size_t i;
	int fd;

	if (req->n_publish == 0)
		return 0;
	if (req->n_publish > SESSION_PUBLISH_MAX) {
		snprintf(err, errlen, "--publish: at most %d ports",
			 SESSION_PUBLISH_MAX);
		return -E2BIG;
	}
	if (sandbox_caps()->net != SANDBOX_NET_NAMESPACE) {
		snprintf(err, errlen, "--publish needs a network namespace, "
			 "which this host does not give sandboxes (sbxctl "
			 "status)");
		return -ENOTSUP;
	}
	if (!(w = s->fwd = calloc(1, sizeof(*w))))
		return -ENOMEM;
	w->ns[0] = w->ns[1] = -1;
	for (i = 0; i < req->n_publish; i++) {
		if (publish_parse(req->publish[i], &w->spec[i], &why) < 0) {
			snprintf(err, errlen, "--publish \"%.80s\": %s",
				 req->publish[i], why);
			return -EINVAL;
		}
		publish_format(&w->spec[i], w->text[i], sizeof(w->text[i]));
		l.family = (uint8_t)w->spec[i].family;
		memcpy(l.addr, w->spec[i].addr, sizeof(l.addr));
		l.port = w->spec[i].host_port;
		/* Root binds as the user it serves could: not a port only
		 * CAP_NET_BIND_SERVICE may bind (squatting a system
		 * service's port before it starts). */
		if (sbxd.privileged &&
		    l.port < sandbox_unprivileged_port_start()) {
			snprintf(err, errlen, "--publish %s: ports below %d "
				 "are root's", w->text[i],
				 sandbox_unprivileged_port_start());
			return -EACCES;
		}
		if ((fd = sandbox_listen_tcp(&l)) < 0) {
			snprintf(err, errlen, "--publish %s: cannot listen "
				 "on the host: %s%s", w->text[i],
				 strerror(-fd), fd == -EADDRINUSE ?
				 " (another program has that port)" :
				 fd == -EACCES ? " (ports below 1024 are "
				 "root's)" : "");
			return fd;
		}
		w->texts[w->n] = w->text[w->n];
		w->fd[w->n++] = fd;
	}
	return 0;
}

size_t
session_published(const struct session *s, char ***texts)
{
	if (!s->fwd)
		return 0;
	*texts = s->fwd->texts;
	return s->fwd->n;
}

void
session_forward_attach(struct session *s)
{
	struct session_fwd *w = s->fwd;
	struct proxy_forward f = { .kind = "published-port",
				   .socket = pub_socket, .admit = session_admit,
				   .note = note, .arg = s, .nto = 2 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)&f.to[0];
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&f.to[1];
	unsigned i;
	int r;

	if (!w || !s->proxy)
		return;
	for (i = 0; i < w->n; i++) {
		if (w->fd[i] < 0)
			continue;
		/* The sandbox's server may listen on its loopback's IPv4
		 * or IPv6 address (or any): IPv4 first. */
		memset(f.to, 0, sizeof(f.to));
		s4->sin_family = AF_INET;
		s4->sin_port = htons(w->spec[i].sandbox_port);
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(w->spec[i].sandbox_port);
		s6->sin6_addr = in6addr_loopback;
		f.tolen[0] = sizeof(*s4);
		f.tolen[1] = sizeof(*s6);
		f.id = w->text[i];
		r = proxy_forward_add(s->proxy, w->fd[i], &f);
		w->fd[i] = -1;
		if (r < 0)
			log_error("session %llu: --publish %s: %s",
				  (unsigned long long)s->id, w->text[i],
				  strerror(-r));
	}
}

void
session_forward_end(struct session *s)
{
	proxy_forwards_end(s->proxy);
	session_forward_free(s);
}

void
session_forward_free(struct session *s)
{
	struct session_fwd *w = s->fwd;
	unsigned i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	if (w->ns[0] >= 0)
		close(w->ns[0]);
	if (w->ns[1] >= 0)
		close(w->ns[1]);
	free(w);
	s->fwd = NULL;
}
