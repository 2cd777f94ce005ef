/* Unit tests for addr-class.c: each class, its edges, and the embedded-IPv4 forms. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>

#include "daemon/proxy/addr-class.h"
#include "unit.h"

/* Classifies a literal through a real sockaddr, as the proxy will. */
static int
cls(const char *s)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	enum addr_class c = (enum addr_class)-1;

	memset(&sin, 0, sizeof(sin));
	memset(&sin6, 0, sizeof(sin6));
	if (inet_pton(AF_INET, s, &sin.sin_addr) == 1) {
		sin.sin_family = AF_INET;
		CHECK_INT(addr_class_sockaddr((struct sockaddr *)&sin,
		    sizeof(sin), &c), 0);
	} else if (inet_pton(AF_INET6, s, &sin6.sin6_addr) == 1) {
		sin6.sin6_family = AF_INET6;
		CHECK_INT(addr_class_sockaddr((struct sockaddr *)&sin6,
		    sizeof(sin6), &c), 0);
	} else
		fprintf(stderr, "bad test address %s\n", s);
	return (int)c;
}

static void
test_ipv4(void)
{
	CHECK_INT(cls("8.8.8.8"), ADDR_PUBLIC);
	CHECK_INT(cls("1.1.1.1"), ADDR_PUBLIC);
	CHECK_INT(cls("0.0.0.0"), ADDR_UNSPECIFIED);
	CHECK_INT(cls("0.255.255.255"), ADDR_UNSPECIFIED);
	CHECK_INT(cls("1.0.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("126.255.255.255"), ADDR_PUBLIC);
	CHECK_INT(cls("127.0.0.1"), ADDR_LOOPBACK);
	CHECK_INT(cls("127.255.255.254"), ADDR_LOOPBACK);
	CHECK_INT(cls("128.0.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("10.0.0.0"), ADDR_PRIVATE);
	CHECK_INT(cls("10.255.255.255"), ADDR_PRIVATE);
	CHECK_INT(cls("11.0.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("172.15.255.255"), ADDR_PUBLIC);
	CHECK_INT(cls("172.16.0.0"), ADDR_PRIVATE);
	CHECK_INT(cls("172.31.255.255"), ADDR_PRIVATE);
	CHECK_INT(cls("172.32.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("192.168.1.1"), ADDR_PRIVATE);
	CHECK_INT(cls("192.169.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("100.63.255.255"), ADDR_PUBLIC);
	CHECK_INT(cls("100.64.0.0"), ADDR_CGNAT);
	CHECK_INT(cls("100.127.255.255"), ADDR_CGNAT);
	CHECK_INT(cls("100.128.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("169.254.0.1"), ADDR_LINK_LOCAL);
	CHECK_INT(cls("169.254.169.254"), ADDR_METADATA);
	CHECK_INT(cls("169.254.169.253"), ADDR_LINK_LOCAL);
	CHECK_INT(cls("169.254.170.2"), ADDR_METADATA);
	CHECK_INT(cls("100.100.100.200"), ADDR_METADATA);
	CHECK_INT(cls("168.63.129.16"), ADDR_METADATA);
	CHECK_INT(cls("192.0.0.8"), ADDR_RESERVED);
	CHECK_INT(cls("192.0.2.1"), ADDR_RESERVED);
	CHECK_INT(cls("198.51.100.7"), ADDR_RESERVED);
	CHECK_INT(cls("203.0.113.9"), ADDR_RESERVED);
	CHECK_INT(cls("198.18.0.1"), ADDR_RESERVED);
	CHECK_INT(cls("198.19.255.255"), ADDR_RESERVED);
	CHECK_INT(cls("198.20.0.0"), ADDR_PUBLIC);
	CHECK_INT(cls("223.255.255.255"), ADDR_PUBLIC);
	CHECK_INT(cls("224.0.0.1"), ADDR_MULTICAST);
	CHECK_INT(cls("239.255.255.255"), ADDR_MULTICAST);
	CHECK_INT(cls("240.0.0.1"), ADDR_RESERVED);
	CHECK_INT(cls("255.255.255.255"), ADDR_RESERVED);
}

static void
test_ipv6(void)
{
	CHECK_INT(cls("2606:4700::1111"), ADDR_PUBLIC);
	CHECK_INT(cls("2a00:1450:4001::1"), ADDR_PUBLIC);
	CHECK_INT(cls("::"), ADDR_UNSPECIFIED);
	CHECK_INT(cls("::1"), ADDR_LOOPBACK);
	CHECK_INT(cls("::2"), ADDR_RESERVED);
	CHECK_INT(cls("fc00::1"), ADDR_PRIVATE);
	CHECK_INT(cls("fdff:ffff::1"), ADDR_PRIVATE);
	CHECK_INT(cls("fd00:ec2::254"), ADDR_METADATA);
	CHECK_INT(cls("fd00:ec2::253"), ADDR_PRIVATE);
	CHECK_INT(cls("fe80::1"), ADDR_LINK_LOCAL);
	CHECK_INT(cls("febf::1"), ADDR_LINK_LOCAL);
	CHECK_INT(cls("fec0::1"), ADDR_PRIVATE);
	CHECK_INT(cls("ff02::1"), ADDR_MULTICAST);
	CHECK_INT(cls("2001:db8::1"), ADDR_RESERVED);
	CHECK_INT(cls("3fff::1"), ADDR_RESERVED);
	CHECK_INT(cls("2001::1"), ADDR_RESERVED);
	CHECK_INT(cls("2001:200::1"), ADDR_PUBLIC);
	CHECK_INT(cls("4000::1"), ADDR_RESERVED);
	CHECK_INT(cls("100::1"), ADDR_RESERVED);
	CHECK_INT(cls("::127.0.0.1"), ADDR_RESERVED);
	/* Carried IPv4 decides. */
	CHECK_INT(cls("::ffff:127.0.0.1"), ADDR_LOOPBACK);
	CHECK_INT(cls("::ffff:169.254.169.254"), ADDR_METADATA);
	CHECK_INT(cls("::ffff:8.8.8.8"), ADDR_PUBLIC);
	CHECK_INT(cls("64:ff9b::10.0.0.1"), ADDR_PRIVATE);
	CHECK_INT(cls("64:ff9b::8.8.8.8"), ADDR_PUBLIC);
	CHECK_INT(cls("64:ff9b:1::1"), ADDR_PRIVATE);
	CHECK_INT(cls("2002:7f00:1::1"), ADDR_LOOPBACK);
	CHECK_INT(cls("2002:a9fe:a9fe::"), ADDR_METADATA);
	CHECK_INT(cls("2002:808:808::1"), ADDR_PUBLIC);
}

static void
test_api(void)
{
	struct sockaddr_in sin;
	struct sockaddr_un_like {
		sa_family_t family;
		char path[20];
	} un = { AF_UNIX, "x" };
	struct host h;
	const char *why;
	enum addr_class c = ADDR_RESERVED;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	CHECK_INT(addr_class_sockaddr((struct sockaddr *)&sin, 4, &c), -EINVAL);
	CHECK_INT(addr_class_sockaddr((struct sockaddr *)&sin, 0, &c), -EINVAL);
	CHECK_INT(addr_class_sockaddr(NULL, 16, &c), -EINVAL);
	sin.sin_family = AF_INET6;
	CHECK_INT(addr_class_sockaddr((struct sockaddr *)&sin, sizeof(sin),
	    &c), -EINVAL);
	CHECK_INT(addr_class_sockaddr((struct sockaddr *)&un, sizeof(un), &c),
	    -EAFNOSUPPORT);
	CHECK_INT(c, ADDR_RESERVED);

	CHECK_INT(host_canon("2130706433", 10, &h, &why), 0);
	CHECK_INT(addr_class_host(&h, &c), 0);
	CHECK_INT(c, ADDR_LOOPBACK);
	CHECK_INT(host_canon("[fe80::2]", 9, &h, &why), 0);
	CHECK_INT(addr_class_host(&h, &c), 0);
	CHECK_INT(c, ADDR_LINK_LOCAL);
	CHECK_INT(host_canon("localhost", 9, &h, &why), 0);
	CHECK_INT(addr_class_host(&h, &c), -EINVAL);

	CHECK_STR(addr_class_name(ADDR_PUBLIC), "public");
	CHECK_STR(addr_class_name(ADDR_METADATA), "cloud metadata");
	CHECK_STR(addr_class_name(ADDR_RESERVED), "reserved");
	CHECK_STR(addr_class_name((enum addr_class)99), "?");
}

int
main(void)
{
	test_ipv4();
	test_ipv6();
	test_api();
	UNIT_DONE();
}
