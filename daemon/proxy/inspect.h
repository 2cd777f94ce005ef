/* TLS inspection of a tunnel: the entry points for the tunnel and capture paths. */
#ifndef SBX_PROXY_INSPECT_H
#define SBX_PROXY_INSPECT_H

#include <stdbool.h>

struct pconn;

/*
 * Any transport that has accepted a connection from the sandbox, decided
 * its destination and dialled it (CONNECT, SOCKS5, a transparent
 * capture: pc->c and pc->u connected, pc->host and pc->port the decided
 * name and port) calls this before relaying bytes. false: no request rule
 * names the host, relay it as an opaque tunnel. true: pc is taken, and
 * the caller must not touch it again: it runs inspection (closed on
 * failure), or it was refused because the host is also in
 * network.tls.excludeDomains, where its rules could not be enforced.
 */
bool inspect_take(struct pconn *pc);
void inspect_free(struct pconn *pc);

/*
 * A plain HTTP request forwarded by the proxy (absolute form; its head is
 * r->head[0..n)): the request rules decide as for an inspected one, and a
 * credential's sentinel may not go anywhere in clear (its value is never
 * put into plain HTTP). 0, or -EACCES with d filled and reported.
 */
struct http_req;
struct proxy_denial;
int inspect_plain(struct pconn *pc, const struct http_req *r, size_t n,
    struct proxy_denial *d);

#endif
