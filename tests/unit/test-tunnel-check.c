/* Unit tests for tunnel-check.c: first bytes of every kind, and plain HTTP streams fed as a socket gives them. */
#include <openssl/ssl.h>

#include "daemon/proxy/tunnel-check.h"
#include "unit.h"

static struct tunnel_check t;
static bool by_port;	/* a captured connection to another port */

static void
init(const char *host, uint16_t port)
{
	struct host h;
	const char *why;

	CHECK_INT(host_canon(host, strlen(host), &h, &why), 0);
	tunnel_check_init(&t, &h, port);
	t.by_port = by_port;
}

/*
 * Feed buf[0..len) step bytes at a time, keeping what was not let through
 * in front as the tunnel does. Returns the last result; *passed counts
 * the bytes let through (ALL: all of them).
 */
static int
drive(const void *buf, size_t len, size_t step, size_t *passed)
{
	const uint8_t *b = buf;
	size_t have = 0, done = 0, ok;
	int r = TUNNEL_CHECK_MORE;

	while (have < len) {
		have = have + step < len ? have + step : len;
		r = tunnel_check_feed(&t, b + done, have - done, &ok);
		if (r == TUNNEL_CHECK_ALL) {
			done = len;
			break;
		}
		if (r < 0)
			break;
		CHECK(ok <= have - done);
		done += ok;
	}
	*passed = done;
	return r;
}

/* Whole, a byte at a time and in 7-byte pieces: the same verdict. */
static int
verdict(const char *host, uint16_t port, const void *buf, size_t len,
    size_t *passed)
{
	static const size_t steps[] = { 1, 7 };
	size_t k, p;
	int r, want;

	init(host, port);
	want = drive(buf, len, len, passed);
	for (k = 0; k < 2; k++) {
		init(host, port);
		r = drive(buf, len, steps[k], &p);
		CHECK_INT(r, want);
		if (want >= 0)	/* refused: earlier pieces may have gone */
			CHECK_INT(p, *passed);
	}
	return want;
}

#define PASSES(host, s)                                                      \
	do {                                                                 \
		size_t _p;                                                   \
		int _r = verdict(host, 8080, s, strlen(s), &_p);             \
		CHECK(_r >= 0);                                              \
		CHECK_INT(_p, strlen(s));                                    \
	} while (0)

#define REFUSED(host, s, reason)                                             \
	do {                                                                 \
		size_t _p;                                                   \
		CHECK_INT(verdict(host, 8080, s, strlen(s), &_p),            \
		    TUNNEL_CHECK_REFUSED);                                   \
		CHECK(t.why != NULL && strstr(t.why, reason) != NULL);       \
	} while (0)

static void
test_http_streams(void)
{
	const char *s;
	size_t p;

	PASSES("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n");
	PASSES("a.com", "GET / HTTP/1.1\r\nHost: A.com:8080\r\n\r\n"
	    "POST /x HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\n\r\nhello"
	    "POST /y HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: chunked\r\n"
	    "\r\n5;e=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n\r\n\r\n"
	    "GET http://a.com:8080/z HTTP/1.1\r\nHost: a.com:8080\r\n\r\n");
	PASSES("a.com", "\r\n\r\nGET / HTTP/1.1\r\nHost: a.com\r\n\r\n");
	PASSES("10.0.0.1", "GET / HTTP/1.0\r\n\r\n");
	PASSES("a.com", "SSH-2.0-x / HTTP/1.1\r\nHost: a.com\r\n\r\n");

	/* Only what is checked goes: a partial head, or chunk size line,
	 * stays behind. */
	init("a.com", 80);
	s = "GET / HTTP/1.1\r\nHost: a.com\r\n\r\nGET / HT";
	CHECK_INT(drive(s, strlen(s), strlen(s), &p), TUNNEL_CHECK_MORE);
	CHECK_INT(p, strlen(s) - 8);
	init("a.com", 80);
	s = "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: chunked"
	    "\r\n\r\n5\r\nhello\r\n1";
	CHECK_INT(drive(s, strlen(s), strlen(s), &p), TUNNEL_CHECK_MORE);
	CHECK_INT(p, strlen(s) - 1);

	/* Every request names the host: after another, after bodies. */
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n"
	    "GET / HTTP/1.1\r\nHost: b.com\r\n\r\n", "another host");
	CHECK(t.has_named);
	CHECK_STR(t.named.text, "b.com");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 2"
	    "\r\n\r\nabGET / HTTP/1.1\r\nHost: b.com\r\n\r\n", "another host");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding:"
	    " chunked\r\n\r\n2\r\nab\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: b.com"
	    "\r\n\r\n", "another host");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com:81\r\n\r\n",
	    "another host");
	CHECK_INT(t.named_port, 81);
	REFUSED("a.com", "GET http://b.com:8080/ HTTP/1.1\r\nHost: b.com:8080"
	    "\r\n\r\n", "another host");
	REFUSED("a.com", "GET http://a.com:8080/ HTTP/1.1\r\nHost: b.com\r\n"
	    "\r\n", "Host field names another host");
	REFUSED("a.com", "GET / HTTP/1.0\r\n\r\n", "without Host");
	REFUSED("a.com", "SSH-2.0-x / HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "another host");

	/* What some server reads differently is refused, not passed. */
	REFUSED("a.com", "\nGET / HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "first bytes are not");
	REFUSED("a.com", " GET / HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "first bytes are not");
	REFUSED("a.com", "\tGET / HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "first bytes are not");
	REFUSED("a.com", "\r\n\nGET / HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "first bytes are not");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n\nGET / "
	    "HTTP/1.1\r\nHost: b.com\r\n\r\n", "after a request");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n GET / "
	    "HTTP/1.1\r\nHost: b.com\r\n\r\n", "after a request");
	REFUSED("a.com", "GET / HTTP/1.1\nHost: b.com\n\n", "bare LF");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nContent_Length: 5"
	    "\r\n\r\n", "field name with '_'");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer_Encoding:"
	    " chunked\r\n\r\n", "field name with '_'");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 1"
	    "\r\nContent-Length: 2\r\n\r\n", "duplicate Content-Length");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 1"
	    "\r\nTransfer-Encoding: chunked\r\n\r\n", "both");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nX: 1\r\n y\r\n\r\n",
	    "obsolete line folding");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost : b.com\r\n\r\n",
	    "whitespace before ':'");
	REFUSED("a.com", "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding:"
	    " chunked\r\n\r\nzz\r\n", "chunk");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\nConnection: upgrade"
	    "\r\nUpgrade: websocket\r\n\r\nGET / HTTP/1.1\r\nHost: b.com\r\n"
	    "\r\n", "upgrade");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 33"
	    "\r\n\r\nGET / HTTP/1.1\r\nHost: b.com\r\n\r\n", "with a body");
	REFUSED("a.com", "HEAD / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding:"
	    " chunked\r\n\r\n0\r\n\r\n", "with a body");
	PASSES("a.com", "GET / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 0"
	    "\r\n\r\nDELETE /x HTTP/1.1\r\nHost: a.com\r\nContent-Length: 2"
	    "\r\n\r\n{}");
	REFUSED("a.com", "CONNECT b.com:443 HTTP/1.1\r\nHost: b.com\r\n\r\n",
	    "CONNECT inside a tunnel");
	REFUSED("a.com", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "version");
	REFUSED("a.com", "\x01\x02garbage", "first bytes are not");
	REFUSED("a.com", "\x15\x03\x03\x00\x02\x02\x28", "first bytes are not");
	REFUSED("a.com", "\x05\x01\x00", "first bytes are not");
	REFUSED("a.com", "\x80\x2e\x01\x00\x02", "first bytes are not");
}

static void
test_ssh(void)
{
	static const char *const banners[] = {
		"SSH-2.0-OpenSSH_9.6\r\n",
		"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n\x00\x00\x04\x1c",
		"SSH-1.99-Cisco-1.25\r\n",
	};
	size_t i, p;

	for (i = 0; i < 3; i++)
		CHECK_INT(verdict("a.com", 22, banners[i], strlen(banners[i]),
		    &p), TUNNEL_CHECK_ALL);
	REFUSED("a.com", "SSH-2.0-\r\n", "first bytes are not");
	REFUSED("a.com", "SSH-2.0-x\n", "first bytes are not");
	REFUSED("a.com", "SSH-2.0-x\ty\r\n", "first bytes are not");
	REFUSED("a.com", "SSH-3.0-x\r\n", "first bytes are not");
	/* Not a line within 255 bytes: not SSH; as HTTP, no method. */
	init("a.com", 22);
	{
		char big[400];

		memcpy(big, "SSH-2.0-", 8);
		memset(big + 8, 'a', sizeof(big) - 8);
		CHECK_INT(drive(big, sizeof(big), sizeof(big), &p),
		    TUNNEL_CHECK_REFUSED);
	}
}

/* --- TLS ----------------------------------------------------------------- */

static size_t
hello(const char *name, uint8_t *out, size_t size)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *ssl = SSL_new(ctx);
	BIO *rbio = BIO_new(BIO_s_mem()), *wbio = BIO_new(BIO_s_mem());
	int n;

	SSL_set_bio(ssl, rbio, wbio);
	if (name != NULL)
		SSL_set_tlsext_host_name(ssl, name);
	SSL_set_connect_state(ssl);
	(void)SSL_do_handshake(ssl);
	n = BIO_read(wbio, out, (int)size);
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	return n > 0 ? (size_t)n : 0;
}

/* A record of type and length n, then the hello: into out. */
static size_t
prefixed(uint8_t type, size_t n, const uint8_t *h, size_t hn, uint8_t *out)
{
	out[0] = type, out[1] = 3, out[2] = 3, out[3] = 0, out[4] = (uint8_t)n;
	memset(out + 5, 1, n);
	memcpy(out + 5 + n, h, hn);
	return 5 + n + hn;
}

/* The hello's handshake message split over two records at cut. */
static size_t
split(const uint8_t *h, size_t hn, size_t cut, uint8_t *out)
{
	size_t a = cut, b = hn - 5 - cut;

	memcpy(out, h, 5);
	out[3] = (uint8_t)(a >> 8), out[4] = (uint8_t)a;
	memcpy(out + 5, h + 5, a);
	memcpy(out + 5 + a, h, 5);
	out[5 + a + 3] = (uint8_t)(b >> 8), out[5 + a + 4] = (uint8_t)b;
	memcpy(out + 10 + a, h + 5 + cut, b);
	return hn + 5;
}

static void
test_tls(void)
{
	static uint8_t h[4096], x[4200];
	size_t n, m, p, cut;

	n = hello("a.com", h, sizeof(h));
	CHECK(n > 100);
	memcpy(h + n, "\x17\x03\x03\x00\x01X", 6);	/* after it: anything */
	CHECK_INT(verdict("a.com", 443, h, n + 6, &p), TUNNEL_CHECK_ALL);
	CHECK_INT(verdict("b.com", 443, h, n, &p), TUNNEL_CHECK_REFUSED);
	CHECK_STR(t.named.text, "a.com");
	CHECK_INT(verdict("10.0.0.1", 443, h, n, &p), TUNNEL_CHECK_REFUSED);

	/* Split over records anywhere: checked all the same. */
	for (cut = 1; cut < n - 5; cut += 13) {
		m = split(h, n, cut, x);
		CHECK_INT(verdict("a.com", 443, x, m, &p), TUNNEL_CHECK_ALL);
		CHECK_INT(verdict("b.com", 443, x, m, &p),
		    TUNNEL_CHECK_REFUSED);
	}
	/* Any other record first: refused, whatever the hello names. */
	m = prefixed(0x15, 2, h, n, x);
	CHECK_INT(verdict("a.com", 443, x, m, &p), TUNNEL_CHECK_REFUSED);
	m = prefixed(0x14, 1, h, n, x);
	CHECK_INT(verdict("a.com", 443, x, m, &p), TUNNEL_CHECK_REFUSED);
	m = prefixed(0x17, 4, h, n, x);
	CHECK_INT(verdict("a.com", 443, x, m, &p), TUNNEL_CHECK_REFUSED);
	/* Or between its records. */
	m = split(h, n, 40, x);
	memmove(x + 45 + 6, x + 45, m - 45);
	memcpy(x + 45, "\x15\x03\x03\x00\x01\x00", 6);
	CHECK_INT(verdict("a.com", 443, x, m + 6, &p), TUNNEL_CHECK_REFUSED);

	/* No server name: only to an address. */
	n = hello(NULL, h, sizeof(h));
	CHECK_INT(verdict("a.com", 443, h, n, &p), TUNNEL_CHECK_REFUSED);
	CHECK(strstr(t.why, "without a server name") != NULL);
	CHECK_INT(verdict("10.0.0.1", 443, h, n, &p), TUNNEL_CHECK_ALL);
	CHECK_INT(verdict("::1", 443, h, n, &p), TUNNEL_CHECK_ALL);
}

/* by_port: what is neither TLS, SSH nor an HTTP request line passes;
 * HTTP is checked as ever. */
static void
test_by_port(void)
{
	static const char pg[] = "\0\0\0\x08\x04\xd2\x16\x2f";
	size_t p;

	by_port = true;
	CHECK_INT(verdict("a.com", 5432, pg, sizeof(pg) - 1, &p),
	    TUNNEL_CHECK_ALL);
	CHECK_INT(verdict("a.com", 25, "EHLO x\r\n", 8, &p),
	    TUNNEL_CHECK_ALL);
	CHECK_INT(verdict("a.com", 6379, "PING\r\n", 6, &p),
	    TUNNEL_CHECK_ALL);
	CHECK_INT(verdict("a.com", 6379, "*1\r\n$4\r\nPING\r\n", 14, &p),
	    TUNNEL_CHECK_ALL);
	/* A long capital word is no method. */
	CHECK_INT(verdict("a.com", 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 26, &p),
	    TUNNEL_CHECK_ALL);
	/* Still a method: more bytes wanted. */
	CHECK_INT(verdict("a.com", 8080, "GET /x", 6, &p), TUNNEL_CHECK_MORE);
	CHECK_INT(p, 0);
	PASSES("a.com", "GET / HTTP/1.1\r\nHost: a.com:8080\r\n\r\n");
	REFUSED("a.com", "GET / HTTP/1.1\r\nHost: b.com:8080\r\n\r\n",
	    "another host");
	/* Not by port: the same bytes do not pass. */
	by_port = false;
	CHECK(verdict("a.com", 25, "EHLO x\r\n", 8, &p) != TUNNEL_CHECK_ALL);
	CHECK_INT(p, 0);
}

int
main(void)
{
	test_by_port();
	test_http_streams();
	test_ssh();
	test_tls();
	UNIT_DONE();
}
