/* libFuzzer target for proxy/publish.c: no crash, and the canonical form parses to the same spec. */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/publish.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct publish_spec p, q;
	char buf[PUBLISH_TEXT_MAX + 8], text[PUBLISH_FORMAT_MAX];
	const char *why;

	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (publish_parse(buf, &p, &why) < 0) {
		if (why == NULL)
			abort();
		return 0;
	}
	if (p.host_port == 0 || p.sandbox_port == 0 ||
	    publish_format(&p, text, sizeof(text)) < 0 ||
	    publish_parse(text, &q, &why) < 0 ||
	    memcmp(&p, &q, sizeof(p)) != 0)
		abort();
	return 0;
}
