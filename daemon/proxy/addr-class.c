/* Address classes: which resolved addresses are public, and what the others are. */

/*
 * The proxy connects only to public addresses unless a rule names the
 * address itself; a name that resolves to 127.0.0.1 or 169.254.169.254
 * is the DNS-rebinding attack this is here to stop. The tables go from
 * most to least specific (a metadata /32 before the link-local /16 that
 * holds it). IPv6 is judged by allow-listing 2000::/3, the only global
 * unicast space assigned, so anything unexpected is reserved, not public.
 */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "daemon/proxy/addr-class.h"

struct prefix {
	uint8_t		 addr[16];
	uint8_t		 bits;
	enum addr_class	 cls;
};

static const struct prefix v4_table[] = {
	{ { 169, 254, 169, 254 }, 32, ADDR_METADATA },	/* AWS, GCP, Azure, ... */
	{ { 169, 254, 170, 2 }, 32, ADDR_METADATA },	/* AWS ECS task */
	{ { 169, 254, 170, 23 }, 32, ADDR_METADATA },	/* AWS EKS pod identity */
	{ { 100, 100, 100, 200 }, 32, ADDR_METADATA },	/* Alibaba Cloud */
	{ { 168, 63, 129, 16 }, 32, ADDR_METADATA },	/* Azure WireServer */
	{ { 0 }, 8, ADDR_UNSPECIFIED },
	{ { 127 }, 8, ADDR_LOOPBACK },
	{ { 10 }, 8, ADDR_PRIVATE },
	{ { 172, 16 }, 12, ADDR_PRIVATE },
	{ { 192, 168 }, 16, ADDR_PRIVATE },
	{ { 100, 64 }, 10, ADDR_CGNAT },
	{ { 169, 254 }, 16, ADDR_LINK_LOCAL },
	{ { 192, 0, 0 }, 24, ADDR_RESERVED },		/* IETF protocol */
	{ { 192, 0, 2 }, 24, ADDR_RESERVED },		/* TEST-NET-1 */
	{ { 198, 51, 100 }, 24, ADDR_RESERVED },	/* TEST-NET-2 */
	{ { 203, 0, 113 }, 24, ADDR_RESERVED },		/* TEST-NET-3 */
	{ { 198, 18 }, 15, ADDR_RESERVED },		/* benchmarking */
	{ { 192, 88, 99 }, 24, ADDR_RESERVED },		/* 6to4 relay */
	{ { 224 }, 4, ADDR_MULTICAST },
	{ { 240 }, 4, ADDR_RESERVED },			/* and broadcast */
};

static const struct prefix v6_table[] = {
	{ { 0 }, 128, ADDR_UNSPECIFIED },
	{ { [15] = 1 }, 128, ADDR_LOOPBACK },
	{ { 0xfd, 0x00, 0x0e, 0xc2, [14] = 0x02, 0x54 }, 128, ADDR_METADATA },
	{ { 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01 }, 48, ADDR_PRIVATE },
	{ { 0xfc }, 7, ADDR_PRIVATE },
	{ { 0xfe, 0x80 }, 10, ADDR_LINK_LOCAL },
	{ { 0xfe, 0xc0 }, 10, ADDR_PRIVATE },		/* old site-local */
	{ { 0xff }, 8, ADDR_MULTICAST },
	{ { 0x20, 0x01, 0x0d, 0xb8 }, 32, ADDR_RESERVED },	/* documentation */
	{ { 0x3f, 0xff }, 20, ADDR_RESERVED },		/* documentation */
	{ { 0x20, 0x01 }, 23, ADDR_RESERVED },		/* IETF, Teredo */
	{ { 0x20 }, 3, ADDR_PUBLIC },
};

static bool
in_prefix(const uint8_t *a, const struct prefix *p)
{
	unsigned whole = p->bits / 8, rest = p->bits % 8;
	uint8_t mask;

	if (memcmp(a, p->addr, whole) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (a[whole] & mask) == (p->addr[whole] & mask);
}

enum addr_class
addr_class_ipv4(const uint8_t a[4])
{
	size_t i;

	for (i = 0; i < sizeof(v4_table) / sizeof(v4_table[0]); i++)
		if (in_prefix(a, &v4_table[i]))
			return v4_table[i].cls;
	return ADDR_PUBLIC;
}

/*
 * Addresses that carry an IPv4 address and reach it: v4-mapped (the
 * kernel connects to the IPv4 host), NAT64 64:ff9b::/96 (the translator
 * does) and 6to4 2002::/16 (the relay does). A public IPv4 inside 6to4
 * or NAT64 leaves the outer address public.
 */
static int
embedded_ipv4(const uint8_t a[16], const uint8_t **v4)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t nat64[12] = { 0x00, 0x64, 0xff, 0x9b };

	if (memcmp(a, mapped, 12) == 0 || memcmp(a, nat64, 12) == 0)
		*v4 = a + 12;
	else if (a[0] == 0x20 && a[1] == 0x02)
		*v4 = a + 2;
	else
		return 0;
	return 1;
}

enum addr_class
addr_class_ipv6(const uint8_t a[16])
{
	const uint8_t *v4;
	size_t i;

	if (embedded_ipv4(a, &v4))
		return addr_class_ipv4(v4);
	for (i = 0; i < sizeof(v6_table) / sizeof(v6_table[0]); i++)
		if (in_prefix(a, &v6_table[i]))
			return v6_table[i].cls;
	return ADDR_RESERVED;
}

int
addr_class_sockaddr(const struct sockaddr *sa, socklen_t len,
    enum addr_class *out)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	if (sa == NULL || len < (socklen_t)sizeof(sa_family_t))
		return -EINVAL;
	switch (sa->sa_family) {
	case AF_INET:
		if (len < (socklen_t)sizeof(sin))
			return -EINVAL;
		memcpy(&sin, sa, sizeof(sin));
		*out = addr_class_ipv4((const uint8_t *)&sin.sin_addr);
		return 0;
	case AF_INET6:
		if (len < (socklen_t)sizeof(sin6))
			return -EINVAL;
		memcpy(&sin6, sa, sizeof(sin6));
		*out = addr_class_ipv6(sin6.sin6_addr.s6_addr);
		return 0;
	}
	return -EAFNOSUPPORT;
}

int
addr_class_host(const struct host *h, enum addr_class *out)
{
	switch (h->kind) {
	case HOST_IPV4:
		*out = addr_class_ipv4(h->addr);
		return 0;
	case HOST_IPV6:
		*out = addr_class_ipv6(h->addr);
		return 0;
	case HOST_NAME:
		break;
	}
	return -EINVAL;
}

const char *
addr_class_name(enum addr_class c)
{
	static const char *const names[] = {
		[ADDR_PUBLIC] = "public",
		[ADDR_LOOPBACK] = "loopback",
		[ADDR_PRIVATE] = "private",
		[ADDR_LINK_LOCAL] = "link-local",
		[ADDR_CGNAT] = "carrier-grade NAT",
		[ADDR_METADATA] = "cloud metadata",
		[ADDR_UNSPECIFIED] = "unspecified",
		[ADDR_MULTICAST] = "multicast",
		[ADDR_RESERVED] = "reserved",
	};

	if ((unsigned)c >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[c];
}
