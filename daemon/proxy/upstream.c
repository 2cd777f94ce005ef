/* The session's upstream proxy: compiled from network.parentProxy (or the daemon's environment), chosen per destination, and the CONNECT handshake through it. */

/*
 * The policy decides by name before anything reaches the upstream (dial.c
 * calls in here only for a destination already allowed), so a denied
 * name is never even sent to the upstream. What the upstream then
 * resolves the name to is beyond sbx's sight: the address check
 * (addr-class.c) cannot run on it, and a name that resolves to a private
 * address is the upstream's to refuse. noProxy destinations and loopback
 * go direct and are checked as usual.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/proxy/addr-class.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/rules.h"
#include "daemon/proxy/upstream.h"

static const char *
env2(const char *lower, const char *upper)
{
	const char *v = getenv(lower);

	return v != NULL && v[0] != '\0' ? v : getenv(upper);
}

static int
url(const char *s, const char *what, struct upstream_url *u, bool *has,
    char *err, size_t errlen)
{
	const char *why;

	if (s == NULL || s[0] == '\0')
		return 0;
	if (upstream_url_parse(s, strlen(s), u, &why) < 0) {
		snprintf(err, errlen, "network.parentProxy %s: %s", what, why);
		return -EINVAL;
	}
	*has = true;
	return 0;
}

int
upstream_compile(const struct policy *p, struct upstream **out, char *err,
    size_t errlen)
{
	const struct policy_parent_proxy *pp = p ? &p->parent : NULL;
	const char *http, *https, *no;
	struct upstream *up;
	const char *why;
	int r;

	*out = NULL;
	if (pp == NULL || !pp->set)
		return 0;
	if (pp->from_env) {
		http = env2("http_proxy", "HTTP_PROXY");
		https = env2("https_proxy", "HTTPS_PROXY");
		no = env2("no_proxy", "NO_PROXY");
	} else {
		http = pp->http;
		https = pp->https;
		no = pp->no_proxy;
	}
	if ((up = calloc(1, sizeof(*up))) == NULL)
		return -ENOMEM;
	up->from_env = pp->from_env;
	if ((r = url(http, pp->from_env ? "\"env\" (http_proxy)" : "http",
	    &up->http, &up->has_http, err, errlen)) < 0 ||
	    (r = url(https, pp->from_env ? "\"env\" (https_proxy)" : "https",
	    &up->https, &up->has_https, err, errlen)) < 0)
		goto fail;
	if (no != NULL && (r = noproxy_parse(no, strlen(no), &up->np,
	    &why)) < 0) {
		if (r == -EINVAL)
			snprintf(err, errlen, "network.parentProxy%s: %s",
			    pp->from_env ? " \"env\" (no_proxy)" : "", why);
		goto fail;
	}
	if (!up->has_http && !up->has_https) {
		upstream_free(up);	/* "env" with nothing set: direct */
		return 0;
	}
	*out = up;
	return 0;
fail:
	upstream_free(up);
	return r;
}

void
upstream_free(struct upstream *up)
{
	if (up == NULL)
		return;
	noproxy_free(up->np);
	memset(up, 0, sizeof(*up));
	free(up);
}

const struct upstream_url *
upstream_for(const struct upstream *up, const struct host *h, uint16_t port,
    bool plain)
{
	enum addr_class cls;

	if (up == NULL || noproxy_match(up->np, h, port) ||
	    proxy_rules_localhost(h) ||
	    (addr_class_host(h, &cls) == 0 && (cls == ADDR_LOOPBACK ||
	    cls == ADDR_UNSPECIFIED)))
		return NULL;
	if (plain)
		return up->has_http ? &up->http : &up->https;
	return up->has_https ? &up->https : &up->http;
}

/* "the upstream proxy http://host:port" for messages (never the
 * credentials). */
static void
name(const struct pconn *pc, char *buf, size_t size)
{
	char u[HOST_TEXT_MAX + 32];

	if (upstream_url_format(pc->via, u, sizeof(u)) < 0)
		snprintf(u, sizeof(u), "?");
	snprintf(buf, size, "the upstream proxy %s", u);
}

static void
hs_fail(struct pconn *pc, int err)
{
	pio_free(pc->u);
	pc->u = NULL;
	pconn_deadline(pc, 0);
	dial_finish(pc, err);
}

static void
hs_read(struct pconn *pc, struct pio *p)
{
	struct evbuffer *in = pio_in(p);
	size_t len = evbuffer_get_length(in);
	char who[HOST_TEXT_MAX + 64], target[HOST_TEXT_MAX + 16];
	const char *why;
	unsigned status = 0;
	int n;

	if (len > UPSTREAM_REPLY_MAX)
		len = UPSTREAM_REPLY_MAX;
	n = upstream_connect_reply((const char *)evbuffer_pullup(in,
	    (ev_ssize_t)len), len, &status, &why);
	if (n == 0)
		return;
	name(pc, who, sizeof(who));
	if (n < 0) {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "%.100s: %s", who, why);
		hs_fail(pc, -EPROTO);
		return;
	}
	if (status / 100 != 2) {
		host_format(&pc->host, pc->port, target, sizeof(target));
		snprintf(pc->errmsg, sizeof(pc->errmsg), "%.100s refused CONNECT "
		    "%.100s: status %u%s", who, target, status, status == 407 ?
		    " (its credentials in network.parentProxy are wrong or "
		    "missing)" : "");
		hs_fail(pc, -ECONNREFUSED);
		return;
	}
	/* What follows the head is the far end's (an SSH banner): it stays
	 * in u's input for the tunnel. */
	evbuffer_drain(in, (size_t)n);
	pio_read(p, false);
	pconn_deadline(pc, 0);
	dial_finish(pc, 0);
}

static void
hs_event(struct pconn *pc, struct pio *p, int what)
{
	char who[HOST_TEXT_MAX + 64];

	name(pc, who, sizeof(who));
	snprintf(pc->errmsg, sizeof(pc->errmsg), "%.100s closed the connection "
	    "before answering CONNECT", who);
	hs_fail(pc, -ECONNRESET);
}

static const struct pio_ops hs_ops = { hs_read, NULL, hs_event };

void
upstream_timeout(struct pconn *pc)
{
	char who[HOST_TEXT_MAX + 64];

	name(pc, who, sizeof(who));
	snprintf(pc->errmsg, sizeof(pc->errmsg), "%.100s did not answer "
	    "CONNECT within %u s", who, PROXY_CONNECT_TIMEOUT_MS / 1000);
	hs_fail(pc, -ETIMEDOUT);
}

void
upstream_handshake(struct pconn *pc)
{
	char req[UPSTREAM_AUTH_MAX + 2 * HOST_TEXT_MAX + 128];
	int n;

	n = upstream_connect_request(&pc->host, pc->port, pc->via->auth, req,
	    sizeof(req));
	if (n < 0) {
		snprintf(pc->errmsg, sizeof(pc->errmsg), "CONNECT request too "
		    "long");
		hs_fail(pc, -EINVAL);
		return;
	}
	pio_set_ops(pc->u, &hs_ops);
	pio_write(pc->u, req, (size_t)n);
	memset(req, 0, sizeof(req));
	pio_read(pc->u, true);
	pconn_deadline(pc, PROXY_CONNECT_TIMEOUT_MS);
}
