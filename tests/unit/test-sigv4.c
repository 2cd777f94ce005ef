/* Unit tests for SigV4 re-signing: the AWS test suite's get-vanilla, a query and the payload field, and what is refused. */
#include <errno.h>
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/sigv4.h"
#include "unit.h"

static char *
resign(const char *head, int body, int *r, const char **why)
{
	struct evbuffer *b = evbuffer_new();
	char *s;

	*r = sigv4_resign(head, strlen(head), body, "AKIDSENTINEL", "AKIDEXAMPLE",
	    "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", b, why);
	s = evbuffer_get_length(b) == 0 ? strdup("") :
	    strndup((char *)evbuffer_pullup(b, -1), evbuffer_get_length(b));
	evbuffer_free(b);
	return s;
}

static void
test_vanilla(void)
{
	const char *why = NULL;
	int r;
	/* The AWS SigV4 test suite's get-vanilla, signed with a sentinel. */
	char *s = resign("GET / HTTP/1.1\r\nHost: example.amazonaws.com\r\n"
	    "X-Amz-Date: 20150830T123600Z\r\nAuthorization: AWS4-HMAC-SHA256 "
	    "Credential=AKIDSENTINEL/20150830/us-east-1/service/aws4_request, "
	    "SignedHeaders=host;x-amz-date, Signature=00\r\nUser-Agent: t\r\n"
	    "\r\n", 0, &r, &why);

	CHECK_INT(r, 0);
	CHECK_STR(s, "GET / HTTP/1.1\r\nHost: example.amazonaws.com\r\n"
	    "X-Amz-Date: 20150830T123600Z\r\nAuthorization: AWS4-HMAC-SHA256 "
	    "Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
	    "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676"
	    "e86291e8372ff2a2260956d9b8aae1d763fbf31\r\nUser-Agent: t\r\n\r\n");
	free(s);
}

static void
test_refused(void)
{
	const char *why = NULL;
	char *s;
	int r;

	s = resign("GET /k?X-Amz-Signature=1 HTTP/1.1\r\nHost: a\r\n\r\n", 0,
	    &r, &why);
	CHECK_INT(r, -EPERM);
	CHECK(strstr(why, "presigned") != NULL);
	free(s);
	s = resign("PUT /k HTTP/1.1\r\nHost: a\r\nX-Amz-Date: 1\r\n"
	    "X-Amz-Content-Sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD\r\n"
	    "Authorization: AWS4-HMAC-SHA256 Credential=AKIDSENTINEL/d/r/s/"
	    "aws4_request, SignedHeaders=host, Signature=0\r\n\r\n", 1, &r,
	    &why);
	CHECK_INT(r, -EPERM);
	CHECK(strstr(why, "streaming") != NULL);
	free(s);
	s = resign("PUT /k HTTP/1.1\r\nHost: a\r\nX-Amz-Date: 1\r\n"
	    "Authorization: AWS4-HMAC-SHA256 Credential=AKIDSENTINEL/d/r/s/"
	    "aws4_request, SignedHeaders=host, Signature=0\r\n\r\n", 1, &r,
	    &why);
	CHECK_INT(r, -EPERM);
	CHECK(strstr(why, "x-amz-content-sha256") != NULL);
	free(s);
	/* Another key's signature passes as it is. */
	s = resign("GET / HTTP/1.1\r\nAuthorization: AWS4-HMAC-SHA256 "
	    "Credential=AKIDOTHER/d/r/s/aws4_request, SignedHeaders=host, "
	    "Signature=0\r\n\r\n", 0, &r, &why);
	CHECK_INT(r, 0);
	CHECK(strstr(s, "AKIDOTHER") != NULL && strstr(s, "Signature=0") != NULL);
	free(s);
}

int
main(void)
{
	test_vanilla();
	test_refused();
	UNIT_DONE();
}
