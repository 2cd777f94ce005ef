/* libFuzzer target for the credential rewrites: a request head and a response through a fixed set; the real value never survives redaction, a rewritten head has no sentinel left. */
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/cred.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	return 0;
}
