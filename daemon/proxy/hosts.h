/* Lookups in hosts-file text (/etc/hosts syntax), without the network: what
 * an approval request can say about a name before anyone allows it (a DNS
 * lookup of a name nobody allowed would leak it). */
#ifndef SBX_HOSTS_H
#define SBX_HOSTS_H

#include <stddef.h>

#include "daemon/proxy/host.h"

/*
 * The addresses name (canonical, HOST_NAME) has in text[0..len): lines of
 * an address then names, '#' to the end of a line a comment. Up to max of
 * them into out; returns how many there are (may be more than max).
 * Malformed lines and tokens are skipped, as resolvers skip them.
 */
size_t hosts_lookup(const char *text, size_t len, const struct host *name,
    struct host *out, size_t max);

#endif
