/* Hosts-file text: the addresses of one name. Pure. */
#include <string.h>

#include "daemon/proxy/hosts.h"

static bool
space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

size_t
hosts_lookup(const char *text, size_t len, const struct host *name,
    struct host *out, size_t max)
{
	const char *p = text, *end = text + len, *eol, *tok, *why;
	struct host addr, h;
	size_t n = 0;
	bool first;

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		first = true;
		for (tok = p; tok < eol && *tok != '#';) {
			const char *t = tok;

			while (t < eol && !space(*t) && *t != '#')
				t++;
			if (t == tok) {
				tok++;
				continue;
			}
			if (first) {
				/* Not an address: the line says nothing. */
				if (host_canon(tok, (size_t)(t - tok), &addr,
				    &why) != 0 || addr.kind == HOST_NAME)
					break;
				first = false;
			} else if (host_canon(tok, (size_t)(t - tok), &h,
			    &why) == 0 && host_equal(&h, name)) {
				if (n < max)
					out[n] = addr;
				n++;
				break;
			}
			tok = t;
		}
		if (eol == end)
			break;
	}
	return n;
}
