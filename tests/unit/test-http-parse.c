/* Unit tests for http-parse.c: request forms, incremental feeding, every rejection. */
#include <errno.h>

#include "daemon/proxy/http-parse.h"
#include "unit.h"

static struct http_req r;

static int
parse_mode(const char *s, enum http_mode mode)
{
	http_parse_init(&r, mode);
	return http_parse_request(&r, s, strlen(s));
}

static int
parse(const char *s)
{
	return parse_mode(s, HTTP_MODE_PROXY);
}

static bool
span_is(struct http_span sp, const char *want)
{
	return sp.len == strlen(want) && memcmp(r.head + sp.off, want, sp.len) == 0;
}

/* Rejected with this errno, status and reason. */
#define BAD(req, err, status_, reason)                                       \
	do {                                                                 \
		CHECK_INT(parse(req), err);                                  \
		CHECK_INT(r.status, status_);                                \
		CHECK(r.why != NULL && strstr(r.why, reason) != NULL);       \
	} while (0)

static void
test_connect(void)
{
	static const char req[] =
	    "CONNECT Example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n"
	    "User-Agent: curl/8\r\n\r\n";

	CHECK_INT(parse(req), (int)strlen(req));
	CHECK_INT(r.form, HTTP_FORM_AUTHORITY);
	CHECK_STR(r.host.text, "example.com");
	CHECK_INT(r.port, 443);
	CHECK_INT(r.minor, 1);
	CHECK_INT(r.nfields, 2);
	CHECK(span_is(r.method, "CONNECT"));
	CHECK(span_is(r.target, "Example.com:443"));
	CHECK(span_is(r.field[1].name, "User-Agent"));
	CHECK(span_is(r.field[1].value, "curl/8"));
	CHECK_INT(r.host_field, 0);
	CHECK_INT(r.body, HTTP_BODY_NONE);
	CHECK(!r.close);
	CHECK_INT(http_parse_origin_line(&r, (char[64]){ 0 }, 64), -EINVAL);

	CHECK_INT(parse("CONNECT [::1]:8443 HTTP/1.0\r\n\r\n"), 31);
	CHECK_INT(r.host.kind, HOST_IPV6);
	CHECK_INT(r.port, 8443);
	CHECK(r.close);
	CHECK_INT(parse("CONNECT 2130706433:22 HTTP/1.1\r\n\r\n"), 34);
	CHECK_STR(r.host.text, "127.0.0.1");
	CHECK_INT(parse("CONNECT a.com:443 HTTP/1.1\r\nContent-Length: 0\r\n\r\n"),
	    49);

	BAD("CONNECT example.com HTTP/1.1\r\n\r\n", -EBADMSG, 400, "without a port");
	BAD("CONNECT example.com:443/x HTTP/1.1\r\n\r\n", -EBADMSG, 400, "port");
	BAD("CONNECT a b.com:443 HTTP/1.1\r\n\r\n", -EBADMSG, 400, "version");
	BAD("CONNECT http://a.com:443 HTTP/1.1\r\n\r\n", -EBADMSG, 400, "IPv6");
	BAD("CONNECT a.com:443 HTTP/1.1\r\nContent-Length: 5\r\n\r\n", -EBADMSG,
	    400, "CONNECT with a body");
	BAD("CONNECT a.com:443 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
	    -EBADMSG, 400, "CONNECT with a body");
}

static void
test_absolute(void)
{
	static const char req[] =
	    "GET http://Example.com:8080/a/b?q=1 HTTP/1.1\r\n"
	    "Host: example.COM.:8080\r\nAccept: */*\r\n\r\n";
	char line[128];
	const char *why = NULL;

	CHECK_INT(parse(req), (int)strlen(req));
	CHECK_INT(r.form, HTTP_FORM_ABSOLUTE);
	CHECK_STR(r.host.text, "example.com");
	CHECK_INT(r.port, 8080);
	CHECK(span_is(r.path, "/a/b?q=1"));
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);
	CHECK_INT(http_parse_origin_line(&r, line, sizeof(line)), 23);
	CHECK_STR(line, "GET /a/b?q=1 HTTP/1.1\r\n");
	CHECK_INT(http_parse_origin_line(&r, line, 23), -ENOSPC);

	CHECK(parse("GET http://a.com HTTP/1.1\r\nHost: a.com\r\n\r\n") > 0);
	CHECK_INT(r.port, 80);
	CHECK_INT(http_parse_origin_line(&r, line, sizeof(line)), 16);
	CHECK_STR(line, "GET / HTTP/1.1\r\n");
	CHECK(parse("POST HTTP://a.com?x=1 HTTP/1.0\r\n\r\n") > 0);
	CHECK_INT(http_parse_origin_line(&r, line, sizeof(line)), 21);
	CHECK_STR(line, "POST /?x=1 HTTP/1.0\r\n");
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);	/* 1.0, no Host */
	CHECK(parse("GET http://[::1]:8080/ HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n") > 0);
	CHECK_INT(r.host.kind, HOST_IPV6);
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);

	BAD("GET https://a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -ENOTSUP, 400,
	    "only http://");
	BAD("GET ftp://a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -ENOTSUP, 400,
	    "only http://");
	BAD("GET http:/a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed request target");
	BAD("GET a.com/x HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed request target");
	BAD("GET http://good.com@evil.com/ HTTP/1.1\r\nHost: evil.com\r\n\r\n",
	    -EBADMSG, 400, "userinfo");
	BAD("GET http://a.com/#frag HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG,
	    400, "fragment");
	BAD("GET http://evil.com\\.good.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n",
	    -EBADMSG, 400, "invalid character");
	BAD("GET http://evil.com\\@good.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n",
	    -EBADMSG, 400, "userinfo");
	BAD("GET http:///x HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "empty host");
	BAD("GET http://a.com:0/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "port out of range");
	BAD("GET http://a.com%2f/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "invalid character");
	BAD("GET / HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "not a proxy request");
	BAD("OPTIONS * HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "not a proxy request");
	BAD("GET http://a.com/ HTTP/1.1\r\n\r\n", -EBADMSG, 400, "without Host");
}

static void
test_host_agrees(void)
{
	const char *why = NULL;

	CHECK(parse("GET http://a.com/ HTTP/1.1\r\nHost: a.com:80\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);
	CHECK(parse("GET http://a.com:80/ HTTP/1.1\r\nHost: A.com.\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);
	CHECK(parse("GET http://127.0.0.1/ HTTP/1.1\r\nHost: 0x7f.1\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);
	CHECK(parse("GET http://allowed.com/ HTTP/1.1\r\nHost: evil.com\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), -EPERM);
	CHECK(why != NULL && strstr(why, "another host") != NULL);
	CHECK(parse("GET http://a.com/ HTTP/1.1\r\nHost: a.com:8080\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), -EPERM);
	CHECK(why != NULL && strstr(why, "another port") != NULL);
	CHECK(parse("GET http://a.com:81/ HTTP/1.1\r\nHost: a.com\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), -EPERM);
	CHECK(parse("GET http://a.com/ HTTP/1.1\r\nHost: www.a.com\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), -EPERM);
	/* CONNECT's Host is not compared (it is never forwarded). */
	CHECK(parse("CONNECT a.com:443 HTTP/1.1\r\nHost: b.com\r\n\r\n") > 0);
	CHECK_INT(http_parse_host_agrees(&r, &why), 0);
}

static void
test_incremental(void)
{
	static const char req[] =
	    "\r\n\r\nGET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\nNEXT";
	size_t n = strlen(req) - 4, i;
	int ret = 0;

	/* Byte by byte: nothing until the last byte of the head. */
	http_parse_init(&r, HTTP_MODE_PROXY);
	for (i = 1; i <= strlen(req); i++) {
		ret = http_parse_request(&r, req, i);
		if (i < n)
			CHECK_INT(ret, 0);
		if (ret != 0)
			break;
	}
	CHECK_INT(i, n);
	CHECK_INT(ret, (int)n);
	CHECK_INT(r.start, 4);		/* the empty lines were skipped */
	CHECK(span_is(r.method, "GET"));
	/* All at once, with the next request behind it: same length. */
	CHECK_INT(parse(req), (int)n);

	/* The first byte decides whether this is HTTP at all. */
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, "\x16\x03\x01", 3), -EPROTO);
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, "\r", 1), 0);
	CHECK_INT(http_parse_request(&r, "\r\n", 2), 0);
	CHECK_INT(http_parse_request(&r, "\r\nG", 3), 0);
	CHECK_INT(http_parse_request(&r, "\r\nGET /x HTTP/1.1\r", 18), 0);
	CHECK_INT(http_parse_request(&r, "\r\nGET /x HTTP/1.1\rX", 19), -EBADMSG);
	CHECK_STR(r.why, "bare CR in request head");
}

static void
test_framing(void)
{
	CHECK(parse("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Content-Length: 0012\r\n\r\n") > 0);
	CHECK_INT(r.body, HTTP_BODY_LENGTH);
	CHECK_INT(r.content_length, 12);
	CHECK(parse("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Transfer-Encoding: Chunked\r\n\r\n") > 0);
	CHECK_INT(r.body, HTTP_BODY_CHUNKED);

	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n", -EBADMSG, 400, "both");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
	    -EBADMSG, 400, "both");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\n"
	    "Content-Length: 5\r\n\r\n", -EBADMSG, 400, "duplicate Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
	    -EBADMSG, 400, "duplicate Transfer-Encoding");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Transfer-Encoding: gzip, chunked\r\n\r\n", -ENOTSUP, 501, "chunked");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Transfer-Encoding: chunked, chunked\r\n\r\n", -ENOTSUP, 501, "chunked");
	BAD("POST http://a.com/ HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
	    -EBADMSG, 400, "HTTP/1.0");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: +5\r\n\r\n",
	    -EBADMSG, 400, "bad Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5,5\r\n\r\n",
	    -EBADMSG, 400, "bad Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: -1\r\n\r\n",
	    -EBADMSG, 400, "bad Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length:\r\n\r\n",
	    -EBADMSG, 400, "bad Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\nContent-Length: 0x10\r\n\r\n",
	    -EBADMSG, 400, "bad Content-Length");
	BAD("POST http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "Content-Length: 1234567890123456789\r\n\r\n", -EBADMSG, 400,
	    "bad Content-Length");
}

/* Names CGI-style servers fold into framing or hop-by-hop fields. */
static void
test_lookalikes(void)
{
	static const char *const bad[] = {
		"Content_Length: 5", "content_length: 5", "CONTENT_LENGTH: 5",
		"Content_length: 0", "Transfer_Encoding: chunked",
		"transfer_encoding: chunked", "Keep_Alive: 1",
		"Proxy_Connection: close", "Proxy_Authorization: Basic eA==",
		"Proxy_Authenticate: x",
	};
	static const char *const fine[] = {
		"Content-Length: 5", "X_Content_Length: 5", "Content_Length_: 5",
		"Content__Length: 5", "Content_Type: text/plain",
		"Transfer_Encodings: x", "_: x",
	};
	char req[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(req, sizeof(req), "POST http://a.com/ HTTP/1.1\r\n"
		    "Host: a.com\r\n%s\r\n\r\n", bad[i]);
		BAD(req, -EBADMSG, 400, "field name with '_'");
		snprintf(req, sizeof(req), "POST / HTTP/1.1\r\nHost: a.com\r\n"
		    "Content-Length: 5\r\n%s\r\n\r\n", bad[i]);
		CHECK_INT(parse_mode(req, HTTP_MODE_ORIGIN), -EBADMSG);
	}
	for (i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		snprintf(req, sizeof(req), "POST http://a.com/ HTTP/1.1\r\n"
		    "Host: a.com\r\n%s\r\n\r\n", fine[i]);
		CHECK(parse(req) > 0);
	}
}

static void
test_syntax(void)
{
	BAD("GET http://a.com/ HTTP/1.1\nHost: a.com\n\n", -EBADMSG, 400, "bare LF");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\n\r\n", -EBADMSG, 400,
	    "bare LF");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.\rcom\r\n\r\n", -EBADMSG, 400,
	    "bare CR");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n X: y\r\n\r\n",
	    -EBADMSG, 400, "obsolete line folding");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost : a.com\r\n\r\n", -EBADMSG, 400,
	    "whitespace before ':'");
	BAD("GET http://a.com/ HTTP/1.1\r\nHo@st: a.com\r\n\r\n", -EBADMSG, 400,
	    "invalid field name");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nNoColon\r\n\r\n",
	    -EBADMSG, 400, "invalid field name");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n: v\r\n\r\n",
	    -EBADMSG, 400, "invalid field name");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nX: a\x01z\r\n\r\n",
	    -EBADMSG, 400, "invalid byte in field value");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nX: a\x7fz\r\n\r\n",
	    -EBADMSG, 400, "invalid byte in field value");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nHost: a.com\r\n\r\n",
	    -EBADMSG, 400, "duplicate Host");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a b\r\n\r\n", -EBADMSG, 400,
	    "space");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost:\r\n\r\n", -EBADMSG, 400,
	    "empty host");
	BAD("GET http://a.com/ HTTP/1.1\r\nHost: a.com:x\r\n\r\n", -EBADMSG, 400,
	    "port");
	BAD("GET http://a.com/ HTTP/1.2\r\nHost: a.com\r\n\r\n", -ENOTSUP, 505,
	    "version not supported");
	BAD("GET http://a.com/ HTTP/2.0\r\nHost: a.com\r\n\r\n", -ENOTSUP, 505,
	    "version not supported");
	BAD("GET http://a.com/ http/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed HTTP version");
	BAD("GET http://a.com/ HTTP/1.10\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed HTTP version");
	BAD("GET http://a.com/ HTTP/1.1 \r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed HTTP version");
	BAD("GET  http://a.com/ HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed request line");
	BAD("GET http://a.com/\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "malformed request line");
	BAD("GET http://a.com/\xff HTTP/1.1\r\nHost: a.com\r\n\r\n", -EBADMSG, 400,
	    "invalid byte in request target");
	BAD("GET\r\n\r\n", -EPROTO, 400, "not an HTTP request");
	BAD(" GET / HTTP/1.1\r\n\r\n", -EPROTO, 400, "not an HTTP request");
	BAD("\nGET / HTTP/1.1\r\n\r\n", -EPROTO, 400, "not an HTTP request");
	BAD("\r\n\nGET / HTTP/1.1\r\n\r\n", -EPROTO, 400, "not an HTTP request");
	BAD("GE(T / HTTP/1.1\r\n\r\n", -EPROTO, 400, "not an HTTP request");
	BAD("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA / HTTP/1.1\r\n\r\n", -EPROTO,
	    400, "not an HTTP request");

	/* obs-text in values is legal and kept; tabs are trimmed. */
	CHECK(parse("GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n"
	    "X-T:\t caf\xc3\xa9 \t\r\nX-Empty:\r\n\r\n") > 0);
	CHECK(span_is(r.field[1].value, "caf\xc3\xa9"));
	CHECK(span_is(r.field[2].value, ""));
}

static void
test_nul(void)
{
	static const char req[] = "GET http://a.com/ HTTP/1.1\r\nHost: a.com\0x\r\n\r\n";

	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, req, sizeof(req) - 1), -EBADMSG);
	CHECK_STR(r.why, "NUL byte in request head");
}

static void
test_limits(void)
{
	static char buf[HTTP_HEAD_MAX + 64];
	const char *pre = "GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\nX: ";
	size_t n, i;

	/* A head of exactly 16 KiB is fine, one byte more is not. */
	n = strlen(pre);
	memcpy(buf, pre, n);
	memset(buf + n, 'v', HTTP_HEAD_MAX - n - 4);
	memcpy(buf + HTTP_HEAD_MAX - 4, "\r\n\r\n", 4);
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, buf, HTTP_HEAD_MAX), HTTP_HEAD_MAX);
	memset(buf + n, 'v', HTTP_HEAD_MAX - n - 3);
	memcpy(buf + HTTP_HEAD_MAX - 3, "\r\n\r\n", 4);
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, buf, HTTP_HEAD_MAX + 1), -EMSGSIZE);
	CHECK_INT(r.status, 431);
	/*
	 * The same, arriving one byte at a time: at 16384 bytes the last one
	 * is a CR that could still end the head, so the verdict needs one more.
	 */
	http_parse_init(&r, HTTP_MODE_PROXY);
	for (i = 1; i <= HTTP_HEAD_MAX + 1; i++)
		if (http_parse_request(&r, buf, i) != 0)
			break;
	CHECK_INT(i, HTTP_HEAD_MAX + 1);
	CHECK_INT(r.status, 431);
	/* Without a CR at the end the verdict comes at exactly 16 KiB. */
	memset(buf + n, 'v', HTTP_HEAD_MAX);
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, buf, HTTP_HEAD_MAX - 1), 0);
	CHECK_INT(http_parse_request(&r, buf, HTTP_HEAD_MAX), -EMSGSIZE);
	/* Endless empty lines count against the limit too. */
	for (i = 0; i < sizeof(buf) / 2; i++)
		memcpy(buf + 2 * i, "\r\n", 2);
	http_parse_init(&r, HTTP_MODE_PROXY);
	CHECK_INT(http_parse_request(&r, buf, sizeof(buf)), -EMSGSIZE);

	/* 100 fields are fine, 101 are not. */
	n = (size_t)sprintf(buf, "GET http://a.com/ HTTP/1.1\r\nHost: a.com\r\n");
	for (i = 1; i < HTTP_FIELDS_MAX; i++)
		n += (size_t)sprintf(buf + n, "X%zu: v\r\n", i);
	strcpy(buf + n, "\r\n");
	CHECK(parse(buf) > 0);
	CHECK_INT(r.nfields, 100);
	strcpy(buf + n, "Y: z\r\n\r\n");
	CHECK_INT(parse(buf), -EMSGSIZE);
	CHECK_INT(r.status, 431);
}

static void
test_origin_mode(void)
{
	char line[64];

	CHECK(parse_mode("GET /x HTTP/1.1\r\nHost: Tunnel.example:443\r\n\r\n",
	    HTTP_MODE_ORIGIN) > 0);
	CHECK_INT(r.form, HTTP_FORM_ORIGIN);
	CHECK_STR(r.host_hdr.text, "tunnel.example");
	CHECK_INT(r.host_hdr_port, 443);
	CHECK_INT(http_parse_origin_line(&r, line, sizeof(line)), 17);
	CHECK_STR(line, "GET /x HTTP/1.1\r\n");
	CHECK(parse_mode("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
	    HTTP_MODE_ORIGIN) > 0);
	CHECK(parse_mode("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
	    HTTP_MODE_ORIGIN) > 0);
	CHECK_INT(r.form, HTTP_FORM_ABSOLUTE);
	CHECK_INT(parse_mode("CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n",
	    HTTP_MODE_ORIGIN), -EBADMSG);
	CHECK_INT(parse_mode("GET * HTTP/1.1\r\nHost: a\r\n\r\n",
	    HTTP_MODE_ORIGIN), -EBADMSG);
	CHECK_INT(parse_mode("GET / HTTP/1.1\r\n\r\n", HTTP_MODE_ORIGIN),
	    -EBADMSG);
	CHECK_INT(parse_mode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
	    HTTP_MODE_ORIGIN), -ENOTSUP);
}

static void
test_connection(void)
{
	static const bool drop[] = {
		false, true, true, true, true, true, false, false, false, true,
		true,
	};
	size_t i;

	CHECK(parse("GET http://a/ HTTP/1.1\r\nHost: a\r\n"
	    "Connection: X-Secret, content-length , host,Transfer-Encoding\r\n"
	    "X-Secret: 1\r\nKeep-Alive: 5\r\nProxy-Authorization: x\r\n"
	    "proxy-connection: close\r\nContent-Length: 0\r\nX-Other: 2\r\n"
	    "Accept: */*\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n") > 0);
	CHECK_INT(r.nfields, 11);
	for (i = 0; i < r.nfields && i < 11; i++) {
		if (http_parse_hop_by_hop(&r, i) != drop[i])
			fprintf(stderr, "hop-by-hop field %zu\n", i);
		CHECK_INT(http_parse_hop_by_hop(&r, i), drop[i]);
	}
	CHECK(!r.close);

	CHECK(parse("GET http://a/ HTTP/1.1\r\nHost: a\r\nConnection: foo, Close\r\n\r\n") > 0);
	CHECK(r.close);
	CHECK(parse("GET http://a/ HTTP/1.1\r\nHost: a\r\nConnection: closed\r\n\r\n") > 0);
	CHECK(!r.close);
	CHECK(parse("GET http://a/ HTTP/1.0\r\n\r\n") > 0);
	CHECK(r.close);
	CHECK(parse("GET http://a/ HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") > 0);
	CHECK(!r.close);
	CHECK(http_parse_token_is("Chunked", 7, "chunked"));
	CHECK(!http_parse_token_is("chunke", 6, "chunked"));
}

int
main(void)
{
	test_connect();
	test_absolute();
	test_host_agrees();
	test_incremental();
	test_framing();
	test_lookalikes();
	test_syntax();
	test_nul();
	test_limits();
	test_origin_mode();
	test_connection();
	UNIT_DONE();
}
