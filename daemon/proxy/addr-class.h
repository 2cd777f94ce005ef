/* Classifying a resolved address, so the proxy refuses non-public upstreams (DNS rebinding, metadata). */
#ifndef SBX_ADDR_CLASS_H
#define SBX_ADDR_CLASS_H

#include <sys/socket.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

enum addr_class {
	ADDR_PUBLIC = 0,
	ADDR_LOOPBACK,		/* 127/8, ::1 */
	ADDR_PRIVATE,		/* RFC 1918, ULA fc00::/7, fec0::/10, 64:ff9b:1::/48 */
	ADDR_LINK_LOCAL,	/* 169.254/16, fe80::/10 */
	ADDR_CGNAT,		/* 100.64/10 */
	ADDR_METADATA,		/* cloud instance metadata endpoints */
	ADDR_UNSPECIFIED,	/* 0/8 (reaches this host on Linux), :: */
	ADDR_MULTICAST,		/* 224/4, ff00::/8 */
	ADDR_RESERVED,		/* documentation, benchmarking, 240/4, non-2000::/3 */
};

enum addr_class addr_class_ipv4(const uint8_t a[4]);
/* v4-mapped, NAT64 and 6to4 addresses take the class of the IPv4 inside. */
enum addr_class addr_class_ipv6(const uint8_t a[16]);

/*
 * Classify an AF_INET or AF_INET6 socket address of len bytes; -EINVAL if
 * too short, -EAFNOSUPPORT for other families.
 */
int	addr_class_sockaddr(const struct sockaddr *sa, socklen_t len,
	    enum addr_class *out);

/* Classify an address literal; -EINVAL for a name. */
int	addr_class_host(const struct host *h, enum addr_class *out);

const char *addr_class_name(enum addr_class c);

#endif
