/* libFuzzer target for SigV4 re-signing: any head; a re-signed one keeps everything but its Authorization, and never names the sentinel key id again. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/sigv4.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evbuffer *b = evbuffer_new();
	const char *why = NULL;
	int r;

	if (b == NULL)
		return 0;
	r = sigv4_resign((const char *)data, size, size & 1, "AKIDSENT",
	    "AKIDREAL", "secret", b, &why);
	if (r == -EPERM && why == NULL)
		abort();
	if (r == 0 && evbuffer_get_length(b) > 0 &&
	    memmem(evbuffer_pullup(b, -1), evbuffer_get_length(b),
	    "Credential=AKIDSENT/", 20) != NULL &&
	    memmem(data, size, "Credential=AKIDSENT/", 20) == NULL)
		abort();
	evbuffer_free(b);
	return 0;
}
