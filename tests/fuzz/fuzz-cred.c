/* libFuzzer target for the credential rewrites: a request head and a response through a fixed set; the real value never survives redaction, a rewritten head has no sentinel left, and a response cut in two with its held bytes let go (the upstream quiet) carries the sentinel wherever the value was. */
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/cred.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as two reads, cut at its first byte's value, each one's held
 * bytes let go as if the upstream went quiet, then the end. */
static void
two_reads(const struct cred_set *s, const uint8_t *data, size_t size)
{
	const struct cred *c = &s->v[0];
	struct cred_tail t = { .n = 0 };
	size_t cut, hold, k;
	char *buf;
	const char *p;

	if (size < 1 || (buf = malloc(size)) == NULL)
		return;
	memcpy(buf, data, size);
	cut = data[0] % size;
	hold = cred_set_redact(s, buf, cut);
	cred_set_release(s, buf + cut - hold, hold, &t);
	if (!cred_set_continue(s, &t, buf + cut, size - cut)) {
		hold = cred_set_redact(s, buf + cut, size - cut);
		cred_set_release(s, buf + size - hold, hold, &t);
	}
	for (p = (const char *)data; (p = memmem(p, size - (size_t)(p -
	    (const char *)data), c->real, c->len)) != NULL; p++) {
		k = (size_t)(p - (const char *)data);
		if (memcmp(buf + k, c->sentinel, c->len) != 0)
			abort();
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char real[] = "tok_REAL123", sentinel[] = "tok_SENT456",
	    id[] = "t", header[] = "Authorization", format[] = "Bearer {}";
	static struct netrule rule;
	static struct cred c;
	static struct cred_set s = { &c, 1, 11 };
	struct evbuffer *b;
	const char *why;
	struct host h;
	char *buf;
	size_t hold;

	if (c.real == NULL) {
		netrule_parse("api.test", 8, &rule, &why);
		c = (struct cred){ .id = id, .real = real,
		    .sentinel = sentinel, .len = 11, .hosts = &rule,
		    .nhosts = 1, .header = header, .format = format };
	}
	host_canon("api.test", 8, &h, &why);
	if ((buf = malloc(size + 1)) == NULL || (b = evbuffer_new()) == NULL) {
		free(buf);
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (size >= 2 && cred_set_head(&s, buf, size, &h, 443, b) == 0 &&
	    memmem(evbuffer_pullup(b, -1), evbuffer_get_length(b), sentinel,
	    11) != NULL)
		abort();
	hold = cred_set_redact(&s, buf, size);
	if (hold > 10 || memmem(buf, size, real, 11) != NULL)
		abort();
	evbuffer_free(b);
	free(buf);
	two_reads(&s, data, size);
	return 0;
}
