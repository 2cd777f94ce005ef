/* Counters of a network namespace that say a program tried to reach the
 * network directly: in a sandbox's own namespace only loopback exists, so
 * a packet with no route, or a UDP datagram to no port on loopback (a
 * name server the host has at 127.0.0.53), is such an attempt. Pure. */
#ifndef SBX_LINUX_NETSTAT_H
#define SBX_LINUX_NETSTAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * From the text of /proc/net/snmp (snmp, n bytes) and /proc/net/snmp6
 * (snmp6, n6 bytes; NULL when IPv6 is off): Ip OutNoRoutes + Udp NoPorts +
 * Ip6OutNoRoutes + Udp6NoPorts in *out. 0, or -EINVAL when snmp lacks one
 * of its two (a kernel that words them otherwise: no count rather than a
 * wrong one).
 */
int linux_netstat_direct(const char *snmp, size_t n, const char *snmp6,
			 size_t n6, uint64_t *out);

#endif
