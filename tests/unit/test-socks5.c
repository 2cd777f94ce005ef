/* Unit tests for socks5.c: greeting, each address type, refusals, need-more at every length. */
#include <errno.h>

#include "daemon/proxy/socks5.h"
#include "unit.h"

static struct socks5_req req;
static const char *why;

/* Every proper prefix needs more; the whole takes exactly its length. */
static int
request_prefixes(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (socks5_request(buf, i, &req, &why) != 0)
			fprintf(stderr, "prefix %zu of %zu did not need more\n",
			    i, len);
		CHECK_INT(socks5_request(buf, i, &req, &why), 0);
	}
	memset(&req, 0, sizeof(req));
	why = NULL;
	return socks5_request(buf, len, &req, &why);
}

static void
test_greeting(void)
{
	static const uint8_t g1[] = { 5, 1, 0 };
	static const uint8_t g2[] = { 5, 3, 2, 1, 0, 'x' };
	static const uint8_t g3[] = { 5, 2, 1, 2 };
	static const uint8_t g4[] = { 5, 0 };
	static const uint8_t s4[] = { 4, 1, 0, 80 };
	uint8_t m = 42, out[2];

	CHECK_INT(socks5_greeting(g1, 0, &m), 0);
	CHECK_INT(socks5_greeting(g1, 1, &m), 0);
	CHECK_INT(socks5_greeting(g1, 2, &m), 0);
	CHECK_INT(m, 42);
	CHECK_INT(socks5_greeting(g1, 3, &m), 3);
	CHECK_INT(m, SOCKS5_AUTH_NONE);
	CHECK_INT(socks5_greeting(g2, 4, &m), 0);
	CHECK_INT(socks5_greeting(g2, 6, &m), 5);	/* 'x' is not taken */
	CHECK_INT(m, SOCKS5_AUTH_NONE);
	CHECK_INT(socks5_greeting(g3, 4, &m), 4);
	CHECK_INT(m, SOCKS5_AUTH_REFUSED);
	CHECK_INT(socks5_greeting(g4, 2, &m), 2);
	CHECK_INT(m, SOCKS5_AUTH_REFUSED);
	m = 42;
	CHECK_INT(socks5_greeting(s4, 4, &m), -EPROTO);
	CHECK_INT(socks5_greeting((const uint8_t *)"GET / HTTP/1.1", 14, &m),
	    -EPROTO);
	CHECK_INT(m, 42);
	socks5_greeting_reply(SOCKS5_AUTH_NONE, out);
	CHECK(out[0] == 5 && out[1] == 0);
}

/* The last parsed request is for this host and port. */
static void
expect(uint8_t atyp, enum host_kind kind, const char *text, uint16_t port)
{
	CHECK_INT(req.atyp, atyp);
	CHECK_INT(req.host.kind, kind);
	CHECK_STR(req.host.text, text);
	CHECK_INT(req.port, port);
}

static void
test_connect(void)
{
	static const uint8_t v4[] = { 5, 1, 0, 1, 93, 184, 216, 34, 0x01, 0xbb, 'G' };
	static const uint8_t v6[] = { 5, 1, 0, 4, 0x20, 0x01, 0x0d, 0xb8, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 80 };
	static const uint8_t mapped[] = { 5, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0xff, 0xff, 127, 0, 0, 1, 0, 80 };
	static const uint8_t dom[] = { 5, 1, 0, 3, 12, 'E', 'x', 'a', 'm', 'p',
		'l', 'e', '.', 'C', 'o', 'm', '.', 0x1f, 0x90 };
	static const uint8_t dom_ip[] = { 5, 1, 0, 3, 10, '2', '1', '3', '0',
		'7', '0', '6', '4', '3', '3', 0, 22 };

	CHECK_INT(request_prefixes(v4, sizeof(v4) - 1), 10);
	CHECK_INT(socks5_request(v4, sizeof(v4), &req, &why), 10);
	expect(SOCKS5_ATYP_IPV4, HOST_IPV4, "93.184.216.34", 443);
	CHECK_INT(request_prefixes(v6, sizeof(v6)), 22);
	expect(SOCKS5_ATYP_IPV6, HOST_IPV6, "2001:db8::1", 80);
	/* v4-mapped reaches 127.0.0.1, so it is IPv4. */
	CHECK_INT(request_prefixes(mapped, sizeof(mapped)), 22);
	expect(SOCKS5_ATYP_IPV6, HOST_IPV4, "127.0.0.1", 80);
	CHECK_INT(request_prefixes(dom, sizeof(dom)), 19);
	expect(SOCKS5_ATYP_DOMAIN, HOST_NAME, "example.com", 8080);
	CHECK_INT(request_prefixes(dom_ip, sizeof(dom_ip)), 17);
	expect(SOCKS5_ATYP_DOMAIN, HOST_IPV4, "127.0.0.1", 22);
}

/* Refused with err as soon as the first n bytes arrived. */
static void
refused(const uint8_t *buf, size_t len, size_t n, int err, uint8_t rep,
    const char *reason)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK_INT(socks5_request(buf, i, &req, &why), 0);
	for (i = n; i <= len; i++) {
		why = NULL;
		CHECK_INT(socks5_request(buf, i, &req, &why), err);
		CHECK(why != NULL && strstr(why, reason) != NULL);
	}
	CHECK_INT(socks5_rep_for(err), rep);
}

static void
test_refused(void)
{
	static const uint8_t bind[] = { 5, 2, 0, 1, 1, 2, 3, 4, 0, 80 };
	static const uint8_t udp[] = { 5, 3, 0, 1, 0, 0, 0, 0, 0, 0 };
	static const uint8_t cmd9[] = { 5, 9, 0, 1, 1, 2, 3, 4, 0, 80 };
	static const uint8_t ver4[] = { 4, 1, 0, 80, 1, 2, 3, 4, 0 };
	static const uint8_t rsv[] = { 5, 1, 1, 1, 1, 2, 3, 4, 0, 80 };
	static const uint8_t atyp[] = { 5, 1, 0, 2, 1, 2, 3, 4, 0, 80 };
	static const uint8_t atyp0[] = { 5, 1, 0, 0 };
	static const uint8_t port0[] = { 5, 1, 0, 1, 1, 2, 3, 4, 0, 0 };
	static const uint8_t empty[] = { 5, 1, 0, 3, 0, 0, 80 };
	static const uint8_t nul[] = { 5, 1, 0, 3, 5, 'a', '.', 'c', 0, 'm', 0, 80 };
	static const uint8_t bad[] = { 5, 1, 0, 3, 3, 'a', ' ', 'b', 0, 80 };
	static const uint8_t utf8[] = { 5, 1, 0, 3, 2, 0xc3, 0xbc, 0, 80 };
	static const uint8_t ctl[] = { 5, 1, 0, 3, 2, 'a', '\n', 0, 80 };

	refused(bind, sizeof(bind), 2, -ENOTSUP, SOCKS5_REP_CMD_UNSUPPORTED,
	    "BIND");
	refused(udp, sizeof(udp), 2, -ENOTSUP, SOCKS5_REP_CMD_UNSUPPORTED,
	    "UDP ASSOCIATE");
	refused(cmd9, sizeof(cmd9), 2, -ENOTSUP, SOCKS5_REP_CMD_UNSUPPORTED,
	    "unknown command");
	refused(ver4, sizeof(ver4), 1, -EPROTO, SOCKS5_REP_FAILURE, "not a SOCKS5");
	refused(rsv, sizeof(rsv), 3, -EPROTO, SOCKS5_REP_FAILURE, "reserved");
	refused(atyp, sizeof(atyp), 4, -EAFNOSUPPORT,
	    SOCKS5_REP_ATYP_UNSUPPORTED, "address type");
	refused(atyp0, sizeof(atyp0), 4, -EAFNOSUPPORT,
	    SOCKS5_REP_ATYP_UNSUPPORTED, "address type");
	refused(port0, sizeof(port0), 10, -EINVAL, SOCKS5_REP_NOT_ALLOWED,
	    "port 0");
	refused(empty, sizeof(empty), 7, -EINVAL, SOCKS5_REP_NOT_ALLOWED,
	    "empty host");
	refused(nul, sizeof(nul), 12, -EINVAL, SOCKS5_REP_NOT_ALLOWED, "NUL");
	refused(bad, sizeof(bad), 10, -EINVAL, SOCKS5_REP_NOT_ALLOWED, "space");
	refused(utf8, sizeof(utf8), 9, -EINVAL, SOCKS5_REP_NOT_ALLOWED,
	    "non-ASCII");
	refused(ctl, sizeof(ctl), 9, -EINVAL, SOCKS5_REP_NOT_ALLOWED, "control");
	CHECK_INT(socks5_rep_for(-ENOMEM), SOCKS5_REP_FAILURE);
}

static void
test_long_domain(void)
{
	uint8_t buf[5 + 255 + 2];
	size_t i;

	buf[0] = 5, buf[1] = 1, buf[2] = 0, buf[3] = 3, buf[4] = 255;
	for (i = 0; i < 255; i++)
		buf[5 + i] = (i % 64 == 63) ? '.' : 'a';
	buf[260] = 0, buf[261] = 1;
	/* 255 bytes of name is over 253: refused, but parsed to the end. */
	CHECK_INT(socks5_request(buf, 261, &req, &why), 0);
	CHECK_INT(socks5_request(buf, 262, &req, &why), -EINVAL);
	buf[4] = 253;
	buf[258] = 0, buf[259] = 1;
	CHECK_INT(socks5_request(buf, 260, &req, &why), 260);
	CHECK_INT(req.host.len, 253);
	CHECK_INT(req.port, 1);
}

static void
test_reply(void)
{
	static const uint8_t want4[] = { 5, 0, 0, 1, 10, 0, 0, 1, 0x04, 0x38 };
	static const uint8_t want0[] = { 5, 2, 0, 1, 0, 0, 0, 0, 0, 0 };
	uint8_t out[SOCKS5_REPLY_MAX];
	struct host h;

	CHECK_INT(host_canon("10.0.0.1", 8, &h, &why), 0);
	CHECK_INT(socks5_reply(0, &h, 1080, out, sizeof(out)), 10);
	CHECK(memcmp(out, want4, 10) == 0);
	CHECK_INT(socks5_reply(SOCKS5_REP_NOT_ALLOWED, NULL, 0, out,
	    sizeof(out)), 10);
	CHECK(memcmp(out, want0, 10) == 0);
	CHECK_INT(socks5_reply(0, NULL, 0, out, 9), -ENOSPC);
	CHECK_INT(host_canon("::1", 3, &h, &why), 0);
	CHECK_INT(socks5_reply(0, &h, 80, out, sizeof(out)), 22);
	CHECK(out[3] == 4 && out[19] == 1 && out[20] == 0 && out[21] == 80);
	CHECK_INT(socks5_reply(0, &h, 80, out, 21), -ENOSPC);
	CHECK_INT(host_canon("a.example", 9, &h, &why), 0);
	CHECK_INT(socks5_reply(0, &h, 80, out, sizeof(out)), 16);
	CHECK(out[3] == 3 && out[4] == 9 && memcmp(out + 5, "a.example", 9) == 0);
	/* A reply parses back as the same address (same layout as a request). */
	out[1] = SOCKS5_CMD_CONNECT;
	CHECK_INT(socks5_request(out, 16, &req, &why), 16);
	CHECK(host_equal(&req.host, &h));
	CHECK_INT(req.port, 80);
}

int
main(void)
{
	test_greeting();
	test_connect();
	test_refused();
	test_long_domain();
	test_reply();
	UNIT_DONE();
}
