/* libFuzzer target for upstream-parse.c: input is "URL\nNOPROXY\nhost:port\nREPLY". */
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/upstream-parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of s[0..*len), advancing past it. */
static const char *
line(const char **s, const char *end, size_t *len)
{
	const char *start = *s, *nl = memchr(start, '\n', (size_t)(end -
	    start));

	*len = nl ? (size_t)(nl - start) : (size_t)(end - start);
	*s = nl ? nl + 1 : end;
	return start;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size, *p, *why;
	struct upstream_url u;
	struct noproxy *np = NULL;
	struct host h;
	char buf[UPSTREAM_AUTH_MAX + 600];
	unsigned status;
	uint16_t port;
	size_t len;
	int n;

	p = line(&s, end, &len);
	if (upstream_url_parse(p, len, &u, &why) == 0) {
		/* The auth value never ends a line of the CONNECT request. */
		if (strpbrk(u.auth, "\r\n") != NULL || u.port == 0)
			abort();
		if (upstream_url_format(&u, buf, sizeof(buf)) < 0 ||
		    strchr(buf, '@') != NULL)
			abort();
	} else if (why == NULL) {
		abort();
	}
	p = line(&s, end, &len);
	if (noproxy_parse(p, len, &np, &why) < 0)
		np = NULL;
	p = line(&s, end, &len);
	if (host_parse_hostport(p, len, &h, &port, &why) == 0) {
		(void)noproxy_match(np, &h, port);
		n = upstream_connect_request(&h, port ? port : 1, "Basic eA==",
		    buf, sizeof(buf));
		if (n < 0 || (size_t)n != strlen(buf) ||
		    strstr(buf, "\r\n\r\n") != buf + n - 4)
			abort();
	}
	noproxy_free(np);
	n = upstream_connect_reply(s, (size_t)(end - s), &status, &why);
	if (n > 0 && (status < 100 || status > 599 || (size_t)n > (size_t)(end -
	    s)))
		abort();
	return 0;
}
