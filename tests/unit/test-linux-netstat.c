/* Unit tests for linux/netstat.c: the direct-network counters of
 * /proc/net/snmp and snmp6, as the kernel words them. */
#include <errno.h>
#include <string.h>

#include "daemon/linux/netstat.h"
#include "unit.h"

#define S(lit) lit, sizeof(lit) - 1

static const char snmp[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors "
	"ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests "
	"OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails "
	"FragOKs FragFails FragCreates OutTransmits\n"
	"Ip: 2 64 10 0 0 0 0 0 10 12 0 7 0 0 0 0 0 0 0 12\n"
	"Icmp: InMsgs InErrors\n"
	"Icmp: 3 0\n"
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors "
	"SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"Udp: 0 5 0 4 0 0 0 0 0\n"
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors "
	"SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"UdpLite: 0 1000 0 0 0 0 0 0 0\n";
static const char snmp6[] =
	"Ip6InReceives                   \t338\n"
	"Ip6OutNoRoutes                  \t2\n"
	"Udp6NoPorts                     \t1\n"
	"UdpLite6NoPorts                 \t1000\n";

int
main(void)
{
	uint64_t v = 99;

	CHECK_INT(linux_netstat_direct(snmp, strlen(snmp), snmp6,
				       strlen(snmp6), &v), 0);
	CHECK_INT(v, 7 + 5 + 2 + 1);
	/* IPv6 off: no snmp6. */
	CHECK_INT(linux_netstat_direct(snmp, strlen(snmp), NULL, 0, &v), 0);
	CHECK_INT(v, 12);
	/* A column missing or a value short: no count. */
	CHECK_INT(linux_netstat_direct(S("Ip: A B\nIp: 1 2\n"), NULL, 0, &v),
		  -EINVAL);
	CHECK_INT(linux_netstat_direct(S("Ip: OutNoRoutes\nIp:\nUdp: NoPorts\n"
					 "Udp: 3\n"), NULL, 0, &v), -EINVAL);
	CHECK_INT(linux_netstat_direct(S("Ip: OutNoRoutes\nIp: x\n"
					 "Udp: NoPorts\nUdp: 3\n"), NULL, 0,
				       &v), -EINVAL);
	/* The last line without its newline. */
	CHECK_INT(linux_netstat_direct(S("Ip: OutNoRoutes\nIp: 4\n"
					 "Udp: NoPorts\nUdp: 3"), NULL, 0, &v),
		  0);
	CHECK_INT(v, 7);
	CHECK_INT(linux_netstat_direct("", 0, NULL, 0, &v), -EINVAL);
	UNIT_DONE();
}
