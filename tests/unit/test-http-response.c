/* Unit tests for http-response.c: framing of response heads at any split. */
#include <errno.h>

#include "daemon/proxy/http-response.h"
#include "unit.h"

/* Parses s fed one byte more at a time; the result must not depend on it. */
static int
parse(const char *s, bool head, struct http_resp *out)
{
	size_t len = strlen(s), i;
	int r = 0, whole;

	http_response_init(out);
	for (i = 1; i <= len; i++) {
		r = http_response_parse(out, s, i, head);
		if (r != 0)
			break;
	}
	whole = r;
	http_response_init(out);
	r = http_response_parse(out, s, len, head);
	if (r != whole)
		fprintf(stderr, "split parse differs: %d vs %d: %s\n", whole,
		    r, s);
	CHECK_INT(r, whole);
	return r;
}

static void
test_framing(void)
{
	struct http_resp r;
	const char *s;

	s = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
	CHECK_INT(parse(s, false, &r), (int)strlen(s) - 5);
	CHECK_INT(r.status, 200);
	CHECK_INT(r.body, HTTP_RESP_LENGTH);
	CHECK_INT(r.content_length, 5);
	CHECK(!r.close);

	CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
	    false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_CHUNKED);
	CHECK(!r.close);

	/* Both: chunked wins, the connection is not reused. */
	CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
	    "Transfer-Encoding: gzip, chunked\r\n\r\n", false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_CHUNKED);
	CHECK(r.close);

	/* Not chunked last: read until close. */
	CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n"
	    "\r\n", false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_EOF);
	CHECK(r.close);

	CHECK(parse("HTTP/1.1 200 OK\r\n\r\n", false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_EOF);
	CHECK(r.close);

	CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", true,
	    &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_NONE);

	CHECK(parse("HTTP/1.1 204 No Content\r\n\r\n", false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_NONE);
	CHECK(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 7\r\n\r\n",
	    false, &r) > 0);
	CHECK_INT(r.body, HTTP_RESP_NONE);

	CHECK(parse("HTTP/1.1 100 Continue\r\n\r\n", false, &r) > 0);
	CHECK(http_response_interim(&r));
	CHECK_INT(r.body, HTTP_RESP_NONE);

	CHECK(parse("HTTP/1.1 101 Switching Protocols\r\n\r\n", false,
	    &r) > 0);
	CHECK(!http_response_interim(&r));
	CHECK_INT(r.body, HTTP_RESP_EOF);

	/* A reason phrase is optional. */
	CHECK(parse("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", false, &r) > 0);
	CHECK_INT(r.status, 200);
	CHECK(parse("HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n", false,
	    &r) > 0);
	CHECK_INT(r.status, 404);
}

static void
test_persistence(void)
{
	struct http_resp r;

	CHECK(parse("HTTP/1.1 200 OK\r\nConnection: close\r\n"
	    "Content-Length: 0\r\n\r\n", false, &r) > 0);
	CHECK(r.close);
	CHECK(parse("HTTP/1.1 200 OK\r\nConnection: foo, Close\r\n"
	    "Content-Length: 0\r\n\r\n", false, &r) > 0);
	CHECK(r.close);
	CHECK(parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false,
	    &r) > 0);
	CHECK(r.close);
	CHECK(parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n"
	    "Content-Length: 0\r\n\r\n", false, &r) > 0);
	CHECK(!r.close);
	CHECK_INT(r.minor, 0);
}

static void
test_refused(void)
{
	struct http_resp r;
	char big[HTTP_HEAD_MAX + 64];

	CHECK_INT(parse("HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", false,
	    &r), -EBADMSG);
	CHECK_INT(parse("HTTP/2 200\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 20 OK\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 2000 OK\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 099 OK\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("ICY 200 OK\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n"
	    "Content-Length: 2\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", false,
	    &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\n",
	    false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 200 OK\r\nContent-Length: "
	    "99999999999999999999999\r\n\r\n", false, &r), -EBADMSG);
	CHECK_INT(parse("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", false, &r),
	    -EBADMSG);
	CHECK(r.why != NULL);
	/* Same Content-Length twice is one length. */
	CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
	    "Content-Length: 2\r\n\r\n", false, &r) > 0);
	CHECK_INT(r.content_length, 2);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "HTTP/1.1 200 OK\r\nX: ", 20);
	CHECK_INT(parse(big, false, &r), -EMSGSIZE);
}

int
main(void)
{
	test_framing();
	test_persistence();
	test_refused();
	UNIT_DONE();
}
