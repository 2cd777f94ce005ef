/* Unit tests for host.c: every accepted form, every documented rejection. */
#include <arpa/inet.h>
#include <errno.h>

#include "daemon/proxy/host.h"
#include "unit.h"

static struct host h;
static const char *why;

/* Canonicalises a C string; returns the result code, leaves h/why set. */
static int
canon(const char *s)
{
	why = NULL;
	memset(&h, 0x5a, sizeof(h));
	return host_canon(s, strlen(s), &h, &why);
}

#define OK(in, kind_, want)                                                  \
	do {                                                                 \
		CHECK_INT(canon(in), 0);                                     \
		CHECK_INT(h.kind, kind_);                                    \
		CHECK_STR(h.text, want);                                     \
		CHECK_INT(h.len, strlen(want));                              \
	} while (0)

#define BAD(in, reason)                                                      \
	do {                                                                 \
		CHECK_INT(canon(in), -EINVAL);                               \
		CHECK(why != NULL && strstr(why, reason) != NULL);           \
	} while (0)

static void
test_names(void)
{
	OK("example.com", HOST_NAME, "example.com");
	OK("Example.COM", HOST_NAME, "example.com");
	OK("example.com.", HOST_NAME, "example.com");
	OK("a", HOST_NAME, "a");
	OK("_dmarc.example.com", HOST_NAME, "_dmarc.example.com");
	OK("a-.b-c.d", HOST_NAME, "a-.b-c.d");
	OK("xn--bcher-kva.example", HOST_NAME, "xn--bcher-kva.example");
	OK("XN--BCHER-KVA.example", HOST_NAME, "xn--bcher-kva.example");
	OK("1.2.3.example", HOST_NAME, "1.2.3.example");
	OK("0xg", HOST_NAME, "0xg");
	OK("1.2.3.4a", HOST_NAME, "1.2.3.4a");
	OK("localhost", HOST_NAME, "localhost");

	BAD("", "empty host");
	BAD(".", "empty host");
	BAD("example.com..", "empty label");
	BAD(".example.com", "empty label");
	BAD("a..b", "empty label");
	BAD("-a.example", "starts with '-'");
	BAD("a b", "space");
	BAD("a\tb", "control");
	BAD("a\r\nb", "control");
	BAD("a\x7f", "control");
	BAD("b\xc3\xbc" "cher.example", "non-ASCII");
	BAD("a/b", "invalid character");
	BAD("a@b", "invalid character");
	BAD("a%2eb", "invalid character");
	BAD("a\\b", "invalid character");
	BAD("*.example.com", "invalid character");
	BAD("a]", "invalid character");
	BAD("example.com:443", "port does not belong");
	BAD("1.2.3.256", "numeric last label");
	BAD("1.2.3.4.5", "numeric last label");
	BAD("example.123", "numeric last label");
	BAD("a.0x1f", "numeric last label");
	BAD("a.0x", "numeric last label");
	BAD("08", "numeric last label");
	BAD("99999999999", "numeric last label");
}

static void
test_nul(void)
{
	static const char s[] = "good.com\0.evil.com";

	CHECK_INT(host_canon(s, sizeof(s) - 1, &h, &why), -EINVAL);
	CHECK_STR(why, "NUL byte in host");
	CHECK_INT(host_canon("a\0", 2, &h, &why), -EINVAL);
	/* The length given is the length used: no reading past it. */
	CHECK_INT(host_canon("abcdef", 3, &h, &why), 0);
	CHECK_STR(h.text, "abc");
}

static void
test_lengths(void)
{
	char buf[512];
	size_t i;

	/* 63-byte label is fine, 64 is not. */
	memset(buf, 'a', 63);
	strcpy(buf + 63, ".com");
	CHECK_INT(canon(buf), 0);
	memset(buf, 'a', 64);
	strcpy(buf + 64, ".com");
	BAD(buf, "label longer than 63");

	/* 253 bytes in all is fine (four 63-byte labels minus one byte). */
	for (i = 0; i < 4; i++) {
		memset(buf + i * 64, 'b', 63);
		buf[i * 64 + 63] = '.';
	}
	buf[253] = '\0';	/* 63+1+63+1+63+1+61 = 253 */
	CHECK_INT(strlen(buf), 253);
	CHECK_INT(canon(buf), 0);
	CHECK_INT(h.len, 253);
	/* 254 is too long, but 253 plus the trailing dot is fine. */
	buf[253] = 'b';
	buf[254] = '\0';
	BAD(buf, "longer than 253");
	buf[253] = '.';
	CHECK_INT(canon(buf), 0);
	CHECK_INT(h.len, 253);
}

static void
test_ipv4(void)
{
	OK("127.0.0.1", HOST_IPV4, "127.0.0.1");
	OK("2130706433", HOST_IPV4, "127.0.0.1");
	OK("0x7f.1", HOST_IPV4, "127.0.0.1");
	OK("0X7F.1", HOST_IPV4, "127.0.0.1");
	OK("127.1", HOST_IPV4, "127.0.0.1");
	OK("0177.0.0.1", HOST_IPV4, "127.0.0.1");
	OK("127.0.1", HOST_IPV4, "127.0.0.1");
	OK("0x7f000001", HOST_IPV4, "127.0.0.1");
	OK("017700000001", HOST_IPV4, "127.0.0.1");
	OK("0", HOST_IPV4, "0.0.0.0");
	OK("0x0", HOST_IPV4, "0.0.0.0");
	OK("00000000000000000000177.1", HOST_IPV4, "127.0.0.1");
	OK("4294967295", HOST_IPV4, "255.255.255.255");
	OK("9.10.99.100", HOST_IPV4, "9.10.99.100");
	OK("0xc0a80065", HOST_IPV4, "192.168.0.101");
	OK("169.254.43518", HOST_IPV4, "169.254.169.254");
	OK("10.0.0.1.", HOST_IPV4, "10.0.0.1");
	CHECK(h.addr[0] == 10 && h.addr[1] == 0 && h.addr[3] == 1);
	BAD("4294967296", "numeric last label");
	BAD("256.1.1.1", "numeric last label");
	BAD("1.256.1.1", "numeric last label");
	BAD("1.1.65536", "numeric last label");
	BAD("0x100.1", "numeric last label");
	BAD("1.2.3.0x", "numeric last label");
	BAD("09.1.1.1", "numeric last label");
	BAD("1.2.3.4..", "empty label");
}

/* host_parse_ipv4 must agree with glibc's inet_aton on every input. */
static void
test_ipv4_vs_inet_aton(void)
{
	static const char *const in[] = {
		"1", "1.2", "1.2.3", "1.2.3.4", "1.2.3.4.5", "0x", "0x1", "0xg",
		"08", "07", "0.0.0.0", "255.255.255.255", "256.0.0.0",
		"1.16777215", "1.16777216", "1.2.65535", "1.2.65536",
		"0xffffffff", "0x100000000", "037777777777", "040000000000",
		"1..2", ".1", "1.", "1.2.3.", "0x.1", "00x1", "0xx1", "1e3",
		"0xABCDEF", "4294967295", "4294967296", "99999999999999999999",
		"0000000000000000000000000000001", "0x00000000000000000001",
		"1.0x2.3", "1.02.3", "1.08.3", "+1", "-1", "1.-1",
	};
	struct in_addr want;
	uint8_t got[4];
	size_t i;
	int r, w;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		r = host_parse_ipv4(in[i], strlen(in[i]), got);
		w = inet_aton(in[i], &want);
		if ((r == 0) != (w != 0))
			fprintf(stderr, "differs from inet_aton: %s\n", in[i]);
		CHECK_INT(r == 0, w != 0);
		if (r == 0 && w)
			CHECK(memcmp(got, &want.s_addr, 4) == 0);
	}
}

static void
test_ipv6(void)
{
	OK("::1", HOST_IPV6, "::1");
	OK("[::1]", HOST_IPV6, "::1");
	OK("[0:0:0:0:0:0:0:1]", HOST_IPV6, "::1");
	OK("2001:DB8::A", HOST_IPV6, "2001:db8::a");
	OK("2001:0db8:0000:0000:0000:0000:0000:000a", HOST_IPV6, "2001:db8::a");
	OK("::", HOST_IPV6, "::");
	OK("fd00:ec2::254", HOST_IPV6, "fd00:ec2::254");
	CHECK(h.addr[0] == 0xfd && h.addr[15] == 0x54);
	/* v4-mapped reaches the IPv4 host, so it is IPv4. */
	OK("::ffff:127.0.0.1", HOST_IPV4, "127.0.0.1");
	OK("[::FFFF:7f00:1]", HOST_IPV4, "127.0.0.1");
	OK("::ffff:a9fe:a9fe", HOST_IPV4, "169.254.169.254");
	/* v4-compatible (deprecated) is not mapped; it stays IPv6. */
	OK("::127.0.0.1", HOST_IPV6, "::127.0.0.1");

	BAD("[::1", "unbalanced");
	BAD("[", "unbalanced");
	BAD("[]", "invalid IPv6");
	BAD("[127.0.0.1]", "invalid IPv6");
	BAD("[example.com]", "invalid IPv6");
	BAD("::1]", "invalid IPv6");
	BAD("1:2:3:4:5:6:7:8:9", "invalid IPv6");
	BAD("::ffff:0x7f.1", "invalid IPv6");
	BAD("fe80::1%eth0", "zone");
	BAD("[fe80::1%25eth0]", "zone");
	BAD("0000:0000:0000:0000:0000:0000:0000:0000:0000:0000:1", "too long");
	BAD("[::1]:80", "unbalanced");
}

static uint16_t port;

static int
hostport(const char *s)
{
	why = NULL;
	port = 4242;
	return host_parse_hostport(s, strlen(s), &h, &port, &why);
}

static void
test_hostport(void)
{
	CHECK_INT(hostport("example.com:443"), 0);
	CHECK_STR(h.text, "example.com");
	CHECK_INT(port, 443);
	CHECK_INT(hostport("EXAMPLE.com.:8080"), 0);
	CHECK_STR(h.text, "example.com");
	CHECK_INT(port, 8080);
	CHECK_INT(hostport("example.com"), 0);
	CHECK_INT(port, 0);
	CHECK_INT(hostport("[::1]:80"), 0);
	CHECK_INT(h.kind, HOST_IPV6);
	CHECK_STR(h.text, "::1");
	CHECK_INT(port, 80);
	CHECK_INT(hostport("[::1]"), 0);
	CHECK_INT(port, 0);
	CHECK_INT(hostport("::1"), 0);
	CHECK_INT(port, 0);
	CHECK_INT(hostport("2130706433:22"), 0);
	CHECK_STR(h.text, "127.0.0.1");
	CHECK_INT(port, 22);
	CHECK_INT(hostport("a:65535"), 0);
	CHECK_INT(port, 65535);
	CHECK_INT(hostport("a:00080"), 0);
	CHECK_INT(port, 80);

	/* Failures leave the out-parameters alone. */
	CHECK_INT(hostport("a:0"), -EINVAL);
	CHECK_INT(port, 4242);
	CHECK_STR(why, "port out of range");
	CHECK_INT(hostport("a:65536"), -EINVAL);
	CHECK_INT(hostport("a:000080"), -EINVAL);
	CHECK_INT(hostport("a:"), -EINVAL);
	CHECK_STR(why, "empty port");
	CHECK_INT(hostport("a:+1"), -EINVAL);
	CHECK_STR(why, "port is not a decimal number");
	CHECK_INT(hostport("a:1 "), -EINVAL);
	CHECK_INT(hostport(":80"), -EINVAL);
	CHECK_STR(why, "empty host name");
	CHECK_INT(hostport("[::1]x"), -EINVAL);
	CHECK_STR(why, "unexpected bytes after ']'");
	CHECK_INT(hostport("[::1]:"), -EINVAL);
	CHECK_INT(hostport("[::1"), -EINVAL);
	CHECK_INT(hostport("[1.2.3.4]:80"), -EINVAL);
	CHECK_INT(host_parse_hostport("evil.com\0:80", 12, &h, &port, &why),
	    -EINVAL);
	CHECK_STR(why, "NUL byte in host");
	CHECK_INT(host_parse_hostport("a.com:8\0", 8, &h, &port, &why),
	    -EINVAL);
	CHECK_INT(hostport("user@host:80"), -EINVAL);
	CHECK_INT(hostport(""), -EINVAL);
	CHECK_INT(port, 4242);
}

static void
test_format_equal(void)
{
	struct host a, b;
	char buf[64];

	CHECK_INT(host_canon("Example.com.", 12, &a, &why), 0);
	CHECK_INT(host_canon("example.COM", 11, &b, &why), 0);
	CHECK(host_equal(&a, &b));
	CHECK_INT(host_canon("example.org", 11, &b, &why), 0);
	CHECK(!host_equal(&a, &b));
	CHECK_INT(host_format(&a, 0, buf, sizeof(buf)), 11);
	CHECK_STR(buf, "example.com");
	CHECK_INT(host_format(&a, 443, buf, sizeof(buf)), 15);
	CHECK_STR(buf, "example.com:443");
	CHECK_INT(host_format(&a, 443, buf, 15), -ENOSPC);
	CHECK_INT(host_canon("[::1]", 5, &a, &why), 0);
	CHECK_INT(host_format(&a, 80, buf, sizeof(buf)), 8);
	CHECK_STR(buf, "[::1]:80");

	/* A name can never equal an address of the same spelling. */
	memset(&b, 0, sizeof(b));
	b.kind = HOST_NAME;
	strcpy(b.text, "::1");
	b.len = 3;
	CHECK(!host_equal(&a, &b));
	CHECK_STR(host_kind_name(HOST_NAME), "name");
	CHECK_STR(host_kind_name(HOST_IPV4), "ipv4");
	CHECK_STR(host_kind_name(HOST_IPV6), "ipv6");
}

/* Canonical text must canonicalise to itself (no second interpretation). */
static void
test_idempotent(void)
{
	static const char *const in[] = {
		"Example.COM.", "0x7f.1", "2130706433", "[::FFFF:1.2.3.4]",
		"2001:DB8:0:0:1::1", "xn--A.b",
	};
	struct host a, b;
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		CHECK_INT(host_canon(in[i], strlen(in[i]), &a, &why), 0);
		CHECK_INT(host_canon(a.text, a.len, &b, &why), 0);
		CHECK(host_equal(&a, &b));
		CHECK(memcmp(a.addr, b.addr, 16) == 0);
	}
}

int
main(void)
{
	test_names();
	test_nul();
	test_lengths();
	test_ipv4();
	test_ipv4_vs_inet_aton();
	test_ipv6();
	test_hostport();
	test_format_equal();
	test_idempotent();
	UNIT_DONE();
}
