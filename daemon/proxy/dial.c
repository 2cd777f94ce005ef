/* The steps from a requested destination to a connected upstream: decide, ask, resolve, check each address, connect. */

/*
 * Nothing reaches the network before the policy has allowed the name: a
 * denied or unknown host is not even resolved (a lookup is a leak too).
 * The upstream socket connects to the very address that was checked, so
 * a second, different answer from DNS cannot slip in between (rebinding).
 */
#include <errno.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/proxy/addr-class.h"
#include "daemon/proxy/hosts.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/upstream.h"

static void connect_next(struct pconn *pc);

static void
denied(struct pconn *pc, struct proxy_denial *d)
{
	dial_fn done = pc->dial_done;

	pc->dial_done = NULL;
	proxy_report(pc, d);
	done(pc, -EACCES, d);
}

static void
failed(struct pconn *pc, int err)
{
	dial_fn done = pc->dial_done;

	pc->dial_done = NULL;
	done(pc, err, NULL);
}

static void
free_addrs(struct pconn *pc)
{
	if (pc->ai != NULL)
		evutil_freeaddrinfo(pc->ai);
	pc->ai = pc->ai_next = NULL;
}

static void
dns_cb(int result, struct evutil_addrinfo *ai, void *arg)
{
	struct pconn *pc = arg;

	pc->dns = NULL;
	if (result == EVUTIL_EAI_CANCEL)
		return;
	if (result != 0) {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "cannot resolve %s%s: "
		    "%s", pc->via ? "the upstream proxy " : "", pc->via ?
		    pc->via->host.text : pc->host.text,
		    evutil_gai_strerror(result));
		failed(pc, -EHOSTUNREACH);
		return;
	}
	pc->ai = pc->ai_next = ai;
	pc->dial_err = 0;
	connect_next(pc);
}

static int
literal_addr(struct pconn *pc, const struct host *h, uint16_t hport)
{
	struct evutil_addrinfo hints;
	char port[8];
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = EVUTIL_AI_NUMERICHOST | EVUTIL_AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%u", hport);
	r = evutil_getaddrinfo(h->text, port, &hints, &pc->ai);
	pc->ai_next = pc->ai;
	return r == 0 ? 0 : -EINVAL;
}

/* The destination's addresses, or the upstream proxy's when there is
 * one: the policy has decided by name already. */
static void
resolve(struct pconn *pc)
{
	const struct host *h = pc->via ? &pc->via->host : &pc->host;
	uint16_t hport = pc->via ? pc->via->port : pc->port;
	struct evutil_addrinfo hints;
	char port[8];

	pc->dial_err = 0;
	if (h->kind != HOST_NAME) {
		if (literal_addr(pc, h, hport) < 0) {
			snprintf(pc->errmsg, sizeof(pc->errmsg),
			    "bad address %s", h->text);
			failed(pc, -EINVAL);
			return;
		}
		connect_next(pc);
		return;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	snprintf(port, sizeof(port), "%u", hport);
	/* The callback may run before this returns (hosts file). */
	pc->dns = evdns_getaddrinfo(proxy_dns(), h->text, port, &hints,
	    dns_cb, pc);
}

/* Allowed: straight to the destination, or to the upstream proxy. */
static void
go(struct pconn *pc)
{
	bool plain = pc->proto != NULL && strcmp(pc->proto, "http") == 0;

	pc->via = upstream_for(pc->px->rules->up, &pc->host, pc->port, plain);
	pc->via_forward = pc->via != NULL && plain;
	resolve(pc);
}

void
dial_finish(struct pconn *pc, int err)
{
	if (err < 0)
		failed(pc, err);
	else {
		dial_fn done = pc->dial_done;

		pc->dial_done = NULL;
		done(pc, 0, NULL);
	}
}

static void
dial_event(struct pconn *pc, struct pio *p, int what)
{
	dial_fn done = pc->dial_done;

	if (what & PIO_CONNECTED) {
		free_addrs(pc);
		if (pc->via != NULL && !pc->via_forward) {
			upstream_handshake(pc);
			return;
		}
		pc->dial_done = NULL;
		done(pc, 0, NULL);
		return;
	}
	pc->dial_err = pio_error(p) ? pio_error(p) : ECONNREFUSED;
	pio_free(pc->u);
	pc->u = NULL;
	connect_next(pc);
}

static const struct pio_ops dial_ops = { NULL, NULL, dial_event };

/*
 * A session's proxy listener on the host's loopback (no network namespace)
 * is never an upstream, whatever the rules say (network.parentProxy
 * included): through it one session would reach another's policy. Fills
 * d when it is one.
 */
static bool
own_listener(struct pconn *pc, const struct host *addr,
    struct proxy_denial *d)
{
	uint16_t port = pc->via ? pc->via->port : pc->port;
	enum addr_class cls;

	if (!proxy_loopback_port(port) ||
	    addr_class_host(addr, &cls) < 0 ||
	    (cls != ADDR_LOOPBACK && cls != ADDR_UNSPECIFIED))
		return false;
	if (d->why == NULL) {
		d->check = "proxy check";
		d->why = "is an sbx proxy listener";
		snprintf(d->detail, sizeof(d->detail), "%s:%u serves another "
		    "session", addr->text, port);
		d->remedy = "each session reaches the network through its own "
		    "proxy only";
	}
	return true;
}

/* Through the proxy, loopback is the host's (sbxd dials it): a server the
 * command started is called directly instead, and a host service is the
 * user's explicit call. Never advise a rule for 127.0.0.1:PORT. */
static const char loopback_remedy[] = "loopback through the proxy is the "
    "host's: a server started in the sandbox is called directly (NO_PROXY "
    "lists localhost, 127.0.0.1 and ::1); a service on the host is reached "
    "at its own address in the sandbox once the user lists it in "
    "network.hostServices (\"localhost:5432\")";

/* A name some allowedDomains rule allowed, at an address allowPrivate
 * would open: the denial names that rule and the key. */
static void
private_fix(const struct pconn *pc, enum addr_class cls,
    struct proxy_denial *d)
{
	const struct proxy_rule *r;
	char rule[320];

	if (!proxy_rules_private_ok(cls) || (r = proxy_rules_private_fix(
	    pc->px->rules, &pc->host, pc->port)) == NULL)
		return;
	proxy_rules_describe(&r->o, rule, sizeof(rule));
	snprintf(d->fix, sizeof(d->fix), "if this name is meant to be %s, "
	    "the user can add \"allowPrivate\": true to the rule %s (in a "
	    "user or org policy)", addr_class_name(cls), rule);
}

/* Address check of ai; fills d on a denial. */
static bool
address_allowed(struct pconn *pc, const struct evutil_addrinfo *ai,
    struct host *addr, struct proxy_denial *d)
{
	const struct proxy_rule *rule = NULL;
	enum addr_class cls = ADDR_PUBLIC;

	if (ai->ai_family == AF_INET)
		host_set_ipv4(addr, (const uint8_t *)&((const struct sockaddr_in *)
		    ai->ai_addr)->sin_addr);
	else if (ai->ai_family == AF_INET6)
		host_set_ipv6(addr, ((const struct sockaddr_in6 *)
		    ai->ai_addr)->sin6_addr.s6_addr);
	else
		return false;
	if (own_listener(pc, addr, d))
		return false;
	/* The upstream proxy's own address is the policy's choice: corporate
	 * proxies live on private addresses. */
	if (pc->via != NULL)
		return true;
	if (proxy_rules_address(pc->px->rules, &pc->host, pc->by_exact, addr,
	    pc->port, pc->has_once ? &pc->once : NULL, &rule, &cls) ==
	    NETRULE_ALLOW)
		return true;
	if (d->why != NULL)
		return false;	/* the first denial is the one reported */
	if (rule != NULL) {
		d->o = &rule->o;
		d->why = "resolves to a denied address";
		snprintf(d->detail, sizeof(d->detail), "%.200s resolves to %.60s",
		    pc->host.text, addr->text);
	} else {
		d->check = "address check";
		d->why = "resolves to a non-public address";
		snprintf(d->detail, sizeof(d->detail), "%s is %s (%s)",
		    pc->host.kind == HOST_NAME ? "its address" : "it",
		    addr->text, addr_class_name(cls));
		d->remedy = cls == ADDR_LOOPBACK ? loopback_remedy :
		    "only a rule naming the address itself allows a private "
		    "or metadata address";
		private_fix(pc, cls, d);
	}
	return false;
}

static void
connect_next(struct pconn *pc)
{
	struct proxy_denial d = { 0 };
	enum addr_class cls;
	struct host addr;
	int r;

	while (pc->ai_next != NULL) {
		const struct evutil_addrinfo *ai = pc->ai_next;

		pc->ai_next = ai->ai_next;
		if (!address_allowed(pc, ai, &addr, &d))
			continue;
		if ((pc->u = pio_new(-1, pc)) == NULL) {
			pc->dial_err = ENOMEM;
			continue;
		}
		pio_set_ops(pc->u, &dial_ops);
		r = pio_connect(pc->u, ai->ai_addr, (socklen_t)ai->ai_addrlen,
		    PROXY_CONNECT_TIMEOUT_MS);
		if (r == 0 && addr_class_host(&addr, &cls) == 0 &&
		    cls == ADDR_LOOPBACK)
			pio_loopback(pc->u);	/* a service on this host */
		if (r == 0)
			return;
		pc->dial_err = -r;
		pio_free(pc->u);
		pc->u = NULL;
	}
	free_addrs(pc);
	if (pc->dial_err != 0 && pc->via != NULL) {
		char u[HOST_TEXT_MAX + 32];

		upstream_url_format(pc->via, u, sizeof(u));
		snprintf(pc->errmsg, sizeof(pc->errmsg), "the upstream proxy "
		    "%s: %s", u, strerror(pc->dial_err));
		failed(pc, -pc->dial_err);
	} else if (pc->dial_err != 0) {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "%s:%u: %s",
		    pc->host.text, pc->port, strerror(pc->dial_err));
		failed(pc, -pc->dial_err);
	} else if (d.why != NULL) {
		denied(pc, &d);
	} else {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "%s has no address",
		    pc->host.text);
		failed(pc, -EHOSTUNREACH);
	}
}

static void
deny_unknown(struct pconn *pc, const char *why, const char *detail)
{
	struct proxy_denial d = { 0 };
	enum addr_class cls;

	d.o = &pc->px->rules->unknown;
	d.why = why;
	if (detail != NULL)
		snprintf(d.detail, sizeof(d.detail), "%s", detail);
	d.remedy = "ask the user to add it to network.allowedDomains";
	if (proxy_rules_localhost(&pc->host) ||
	    (addr_class_host(&pc->host, &cls) == 0 && cls == ADDR_LOOPBACK))
		d.remedy = loopback_remedy;
	denied(pc, &d);
}

/* The addresses pc's name has in the hosts file at path (at most max). */
static size_t
hosts_file_lookup(const char *path, const struct host *name,
    struct host *out, size_t max)
{
	char *buf;
	struct stat st;
	ssize_t n;
	size_t found = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < (1 << 20) &&
	    (buf = malloc((size_t)st.st_size + 1)) != NULL) {
		if ((n = read(fd, buf, (size_t)st.st_size)) > 0)
			found = hosts_lookup(buf, (size_t)n, name, out, max);
		free(buf);
	}
	close(fd);
	return found;
}

void
dial_refused(struct pconn *pc, char *buf, size_t len)
{
	const struct proxy_rule *rule = NULL;
	const char *files[] = { proxy_config()->hosts_file, "/etc/hosts" };
	struct host addr[8];
	enum addr_class cls = ADDR_PUBLIC;
	size_t n = 0, i;

	buf[0] = '\0';
	/* Through an upstream proxy no address is checked here. */
	if (upstream_for(pc->px->rules->up, &pc->host, pc->port,
	    pc->proto != NULL && strcmp(pc->proto, "http") == 0) != NULL)
		return;
	/* Only what is known without asking the network: a DNS lookup of a
	 * name nobody allowed would leak it. evdns answers from these
	 * files first, so what they say is what the dial would get. */
	if (pc->host.kind == HOST_NAME)
		for (i = 0; i < 2 && n == 0; i++)
			if (files[i] != NULL)
				n = hosts_file_lookup(files[i], &pc->host, addr,
				    8);
	if (pc->host.kind != HOST_NAME) {
		addr[0] = pc->host;
		n = 1;
	}
	if (n > 8)
		n = 8;
	/* Refused only when every address is: the dial tries them all. */
	for (i = 0; i < n; i++) {
		if (own_listener(pc, &addr[i], &(struct proxy_denial){ 0 }))
			continue;
		if (proxy_rules_address(pc->px->rules, &pc->host, true,
		    &addr[i], pc->port, NULL, &rule, &cls) != NETRULE_ALLOW &&
		    (pc->host.kind == HOST_NAME || rule != NULL))
			continue;
		return;
	}
	if (n == 0)
		return;
	if (rule != NULL)
		snprintf(buf, len, "%s resolves to %s, which deniedDomains "
		    "denies: refused even if allowed", pc->host.text,
		    addr[n - 1].text);
	else if (pc->host.kind == HOST_NAME)
		snprintf(buf, len, "%s resolves to %s (%s): refused even if "
		    "allowed; only a rule naming the address%s allows it",
		    pc->host.text, addr[n - 1].text, addr_class_name(cls),
		    proxy_rules_private_ok(cls) ? ", or an allowedDomains "
		    "rule for the name with \"allowPrivate\": true," : "");
	else
		snprintf(buf, len, "%s:%u is an sbx proxy listener of another "
		    "session: refused even if allowed", pc->host.text, pc->port);
}

void
dial_start(struct pconn *pc, dial_fn done)
{
	const struct proxy_rules *r = pc->px->rules;
	const struct proxy_rule *m = NULL;
	struct proxy_denial d = { 0 };

	pc->dial_done = done;
	switch (proxy_rules_decide(r, &pc->host, pc->port,
	    pc->has_once ? &pc->once : NULL, &m)) {
	case NETRULE_DENY:
		d.o = &m->o;
		d.why = "matches deniedDomains";
		d.remedy = "the policy denies this host; do not retry";
		denied(pc, &d);
		return;
	case NETRULE_ALLOW:
		pc->by_exact = proxy_rule_exact(m);
		go(pc);
		return;
	case NETRULE_UNKNOWN:
		break;
	}
	if (!r->ask)
		deny_unknown(pc, "not in allowedDomains", NULL);
	else if (ask_start(pc) < 0)
		deny_unknown(pc, "not in allowedDomains, and nobody to ask",
		    "the session's client has left");
}

void
dial_asked(struct pconn *pc, int answer, const char *reason)
{
	char why[160];

	if (answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE) {
		memset(&pc->once, 0, sizeof(pc->once));
		pc->once.nr.host = pc->host;
		pc->once.nr.port = pc->port;
		pc->once.o.list = "approval";
		pc->has_once = true;
	}
	if (answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_ONCE ||
	    answer == SBX__APPROVAL_ANSWER__APPROVAL_ANSWER_ALLOW_SESSION) {
		pc->by_exact = true;
		go(pc);
		return;
	}
	if (answer == -1)
		snprintf(why, sizeof(why), "no answer to the approval request "
		    "within %u s", proxy_config()->ask_timeout_ms / 1000);
	else
		snprintf(why, sizeof(why), "%s",
		    reason ? reason : "the user denied it");
	deny_unknown(pc, "not in allowedDomains, and not approved", why);
}

void
dial_stop(struct pconn *pc)
{
	pc->dial_done = NULL;
	if (pc->dns != NULL) {
		struct evdns_getaddrinfo_request *req = pc->dns;

		pc->dns = NULL;
		evdns_getaddrinfo_cancel(req);
	}
	if (pc->ask != NULL)
		ask_leave(pc);
	free_addrs(pc);
}
