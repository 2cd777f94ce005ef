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

#endif
