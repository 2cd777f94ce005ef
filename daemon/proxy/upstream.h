/* The upstream (parent) proxy of a session's policy: which destinations go through it, and the dial through it. */
#ifndef SBX_UPSTREAM_H
#define SBX_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/upstream-parse.h"

struct policy;

/*
 * network.parentProxy compiled. http serves plain HTTP requests (absolute
 * URI forwarding), https everything tunnelled (CONNECT to the upstream:
 * HTTP CONNECT, SOCKS5, captured connections); each falls back to the
 * other when only one is given. Owned by the session's proxy_rules.
 */
struct upstream {
	bool has_http, has_https;
	struct upstream_url http, https;
	struct noproxy *np;		/* may be NULL */
	bool from_env;
};

/*
 * From p's network.parentProxy; for "env" from the daemon's environment
 * (http_proxy, HTTP_PROXY, https_proxy, HTTPS_PROXY, no_proxy, NO_PROXY:
 * lower case first), read now. *out is NULL when nothing names an
 * upstream. 0, -EINVAL with err (which never quotes a URL), -ENOMEM.
 */
int	upstream_compile(const struct policy *p, struct upstream **out,
	    char *err, size_t errlen);
void	upstream_free(struct upstream *up);

/*
 * The upstream a connection to h:port goes through, or NULL for direct:
 * none configured, noProxy names it, or it is loopback (a loopback
 * destination is this host's, never the upstream's). plain: an HTTP
 * request to forward (absolute URI), else a tunnel.
 */
const struct upstream_url *upstream_for(const struct upstream *up,
	    const struct host *h, uint16_t port, bool plain);

#endif
