/* Parses, canonicalises, matches and intersects domain rules. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/policy/domain.h"

static int
parse_port(const char *s, int *port, const char **why)
{
	long v = 0;

	if (*s == '\0') {
		*why = "empty port";
		return -EINVAL;
	}
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > 65535) {
			*why = "port must be a number from 1 to 65535";
			return -EINVAL;
		}
	}
	if (v == 0) {
		*why = "port must be a number from 1 to 65535";
		return -EINVAL;
	}
	*port = (int)v;
	return 0;
}

int
policy_domain_split(const char *text, bool bare_v6, char *host,
    size_t hostlen, int *port, const char **why)
{
	const char *colon = strchr(text, ':'), *end = NULL;
	size_t n;
	int p = 0;

	if (text[0] == '[') {
		if ((end = strchr(text, ']')) == NULL) {
			*why = "unterminated [IPv6] literal";
			return -EINVAL;
		}
		end++;
		if (*end != '\0' && *end != ':') {
			*why = "junk after ]";
			return -EINVAL;
		}
	} else if (colon != NULL && strchr(colon + 1, ':') != NULL) {
		if (!bare_v6) {
			*why = "an IPv6 address must be in brackets, "
			    "as in [::1] or [::1]:443";
			return -EINVAL;
		}
		end = text + strlen(text);
	} else {
		end = colon ? colon : text + strlen(text);
	}
	if (*end == ':' && parse_port(end + 1, &p, why) < 0)
		return -EINVAL;
	n = (size_t)(end - text);
	if (n == 0 || n >= hostlen) {
		*why = n ? "host name too long" : "empty host name";
		return -EINVAL;
	}
	memcpy(host, text, n);
	host[n] = '\0';
	*port = p;
	return 0;
}

static int
canon_v6(const char *in, size_t n, char *out, size_t outlen,
    const char **why)
{
	char buf[INET6_ADDRSTRLEN + 1];
	struct in6_addr a;

	if (n >= sizeof(buf) || (memcpy(buf, in, n), buf[n] = '\0',
	    inet_pton(AF_INET6, buf, &a) != 1) ||
	    inet_ntop(AF_INET6, &a, out, (socklen_t)outlen) == NULL) {
		*why = "invalid IPv6 address";
		return -EINVAL;
	}
	return 0;
}

/* WHATWG's rule: a name whose last label is numeric is an IPv4 address. */
static int
canon_v4(char *name, size_t outlen, const char **why)
{
	const char *last = strrchr(name, '.');
	struct in_addr a;
	unsigned char *b;

	last = last ? last + 1 : name;
	if (strspn(last, "0123456789") != strlen(last) &&
	    !(last[0] == '0' && last[1] == 'x' &&
	    strspn(last + 2, "0123456789abcdef") == strlen(last + 2)))
		return 0;
	if (inet_aton(name, &a) == 0) {
		*why = "numeric host name that is not an IPv4 address";
		return -EINVAL;
	}
	b = (unsigned char *)&a.s_addr;
	snprintf(name, outlen, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return 0;
}

int
policy_domain_canon_host(const char *in, char *out, size_t outlen,
    const char **why)
{
	size_t n = strlen(in), i, label = 0;
	unsigned char c;

	if (n > 0 && in[0] == '[') {
		if (in[n - 1] != ']') {
			*why = "unterminated [IPv6] literal";
			return -EINVAL;
		}
		return canon_v6(in + 1, n - 2, out, outlen, why);
	}
	if (strchr(in, ':') != NULL)
		return canon_v6(in, n, out, outlen, why);
	if (n > 0 && in[n - 1] == '.')
		n--;
	if (n == 0 || n > POLICY_HOST_MAX || n >= outlen) {
		*why = n ? "host name too long" : "empty host name";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		c = (unsigned char)in[i];
		if (c >= 0x80) {
			*why = "non-ASCII host name: write its xn-- form";
			return -EINVAL;
		}
		if (c == '.') {
			if (label == 0) {
				*why = "empty label in host name";
				return -EINVAL;
			}
			label = 0;
		} else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
			c |= 0x20;
			label++;
		} else if ((c >= '0' && c <= '9') || c == '-' || c == '_') {
			label++;
		} else {
			*why = "invalid character in host name";
			return -EINVAL;
		}
		if (label > 63) {
			*why = "label longer than 63 characters";
			return -EINVAL;
		}
		out[i] = (char)c;
	}
	if (label == 0) {
		*why = "empty label in host name";
		return -EINVAL;
	}
	out[n] = '\0';
	return canon_v4(out, outlen, why);
}

static bool
host_is_ip(const char *host)
{
	struct in_addr a;

	return strchr(host, ':') != NULL || inet_pton(AF_INET, host, &a) == 1;
}

static int
parse_name(const char *h, struct policy_domain *out, const char **why)
{
	if (h[0] == '\0' || h[0] == '.' || h[strlen(h) - 1] == '.') {
		*why = "a domain starts or ends with a dot";
		return -EINVAL;
	}
	if (policy_domain_canon_host(h, out->host, sizeof(out->host),
	    why) < 0)
		return -EINVAL;
	if (out->kind == POLICY_DOMAIN_SUBDOMAINS && host_is_ip(out->host)) {
		*why = "*. cannot be applied to an IP address";
		return -EINVAL;
	}
	if (out->kind == POLICY_DOMAIN_SUBDOMAINS &&
	    strchr(out->host, '.') == NULL) {
		*why = "too broad: *. needs at least two labels after it, "
		    "as in *.example.com";
		return -EINVAL;
	}
	if (strchr(out->host, '.') == NULL && strchr(out->host, ':') == NULL &&
	    strcmp(out->host, "localhost") != 0) {
		*why = "a domain needs at least one dot (or is localhost)";
		return -EINVAL;
	}
	return 0;
}

int
policy_domain_parse(const char *text, bool any_ok, struct policy_domain *out,
    const char **why)
{
	char h[POLICY_HOST_MAX + 8];
	int port;

	memset(out, 0, sizeof(*out));
	if (strstr(text, "://") != NULL) {
		*why = "a domain rule is a host name, not a URL";
		return -EINVAL;
	}
	if (policy_domain_split(text, false, h, sizeof(h), &port, why) < 0)
		return -EINVAL;
	out->port = port;
	if (strcmp(h, "*") == 0) {
		if (!any_ok) {
			*why = "a bare * is only accepted in deniedDomains";
			return -EINVAL;
		}
		out->kind = POLICY_DOMAIN_ANY;
		return 0;
	}
	if (strncmp(h, "*.", 2) == 0) {
		out->kind = POLICY_DOMAIN_SUBDOMAINS;
		memmove(h, h + 2, strlen(h + 2) + 1);
	}
	if (strchr(h, '*') != NULL) {
		*why = "a wildcard is only accepted as a leading *.";
		return -EINVAL;
	}
	return parse_name(h, out, why);
}

int
policy_domain_format(const struct policy_domain *d, char *buf, size_t len)
{
	const char *pre = "", *post = "";
	char port[8] = "";
	int n;

	if (d->kind == POLICY_DOMAIN_SUBDOMAINS)
		pre = "*.";
	else if (d->kind == POLICY_DOMAIN_ANY)
		pre = "*";
	else if (strchr(d->host, ':') != NULL) {
		pre = "[";
		post = "]";
	}
	if (d->port != 0)
		snprintf(port, sizeof(port), ":%d", d->port);
	n = snprintf(buf, len, "%s%s%s%s", pre, d->host, post, port);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

/* True if child is a strict subdomain of parent. */
static bool
host_under(const char *child, const char *parent)
{
	size_t c = strlen(child), p = strlen(parent);

	return c > p + 1 && child[c - p - 1] == '.' &&
	    strcmp(child + c - p, parent) == 0;
}

bool
policy_domain_match(const struct policy_domain *rule, const char *host,
    int port)
{
	if (rule->port != 0 && rule->port != port)
		return false;
	switch (rule->kind) {
	case POLICY_DOMAIN_ANY:
		return true;
	case POLICY_DOMAIN_SUBDOMAINS:
		return host_under(host, rule->host);
	case POLICY_DOMAIN_EXACT:
		return strcmp(host, rule->host) == 0;
	}
	return false;
}

/* Does every host that b matches also match a (ports aside)? */
static bool
host_within(const struct policy_domain *b, const struct policy_domain *a)
{
	if (a->kind == POLICY_DOMAIN_ANY)
		return true;
	if (b->kind == POLICY_DOMAIN_ANY)
		return false;
	if (a->kind == POLICY_DOMAIN_EXACT)
		return b->kind == POLICY_DOMAIN_EXACT &&
		    strcmp(a->host, b->host) == 0;
	return host_under(b->host, a->host) ||
	    (b->kind == POLICY_DOMAIN_SUBDOMAINS &&
	    strcmp(a->host, b->host) == 0);
}

bool
policy_domain_meet(const struct policy_domain *a,
    const struct policy_domain *b, struct policy_domain *out)
{
	int port = a->port ? a->port : b->port;

	if (a->port != 0 && b->port != 0 && a->port != b->port)
		return false;
	if (host_within(a, b))
		*out = *a;
	else if (host_within(b, a))
		*out = *b;
	else
		return false;
	out->port = port;
	return true;
}
