/* Unit tests for the request body rewriter: a body credential's sentinel becomes its value, split however the body comes; other credentials and other hosts are left alone. */
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/cred-body.h"
#include "host-unit.h"
#include "unit.h"

static char id0[] = "b", id1[] = "h", real0[] = "tok_REAL12", sent0[] =
    "tok_SENT34", real1[] = "hdr_REAL56", sent1[] = "hdr_SENT78",
    header[] = "Authorization", format[] = "{}";
static struct netrule rule;
static struct cred v[2];
static struct cred_set set = { v, 2, 10 };

static void
setup(void)
{
	const char *why;

	CHECK_INT(netrule_parse("api.test", 8, &rule, &why), 0);
	v[0] = (struct cred){ .id = id0, .real = real0, .sentinel = sent0,
	    .len = 10, .hosts = &rule, .nhosts = 1, .header = header,
	    .format = format, .body = true };
	v[1] = (struct cred){ .id = id1, .real = real1, .sentinel = sent1,
	    .len = 10, .hosts = &rule, .nhosts = 1, .header = header,
	    .format = format };
}

/* in passed in pieces of step bytes (the last with end) towards host:
 * what went out. */
static char *
run(const char *host, const char *in, size_t step)
{
	struct cred_body b = { .nhold = 0 };
	struct host h = H(host);
	struct evbuffer *out = evbuffer_new();
	size_t len = strlen(in), k, n;
	char *s;

	CHECK(out != NULL);
	for (k = 0; k < len || k == 0; k += n) {
		n = len - k < step ? len - k : step;
		CHECK_INT(cred_body_pass(&set, &h, 443, &b, in + k, n,
		    k + n == len, out), 0);
		if (len == 0)
			break;
	}
	CHECK(b.nhold == 0);
	n = evbuffer_get_length(out);
	s = calloc(1, n + 1);
	CHECK(s != NULL);
	evbuffer_remove(out, s, n);
	evbuffer_free(out);
	return s;
}

static void
test_rewrite(void)
{
	static const char in[] = "a=tok_SENT34&b=hdr_SENT78&c=tok_SENT34tok_"
	    "SENT34&d=tok_SENT3&e=tok_";
	static const char want[] = "a=tok_REAL12&b=hdr_SENT78&c=tok_REAL12tok_"
	    "REAL12&d=tok_SENT3&e=tok_";
	size_t step;
	char *s;
	struct host h = H("api.test"), o = H("other.test");

	CHECK(cred_body_for(&set, &h, 443));
	CHECK(!cred_body_for(&set, &o, 443));
	/* Every way of cutting it gives the same bytes out. */
	for (step = 1; step <= sizeof(in); step++) {
		s = run("api.test", in, step);
		CHECK_STR(s, want);
		free(s);
	}
	s = run("other.test", in, 7);
	CHECK_STR(s, in);
	free(s);
	s = run("api.test", "", 1);
	CHECK_STR(s, "");
	free(s);
}

/* A held tail that never became a sentinel goes out at the body's end;
 * a value just put in is not taken for the start of a sentinel. */
static void
test_hold(void)
{
	struct cred_body b = { .nhold = 0 };
	struct host h = H("api.test");
	struct evbuffer *out = evbuffer_new();

	CHECK_INT(cred_body_pass(&set, &h, 443, &b, "x=tok_SE", 8, false,
	    out), 0);
	CHECK_INT((int)evbuffer_get_length(out), 2);
	CHECK_INT((int)b.nhold, 6);
	CHECK_INT(cred_body_pass(&set, &h, 443, &b, "NT", 2, true, out), 0);
	CHECK_INT((int)evbuffer_get_length(out), 10);
	CHECK(memcmp(evbuffer_pullup(out, -1), "x=tok_SENT", 10) == 0);
	CHECK_INT((int)b.nhold, 0);
	evbuffer_drain(out, 10);
	CHECK_INT(cred_body_pass(&set, &h, 443, &b, "tok_SENT34", 10, false,
	    out), 0);
	CHECK_INT((int)b.nhold, 0);
	CHECK_INT((int)evbuffer_get_length(out), 10);
	evbuffer_free(out);
}

int
main(void)
{
	setup();
	test_rewrite();
	test_hold();
	UNIT_DONE();
}
