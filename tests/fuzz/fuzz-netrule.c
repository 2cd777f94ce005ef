/* libFuzzer target for netrule.c: input is "host:port\nrule\nrule...". */
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/netrule.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RULES 64

/* A compiled rule must format to text that compiles to the same rule. */
static void
check_roundtrip(const struct netrule *r)
{
	struct netrule again;
	const char *why;
	char buf[HOST_TEXT_MAX + 16];
	int n;

	n = netrule_format(r, buf, sizeof(buf));
	if (n < 0 || netrule_parse(buf, (size_t)n, &again, &why) != 0 ||
	    again.wildcard != r->wildcard || again.port != r->port ||
	    !host_equal(&again.host, &r->host))
		abort();
}

/* decide() must equal "first deny match, else first allow match". */
static void
check_decide(const struct netrule_list *l, const struct host *h,
    uint16_t port)
{
	size_t i, idx = (size_t)-1, first = (size_t)-1;
	enum netrule_verdict v;

	for (i = 0; i < l->n && first == (size_t)-1; i++)
		if (netrule_match(&l->rule[i], h, port))
			first = i;
	v = netrule_decide(l, l, h, port, &idx);
	if (v != (first == (size_t)-1 ? NETRULE_UNKNOWN : NETRULE_DENY) ||
	    idx != first)
		abort();
	v = netrule_decide(NULL, l, h, port, &idx);
	if (first != (size_t)-1 && (v != NETRULE_ALLOW || idx != first))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size, *nl, *why;
	char *src[MAX_RULES];
	struct netrule_list *list;
	struct netrule r;
	struct host h;
	uint16_t port;
	size_t n = 0, i, bad, len;
	int dest;

	nl = memchr(s, '\n', size);
	len = nl ? (size_t)(nl - s) : size;
	dest = host_parse_hostport(s, len, &h, &port, &why) == 0;
	s += nl ? len + 1 : len;
	while (s < end && n < MAX_RULES) {
		nl = memchr(s, '\n', (size_t)(end - s));
		len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (netrule_parse(s, len, &r, &why) == 0) {
			check_roundtrip(&r);
			if (dest && r.wildcard && netrule_match(&r, &h, port) &&
			    (h.len <= r.host.len ||
			    h.text[h.len - r.host.len - 1] != '.'))
				abort();
		}
		if ((src[n] = strndup(s, len)) == NULL)
			break;
		n++;
		s += len + (nl != NULL);
	}
	if (netrule_compile((const char *const *)src, n, &list, &bad,
	    &why) == 0) {
		if (dest)
			check_decide(list, &h, port);
		netrule_free(list);
	} else if (bad >= n || why == NULL)
		abort();
	for (i = 0; i < n; i++)
		free(src[i]);
	return 0;
}
