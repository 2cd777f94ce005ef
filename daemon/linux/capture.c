/* Transparent capture in a sandbox's network namespace: every address is
 * local, and nftables turns each TCP connection and DNS query that leaves
 * for anywhere but loopback towards the listeners sbxd serves there. */

/*
 * Why this mechanism (docs/architecture.md, Transparent capture, has the
 * numbers): a NAT redirect in the namespace's output hook catches every
 * way a program makes a TCP connection (connect, TCP Fast Open's sendto,
 * any library or static binary) in the kernel, costs a few microseconds
 * per connection for conntrack, and leaves the program's socket connected
 * to the address it asked for (getpeername is unchanged), while the
 * accepted socket tells the proxy that address (SO_ORIGINAL_DST). One
 * listener serves every port. A connect() made by the supervisor to a
 * proxy port instead would change the peer address the program sees, and
 * a TUN device would need a TCP stack in sbxd.
 *
 * The routes: the namespace has only loopback, so a connect() to any
 * other address fails (ENETUNREACH) before a packet exists. "local
 * 0.0.0.0/0" and "local ::/0" in the local table make every address this
 * host's; the redirect then takes the packet before a socket lookup. UDP
 * to any port but 53 reaches no socket and gets the kernel's ICMP port
 * unreachable (ECONNREFUSED), so QUIC falls back to TCP.
 *
 * Built with raw nfnetlink messages (the kernel's nf_tables uAPI), not
 * libnftnl: three rules per family, made once per namespace by the
 * session init that first brings its loopback up. Nothing here runs in
 * the daemon.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/sandbox.h"

#define TABLE "sbx"
#define CHAIN "out"
#define NLBUF 4096

/* A netlink message being built; nests hold their start offsets. */
struct nlb {
	uint8_t buf[NLBUF] __attribute__((aligned(4)));
	size_t len, msg, nest[4];
	int depth;
	unsigned nmsg;
	bool overflow;
};

static void *
put(struct nlb *b, size_t n)
{
	size_t al = NLMSG_ALIGN(n);
	void *p;

	if (b->len + al > sizeof(b->buf)) {
		b->overflow = true;
		return NULL;
	}
	p = b->buf + b->len;
	memset(p, 0, al);
	b->len += al;
	return p;
}

static void
msg_begin(struct nlb *b, uint16_t type, uint16_t flags, uint8_t family,
	  uint16_t res_id, bool nfgen)
{
	struct nlmsghdr *h;
	struct nfgenmsg *g;

	b->msg = b->len;
	if (!(h = put(b, sizeof(*h))))
		return;
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | flags;
	h->nlmsg_seq = ++b->nmsg;
	if (nfgen && (g = put(b, sizeof(*g)))) {
		g->nfgen_family = family;
		g->version = NFNETLINK_V0;
		g->res_id = htons(res_id);
	}
}

static void
msg_end(struct nlb *b)
{
	if (!b->overflow)
		((struct nlmsghdr *)(b->buf + b->msg))->nlmsg_len =
			(uint32_t)(b->len - b->msg);
}

static void
attr(struct nlb *b, uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = put(b, NLA_HDRLEN + n);

	if (!a)
		return;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	memcpy((uint8_t *)a + NLA_HDRLEN, data, n);
}

static void
attr_str(struct nlb *b, uint16_t type, const char *s)
{
	attr(b, type, s, strlen(s) + 1);
}

static void
attr_be32(struct nlb *b, uint16_t type, uint32_t v)
{
	v = htonl(v);
	attr(b, type, &v, sizeof(v));
}

static void
nest_begin(struct nlb *b, uint16_t type)
{
	struct nlattr *a;

	b->nest[b->depth++] = b->len;
	if ((a = put(b, NLA_HDRLEN)))
		a->nla_type = type | NLA_F_NESTED;
}

static void
nest_end(struct nlb *b)
{
	size_t at = b->nest[--b->depth];

	if (!b->overflow)
		((struct nlattr *)(b->buf + at))->nla_len =
			(uint16_t)(b->len - at);
}

/* One expression of a rule: name, then its attributes by the caller. */
static void
expr_begin(struct nlb *b, const char *name)
{
	nest_begin(b, NFTA_LIST_ELEM);
	attr_str(b, NFTA_EXPR_NAME, name);
	nest_begin(b, NFTA_EXPR_DATA);
}

static void
expr_end(struct nlb *b)
{
	nest_end(b);
	nest_end(b);
}

/* Register 1 := len bytes of the packet at base + off. */
static void
expr_payload(struct nlb *b, uint32_t base, uint32_t off, uint32_t len)
{
	expr_begin(b, "payload");
	attr_be32(b, NFTA_PAYLOAD_DREG, NFT_REG_1);
	attr_be32(b, NFTA_PAYLOAD_BASE, base);
	attr_be32(b, NFTA_PAYLOAD_OFFSET, off);
	attr_be32(b, NFTA_PAYLOAD_LEN, len);
	expr_end(b);
}

static void
data(struct nlb *b, uint16_t type, const void *v, size_t n)
{
	nest_begin(b, type);
	attr(b, NFTA_DATA_VALUE, v, n);
	nest_end(b);
}

/* Register 1 compared with v: the rule goes on when it holds. */
static void
expr_cmp(struct nlb *b, uint32_t op, const void *v, size_t n)
{
	expr_begin(b, "cmp");
	attr_be32(b, NFTA_CMP_SREG, NFT_REG_1);
	attr_be32(b, NFTA_CMP_OP, op);
	data(b, NFTA_CMP_DATA, v, n);
	expr_end(b);
}

/* Register 1 &= mask (n bytes). */
static void
expr_mask(struct nlb *b, const void *mask, size_t n)
{
	static const uint8_t zero[16];

	expr_begin(b, "bitwise");
	attr_be32(b, NFTA_BITWISE_SREG, NFT_REG_1);
	attr_be32(b, NFTA_BITWISE_DREG, NFT_REG_1);
	attr_be32(b, NFTA_BITWISE_LEN, (uint32_t)n);
	data(b, NFTA_BITWISE_MASK, mask, n);
	data(b, NFTA_BITWISE_XOR, zero, n);
	expr_end(b);
}

static void
expr_l4proto(struct nlb *b, uint8_t proto)
{
	expr_begin(b, "meta");
	attr_be32(b, NFTA_META_KEY, NFT_META_L4PROTO);
	attr_be32(b, NFTA_META_DREG, NFT_REG_1);
	expr_end(b);
	expr_cmp(b, NFT_CMP_EQ, &proto, 1);
}

/* To the namespace's loopback address of the family, at port. */
static void
expr_redirect(struct nlb *b, uint16_t port)
{
	uint16_t be = htons(port);

	expr_begin(b, "immediate");
	attr_be32(b, NFTA_IMMEDIATE_DREG, NFT_REG_1);
	data(b, NFTA_IMMEDIATE_DATA, &be, sizeof(be));
	expr_end(b);
	expr_begin(b, "redir");
	attr_be32(b, NFTA_REDIR_REG_PROTO_MIN, NFT_REG_1);
	expr_end(b);
}

/* What a rule leaves alone: the sandbox's own loopback. */
struct spare {
	uint32_t off;		/* of the destination address */
	const void *addr, *mask;
	size_t len;
};

/* "daddr outside spare, l4 proto, [dport], redirect to :to" */
static void
rule(struct nlb *b, uint8_t family, const struct spare *s, uint8_t proto,
     uint16_t dport, uint16_t to)
{
	msg_begin(b, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWRULE,
		  NLM_F_CREATE | NLM_F_APPEND | NLM_F_ACK, family, 0, true);
	attr_str(b, NFTA_RULE_TABLE, TABLE);
	attr_str(b, NFTA_RULE_CHAIN, CHAIN);
	nest_begin(b, NFTA_RULE_EXPRESSIONS);
	expr_l4proto(b, proto);
	expr_payload(b, NFT_PAYLOAD_NETWORK_HEADER, s->off, (uint32_t)s->len);
	if (s->mask)
		expr_mask(b, s->mask, s->len);
	expr_cmp(b, NFT_CMP_NEQ, s->addr, s->len);
	if (dport) {
		uint16_t be = htons(dport);

		expr_payload(b, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2);
		expr_cmp(b, NFT_CMP_EQ, &be, 2);
	}
	expr_redirect(b, to);
	nest_end(b);
	msg_end(b);
}

/* Table, NAT chain at the output hook, and the rules, for one family:
 * DNS to any address but the stub's own goes to the stub (whatever name
 * server resolv.conf or a program names), other TCP to the capture
 * listener unless it is for loopback. */
static void
family_rules(struct nlb *b, uint8_t family)
{
	static const uint8_t lo4[4] = { 127, 0, 0, 1 }, net4[4] = { 127 },
			     mask4[4] = { 255 }, lo6[16] = { [15] = 1 };
	const struct spare v4one = { 16, lo4, NULL, 4 },
			   v4net = { 16, net4, mask4, 4 },
			   v6one = { 24, lo6, NULL, 16 };
	const struct spare *one = family == NFPROTO_IPV4 ? &v4one : &v6one,
			   *net = family == NFPROTO_IPV4 ? &v4net : &v6one;

	msg_begin(b, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWTABLE,
		  NLM_F_CREATE | NLM_F_ACK, family, 0, true);
	attr_str(b, NFTA_TABLE_NAME, TABLE);
	msg_end(b);
	msg_begin(b, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWCHAIN,
		  NLM_F_CREATE | NLM_F_ACK, family, 0, true);
	attr_str(b, NFTA_CHAIN_TABLE, TABLE);
	attr_str(b, NFTA_CHAIN_NAME, CHAIN);
	nest_begin(b, NFTA_CHAIN_HOOK);
	attr_be32(b, NFTA_HOOK_HOOKNUM, NF_INET_LOCAL_OUT);
	attr_be32(b, NFTA_HOOK_PRIORITY, (uint32_t)-100); /* dstnat */
	nest_end(b);
	attr_be32(b, NFTA_CHAIN_POLICY, NF_ACCEPT);
	attr_str(b, NFTA_CHAIN_TYPE, "nat");
	msg_end(b);
	rule(b, family, one, IPPROTO_UDP, 53, SANDBOX_DNS_PORT);
	rule(b, family, one, IPPROTO_TCP, 53, SANDBOX_DNS_PORT);
	rule(b, family, net, IPPROTO_TCP, 0, SANDBOX_CAPTURE_PORT);
}

/* Sends b on fd (a netlink socket) and reads an answer for each of the
 * acks messages that asked for one: 0, or the first error (the rest of
 * its answers then wait in the socket: close it). */
static int
transact(int fd, struct nlb *b, unsigned acks)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint8_t rbuf[NLBUF] __attribute__((aligned(4)));
	int r = 0;
	ssize_t n;

	if (b->overflow)
		return -E2BIG;
	if (sendto(fd, b->buf, b->len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		r = -errno;
	while (r == 0 && acks > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)rbuf;

		if (poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 5000) <= 0) {
			r = -ETIMEDOUT;
			break;
		}
		if ((n = recv(fd, rbuf, sizeof(rbuf), 0)) < 0) {
			r = -errno;
			break;
		}
		for (; NLMSG_OK(h, (size_t)n) && acks > 0;
		     h = NLMSG_NEXT(h, n)) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (e->error) {
				r = e->error;
				break;
			}
			acks--;
		}
	}
	return r;
}

/* "local ADDR/0 dev lo table local": every address is ours. */
static void
route_all_local(struct nlb *b, uint8_t family, int lo)
{
	struct rtmsg *rt;

	msg_begin(b, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK,
		  0, 0, false);
	if ((rt = put(b, sizeof(*rt)))) {
		rt->rtm_family = family;
		rt->rtm_table = RT_TABLE_LOCAL;
		rt->rtm_protocol = RTPROT_BOOT;
		rt->rtm_scope = RT_SCOPE_HOST;
		rt->rtm_type = RTN_LOCAL;
	}
	attr(b, RTA_OIF, &lo, sizeof(lo));
	msg_end(b);
}

/* An address on lo that is not loopback. glibc's getaddrinfo with
 * AI_ADDRCONFIG (getent ahosts, many programs) returns nothing of a family
 * no interface has an address of besides 127.0.0.1 and ::1: without one a
 * captured name would not resolve for them. One the stub never gives
 * (beyond FAKEIP_MAX), so nothing can mean it. */
static void
address_on_lo(struct nlb *b, uint8_t family, int lo)
{
	static const uint8_t a4[4] = { 198, 19, 255, 254 },
			     a6[16] = { 0xfd, 0x73, 0x62, 0x78, 0x78, 0, 0, 0,
					0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe };
	struct ifaddrmsg *ifa;

	msg_begin(b, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK,
		  0, 0, false);
	if ((ifa = put(b, sizeof(*ifa)))) {
		ifa->ifa_family = family;
		ifa->ifa_prefixlen = family == AF_INET ? 32 : 128;
		ifa->ifa_scope = RT_SCOPE_HOST;
		ifa->ifa_index = (uint32_t)lo;
	}
	attr(b, IFA_LOCAL, family == AF_INET ? a4 : a6,
	     family == AF_INET ? 4 : 16);
	attr(b, IFA_ADDRESS, family == AF_INET ? a4 : a6,
	     family == AF_INET ? 4 : 16);
	msg_end(b);
}

/* The route and the address of one family, in one send. */
static int
family_routes(int fd, uint8_t family, int lo)
{
	struct nlb b = { .len = 0 };

	route_all_local(&b, family, lo);
	address_on_lo(&b, family, lo);
	return transact(fd, &b, b.nmsg);
}

static int
nl_socket(int proto)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	return fd < 0 ? -errno : fd;
}

int
linux_capture_setup(void)
{
	static struct nlb b;
	int lo = (int)if_nametoindex("lo"), r, v6, fd;

	if (lo == 0)
		return -errno;
	if ((fd = nl_socket(NETLINK_ROUTE)) < 0)
		return fd;
	r = family_routes(fd, AF_INET, lo);
	/* No IPv6 in this kernel or namespace (disable_ipv6): IPv4 only.
	 * A socket of its own: a failure leaves answers unread. */
	close(fd);
	if (r < 0)
		return r;
	if ((fd = nl_socket(NETLINK_ROUTE)) < 0)
		return fd;
	v6 = family_routes(fd, AF_INET6, lo);
	close(fd);
	memset(&b, 0, sizeof(b));
	msg_begin(&b, NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC, NFNL_SUBSYS_NFTABLES,
		  true);
	msg_end(&b);
	family_rules(&b, NFPROTO_IPV4);
	if (v6 == 0)
		family_rules(&b, NFPROTO_IPV6);
	msg_begin(&b, NFNL_MSG_BATCH_END, 0, AF_UNSPEC, NFNL_SUBSYS_NFTABLES,
		  true);
	msg_end(&b);
	if ((fd = nl_socket(NETLINK_NETFILTER)) < 0)
		return fd;
	/* Every message but the batch's two delimiters asked for an ack. */
	r = transact(fd, &b, b.nmsg - 2);
	close(fd);
	return r < 0 ? r : v6 == 0 ? 0 : 1;
}
