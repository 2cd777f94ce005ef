/* libFuzzer target for the request body rewriter: the input cut where its first bytes say gives the same bytes out as in one piece, with no sentinel left and nothing held at the end. */
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/cred-body.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* body through the rewriter in pieces of the lengths cuts gives (0:
 * one piece), into out. */
static void
pass(const struct cred_set *s, const struct host *h, const uint8_t *cuts,
    size_t ncuts, const char *body, size_t len, struct evbuffer *out)
{
	struct cred_body b = { .nhold = 0 };
	size_t k = 0, n, c = 0;

	do {
		n = ncuts ? (size_t)cuts[c++ % ncuts] % 16 : len;
		if (n == 0 && ncuts && c % ncuts == 0)
			n = 1;	/* a cycle of empty pieces moves on */
		if (n > len - k)
			n = len - k;
		if (cred_body_pass(s, h, 443, &b, body + k, n, k + n == len,
		    out) < 0)
			abort();
		k += n;
	} while (k < len);
	if (b.nhold != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char real[] = "tok_REAL123", sentinel[] = "tok_SENT456",
	    id[] = "t", header[] = "Authorization", format[] = "{}";
	static struct netrule rule;
	static struct cred c;
	static struct cred_set s = { &c, 1, 11 };
	struct evbuffer *one, *cut;
	const char *why;
	struct host h;
	size_t ncuts;

	if (c.real == NULL) {
		netrule_parse("api.test", 8, &rule, &why);
		c = (struct cred){ .id = id, .real = real, .sentinel = sentinel,
		    .len = 11, .hosts = &rule, .nhosts = 1, .header = header,
		    .format = format, .body = true };
	}
	if (size < 1)
		return 0;
	ncuts = data[0] % 8 + 1;
	if (size < 1 + ncuts)
		return 0;
	host_canon("api.test", 8, &h, &why);
	one = evbuffer_new();
	cut = evbuffer_new();
	if (one == NULL || cut == NULL)
		abort();
	pass(&s, &h, NULL, 0, (const char *)data + 1 + ncuts,
	    size - 1 - ncuts, one);
	pass(&s, &h, data + 1, ncuts, (const char *)data + 1 + ncuts,
	    size - 1 - ncuts, cut);
	if (evbuffer_get_length(one) != size - 1 - ncuts ||
	    evbuffer_get_length(cut) != evbuffer_get_length(one))
		abort();
	if (evbuffer_get_length(one) > 0 && (memcmp(evbuffer_pullup(one, -1),
	    evbuffer_pullup(cut, -1), evbuffer_get_length(one)) != 0 ||
	    memmem(evbuffer_pullup(one, -1), evbuffer_get_length(one),
	    sentinel, 11) != NULL))
		abort();
	evbuffer_free(one);
	evbuffer_free(cut);
	return 0;
}
