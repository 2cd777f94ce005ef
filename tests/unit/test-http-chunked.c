/* Unit tests for http-chunked.c: framing found at any split, every rejection. */
#include <errno.h>

#include "chunked-drive.h"
#include "unit.h"

static const char *why;

static int
feed(const char *s, size_t len, size_t step, size_t *fwd)
{
	*fwd = 0;
	return chunked_drive(s, len, step, fwd, &why);
}

/* Same verdict and the same forwarded length at every split size. */
static int
feed_all_steps(const char *s, size_t *fwd)
{
	size_t len = strlen(s), step, f0 = 0, f;
	int r0 = feed(s, len, len, &f0), r;

	for (step = 1; step < len; step++) {
		r = feed(s, len, step, &f);
		if (r != r0 || (r0 == 1 && f != f0))
			fprintf(stderr, "split %zu differs: %s\n", step, s);
		CHECK_INT(r, r0);
		if (r0 == 1)
			CHECK_INT(f, f0);
	}
	*fwd = f0;
	return r0;
}

#define GOOD(body, next)                                                     \
	do {                                                                 \
		size_t f_;                                                   \
		CHECK_INT(feed_all_steps(body next, &f_), 1);                \
		CHECK_INT(f_, strlen(body));                                 \
	} while (0)

#define BAD(body, err, reason)                                               \
	do {                                                                 \
		size_t f_;                                                   \
		CHECK_INT(feed_all_steps(body, &f_), err);                   \
		CHECK(why != NULL && strstr(why, reason) != NULL);           \
	} while (0)

static void
test_good(void)
{
	GOOD("0\r\n\r\n", "");
	GOOD("5\r\nhello\r\n0\r\n\r\n", "GET / HTTP/1.1\r\n");
	GOOD("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "x");
	GOOD("A\r\n0123456789\r\n0\r\n\r\n", "");
	GOOD("a\r\n0123456789\r\n000\r\n\r\n", "");
	GOOD("00000000000000000000005\r\nhello\r\n0\r\n\r\n", "");
	GOOD("5;name=value\r\nhello\r\n0;last\r\n\r\n", "");
	GOOD("5 ; a = \"q\\\"x;\" ;b\t;c=d\r\nhello\r\n0\r\n\r\n", "");
	GOOD("2\r\n\r\n\r\n0\r\n\r\n", "");	/* data may hold CRLF */
	GOOD("0\r\nX-Sum: abc\r\nX-Other:  v \r\n\r\n", "5\r\n");
}

static void
test_bad(void)
{
	BAD("\r\n", -EBADMSG, "not hexadecimal");
	BAD("g\r\n", -EBADMSG, "not hexadecimal");
	BAD("-1\r\n", -EBADMSG, "not hexadecimal");
	BAD("+1\r\n", -EBADMSG, "not hexadecimal");
	BAD(" 5\r\n", -EBADMSG, "not hexadecimal");
	BAD("0x5\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5 \r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;=x\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a=\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a=b c\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a=\"open\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a=\"x\\\"\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a=\"x\x01\"\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;\"a\"\r\n", -EBADMSG, "malformed chunk extension");
	BAD("5;a@b\r\n", -EBADMSG, "malformed chunk extension");
	BAD("10000000000000000\r\n", -EBADMSG, "too large");
	BAD("FFFFFFFFFFFFFFFF\r\n", -EBADMSG, "too large");
	BAD("5\nhello\r\n0\r\n\r\n", -EBADMSG, "bare LF");
	BAD("5\rhello\r\n0\r\n\r\n", -EBADMSG, "bare CR");
	BAD("5;a=\"\n\"\r\n", -EBADMSG, "bare LF");
	BAD("5\r\nhelloX\r\n0\r\n\r\n", -EBADMSG, "not followed by CRLF");
	BAD("5\r\nhello\n0\r\n\r\n", -EBADMSG, "not followed by CRLF");
	BAD("5\r\nhello\r0\r\n\r\n", -EBADMSG, "not followed by CRLF");
	BAD("5\r\nhello world\r\n0\r\n\r\n", -EBADMSG, "not followed by CRLF");
	BAD("0\r\nContent-Length: 5\r\n\r\n", -EBADMSG, "framing or routing");
	BAD("0\r\ntransfer-encoding: chunked\r\n\r\n", -EBADMSG, "framing");
	BAD("0\r\nHost: evil\r\n\r\n", -EBADMSG, "framing or routing");
	BAD("0\r\nX: a\r\n b\r\n\r\n", -EBADMSG, "obsolete line folding");
	BAD("0\r\nNoColon\r\n\r\n", -EBADMSG, "invalid field name");
	BAD("0\r\nX : v\r\n\r\n", -EBADMSG, "whitespace before ':'");
	BAD("0\r\nX: a\x01\r\n\r\n", -EBADMSG, "invalid byte");
	BAD("0\r\nX: a\n\r\n", -EBADMSG, "bare LF");
}

static void
test_nul_and_partial(void)
{
	struct http_chunked c;
	size_t used = 99;

	http_chunked_init(&c);
	CHECK_INT(http_chunked_feed(&c, "5\0\r\n", 4, &used, &why), -EBADMSG);
	CHECK_STR(why, "NUL byte in chunked framing");
	CHECK_INT(used, 99);

	/* A size line is forwarded only once complete; data as it comes. */
	http_chunked_init(&c);
	CHECK_INT(http_chunked_feed(&c, "", 0, &used, &why), 0);
	CHECK_INT(used, 0);
	CHECK_INT(http_chunked_feed(&c, "1", 1, &used, &why), 0);
	CHECK_INT(used, 0);
	CHECK_INT(http_chunked_feed(&c, "1a\r", 3, &used, &why), 0);
	CHECK_INT(used, 0);
	CHECK_INT(http_chunked_feed(&c, "1a\r\nabc", 7, &used, &why), 0);
	CHECK_INT(used, 7);
	CHECK_INT(c.remaining, 23);
	CHECK_INT(c.data, 3);
	CHECK_INT(http_chunked_feed(&c, "01234567890123456789012\r", 24, &used,
	    &why), 0);
	CHECK_INT(used, 24);
	CHECK_INT(http_chunked_feed(&c, "\n0\r\n\r\nrest", 10, &used, &why), 1);
	CHECK_INT(used, 6);
	CHECK_INT(c.data, 26);
	/* Chunk data is sized, not parsed: it may hold NUL. */
	http_chunked_init(&c);
	CHECK_INT(http_chunked_feed(&c, "1\r\n\0\r\n0\r\n\r\n", 11, &used,
	    &why), 1);
	CHECK_INT(used, 11);
	/* Once done, nothing more is taken. */
	CHECK_INT(http_chunked_feed(&c, "rest", 4, &used, &why), 1);
	CHECK_INT(used, 0);
}

static void
test_limits(void)
{
	static char buf[HTTP_TRAILER_MAX + 4096];
	size_t n, i, f;

	/* Size line: 4096 bytes with its CRLF fine, one more too long. */
	memset(buf, '0', HTTP_CHUNK_LINE_MAX - 2);
	strcpy(buf + HTTP_CHUNK_LINE_MAX - 2, "\r\n\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), 1);
	CHECK_INT(f, HTTP_CHUNK_LINE_MAX + 2);
	memset(buf, '0', HTTP_CHUNK_LINE_MAX - 1);
	strcpy(buf + HTTP_CHUNK_LINE_MAX - 1, "\r\n\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), -EMSGSIZE);
	CHECK_INT(feed(buf, strlen(buf), 7, &f), -EMSGSIZE);
	CHECK_INT(feed(buf, strlen(buf), 1, &f), -EMSGSIZE);

	/* 100 trailer fields fine, 101 not. */
	n = (size_t)sprintf(buf, "0\r\n");
	for (i = 0; i < HTTP_TRAILERS_MAX; i++)
		n += (size_t)sprintf(buf + n, "T%zu: v\r\n", i);
	strcpy(buf + n, "\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), 1);
	strcpy(buf + n, "X: y\r\n\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), -EMSGSIZE);
	CHECK_STR(why, "more than 100 trailer fields");

	/* Trailers: 16 KiB in all, the final CRLF included. */
	n = (size_t)sprintf(buf, "0\r\nX: ");
	memset(buf + n, 'v', HTTP_TRAILER_MAX - 7);
	strcpy(buf + n + HTTP_TRAILER_MAX - 7, "\r\n\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), 1);
	CHECK_INT(f, 3 + HTTP_TRAILER_MAX);
	memset(buf + n, 'v', HTTP_TRAILER_MAX - 6);
	strcpy(buf + n + HTTP_TRAILER_MAX - 6, "\r\n\r\n");
	CHECK_INT(feed(buf, strlen(buf), strlen(buf), &f), -EMSGSIZE);
	CHECK_INT(feed(buf, strlen(buf), 1000, &f), -EMSGSIZE);
}

int
main(void)
{
	test_good();
	test_bad();
	test_nul_and_partial();
	test_limits();
	UNIT_DONE();
}
