/* Published ports: the "[ADDR:]HOSTPORT[:SANDBOXPORT]" spec (docker's -p), parsed and printed. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "daemon/proxy/publish.h"

/* "1".."65535", digits only, no leading zero (nothing docker would read
 * differently). */
static int
port(const char *s, size_t len, uint16_t *out)
{
	unsigned v = 0;
	size_t i;

	if (len == 0 || len > 5 || (s[0] == '0'))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}

static int
address(const char *s, size_t len, struct publish_spec *p, const char **why)
{
	char buf[INET6_ADDRSTRLEN + 1];
	bool v6 = len >= 2 && s[0] == '[' && s[len - 1] == ']';

	if (v6) {
		s++;
		len -= 2;
	}
	if (len == 0 || len >= sizeof(buf)) {
		*why = "not an address";
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!v6 && strcmp(buf, "localhost") == 0)
		strcpy(buf, "127.0.0.1");
	p->family = v6 ? AF_INET6 : AF_INET;
	memset(p->addr, 0, sizeof(p->addr));
	if (inet_pton(p->family, buf, p->addr) != 1) {
		*why = v6 ? "not an IPv6 address" : strchr(buf, ':') ?
		    "an IPv6 address goes in brackets: [::1]:8080" :
		    "not an IPv4 address (or [IPv6], or localhost)";
		return -EINVAL;
	}
	return 0;
}

int
publish_parse(const char *text, struct publish_spec *out, const char **why)
{
	struct publish_spec p = { .family = AF_INET };
	const char *s = text, *c1, *c2, *end;
	size_t len;

	*why = NULL;
	len = strnlen(text, PUBLISH_TEXT_MAX + 1);
	if (len > PUBLISH_TEXT_MAX) {
		*why = "too long";
		return -EINVAL;
	}
	end = text + len;
	if (len > 4 && strcmp(end - 4, "/tcp") == 0)
		end -= 4;
	else if (memchr(text, '/', len)) {
		*why = "only TCP ports are published (\"/tcp\" or nothing)";
		return -EINVAL;
	}
	p.addr[0] = 127;
	p.addr[3] = 1;
	/* The address, if any, ends at the last ':' before the ports; a
	 * bracketed one holds colons of its own. */
	if (s < end && *s == '[') {
		const char *rb = memchr(s, ']', (size_t)(end - s));

		if (rb == NULL || rb + 1 >= end || rb[1] != ':') {
			*why = "an IPv6 address in brackets needs :HOSTPORT "
			    "after it";
			return -EINVAL;
		}
		if (address(s, (size_t)(rb + 1 - s), &p, why) < 0)
			return -EINVAL;
		s = rb + 2;
		c1 = memchr(s, ':', (size_t)(end - s));
		c2 = NULL;
		goto ports;
	}
	c1 = memchr(s, ':', (size_t)(end - s));
	c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
	if (c2 && memchr(c2 + 1, ':', (size_t)(end - c2 - 1))) {
		*why = "too many ':' (an IPv6 address goes in brackets)";
		return -EINVAL;
	}
	/* Two parts are ADDR:HOSTPORT when the first is no port. */
	if (c2 || (c1 && port(s, (size_t)(c1 - s), &p.host_port) < 0)) {
		if (address(s, (size_t)(c1 - s), &p, why) < 0)
			return -EINVAL;
		s = c1 + 1;
		c1 = c2;
	}
ports:
	if (port(s, (size_t)((c1 ? c1 : end) - s), &p.host_port) < 0) {
		*why = c1 == s || s == end ? "no host port (the kernel does "
		    "not pick one: name it)" : "not a port (1-65535)";
		return -EINVAL;
	}
	p.sandbox_port = p.host_port;
	if (c1 && port(c1 + 1, (size_t)(end - c1 - 1), &p.sandbox_port) < 0) {
		*why = "not a sandbox port (1-65535)";
		return -EINVAL;
	}
	*out = p;
	return 0;
}

int
publish_format(const struct publish_spec *p, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	int n;

	if (inet_ntop(p->family, p->addr, a, sizeof(a)) == NULL)
		return -EINVAL;
	n = snprintf(buf, len, p->family == AF_INET6 ? "[%s]:%u:%u" :
	    "%s:%u:%u", a, p->host_port, p->sandbox_port);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
