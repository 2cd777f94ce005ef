/* libFuzzer target for http-response.c: byte-at-a-time and whole parses agree. */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/http-response.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;
	struct http_resp a, b;
	bool head;
	size_t i;
	int ra, rb = 0;

	if (size == 0)
		return 0;
	head = data[0] & 1;
	size--;
	http_response_init(&a);
	ra = http_response_parse(&a, s, size, head);
	if (ra > (int)size || (ra < 0 && a.why == NULL))
		abort();
	http_response_init(&b);
	for (i = 0; i <= size && rb == 0; i++)
		rb = http_response_parse(&b, s, i, head);
	if (ra != rb)
		abort();
	if (ra > 0 && (a.status != b.status || a.body != b.body ||
	    a.close != b.close || a.content_length != b.content_length ||
	    a.status < 100 || a.status > 999))
		abort();
	return 0;
}
