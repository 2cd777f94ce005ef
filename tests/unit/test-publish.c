/* Unit tests for proxy/publish.c: every accepted form, every rejection. */
#include <arpa/inet.h>
#include <errno.h>

#include "daemon/proxy/publish.h"
#include "unit.h"

static struct publish_spec p;
static const char *why;
static char text[PUBLISH_FORMAT_MAX];

static int
parse(const char *s)
{
	why = NULL;
	memset(&p, 0x5a, sizeof(p));
	text[0] = '\0';
	if (publish_parse(s, &p, &why) < 0)
		return -EINVAL;
	return publish_format(&p, text, sizeof(text));
}

#define OK(in, want)                                                         \
	do {                                                                 \
		CHECK_INT(parse(in), 0);                                     \
		CHECK_STR(text, want);                                       \
	} while (0)

#define BAD(in, reason)                                                      \
	do {                                                                 \
		CHECK_INT(parse(in), -EINVAL);                               \
		CHECK(why != NULL && strstr(why, reason) != NULL);           \
	} while (0)

int
main(void)
{
	/* The address defaults to loopback, the sandbox port to the host's. */
	OK("8080", "127.0.0.1:8080:8080");
	CHECK_INT(p.family, AF_INET);
	CHECK_INT(p.host_port, 8080);
	CHECK_INT(p.sandbox_port, 8080);
	OK("8080:3000", "127.0.0.1:8080:3000");
	CHECK_INT(p.sandbox_port, 3000);
	OK("127.0.0.2:8080", "127.0.0.2:8080:8080");
	OK("127.0.0.1:8080:3000", "127.0.0.1:8080:3000");
	OK("localhost:9000:80", "127.0.0.1:9000:80");
	OK("8080/tcp", "127.0.0.1:8080:8080");
	OK("1:65535", "127.0.0.1:1:65535");
	/* Every address only when asked for. */
	OK("0.0.0.0:8080:80", "0.0.0.0:8080:80");
	OK("[::]:8080", "[::]:8080:8080");
	OK("[::1]:8080:3000", "[::1]:8080:3000");
	CHECK_INT(p.family, AF_INET6);
	CHECK_INT(p.addr[15], 1);
	OK("[::1]:8080", "[::1]:8080:8080");

	BAD("", "no host port");
	BAD(":80", "not an address");
	BAD("127.0.0.1:", "no host port");
	BAD("127.0.0.1::80", "no host port");
	BAD("0", "not a port");
	BAD("65536", "not a port");
	BAD("08080", "not a port");
	BAD("+80", "not a port");
	BAD("80:0", "not a sandbox port");
	BAD("80:", "not a sandbox port");
	BAD("80:x", "not a sandbox port");
	BAD("8080/udp", "only TCP");
	BAD("::1:8080:80", "too many");
	BAD("[::1]", "needs :HOSTPORT");
	BAD("[::1]8080", "needs :HOSTPORT");
	BAD("[127.0.0.1]:80", "not an IPv6");
	BAD("example.com:80", "not an IPv4");
	BAD("1.2.3.4.5:80:80", "not an IPv4");
	BAD("fe80::1:80", "too many");
	BAD("[::1]:1:2:3", "not a sandbox port");
	BAD("1:2:3:4", "too many");
	BAD("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	    "too long");
	UNIT_DONE();
}
