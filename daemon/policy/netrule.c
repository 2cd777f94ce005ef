/* Network rules: compiling allowedDomains/deniedDomains entries and deciding a destination against them. */

/*
 * A rule is compiled with the same proxy/host.c code that canonicalises the
 * destination, so "Example.COM." in a policy and "example.com" on the
 * wire, or "2130706433" and "127.0.0.1", are the same thing. Rules never
 * resolve names: "localhost" matches the name localhost, not 127.0.0.1;
 * what an allowed name resolves to is judged separately (proxy/addr-class.c).
 * A bad rule is an error at compile time with a reason, never skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/netrule.h"

static bool
has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return true;
	return false;
}

int
netrule_parse(const char *s, size_t len, struct netrule *out,
    const char **why)
{
	struct netrule r;

	memset(&r, 0, sizeof(r));
	if (len == 1 && s[0] == '*') {
		*why = "a bare '*' is not a rule: set the policy's unknownHosts";
		return -EINVAL;
	}
	if (has(s, len, "://")) {
		*why = "a rule is host[:port], not a URL";
		return -EINVAL;
	}
	if (memchr(s, '/', len) != NULL) {
		*why = "'/' in rule: paths and CIDR ranges are not supported";
		return -EINVAL;
	}
	if (len >= 2 && s[0] == '*' && s[1] == '.') {
		r.wildcard = true;
		s += 2;
		len -= 2;
	}
	if (memchr(s, '*', len) != NULL) {
		*why = "'*' is only allowed as the whole first label (*.example.com)";
		return -EINVAL;
	}
	if (host_parse_hostport(s, len, &r.host, &r.port, why) < 0)
		return -EINVAL;
	if (r.wildcard && r.host.kind != HOST_NAME) {
		*why = "'*.' needs a domain name after it, not an address";
		return -EINVAL;
	}
	*out = r;
	return 0;
}

int
netrule_compile(const char *const *src, size_t n, struct netrule_list **out,
    size_t *bad, const char **why)
{
	struct netrule_list *list;
	size_t i;

	if (n > (SIZE_MAX - sizeof(*list)) / sizeof(list->rule[0]))
		return -ENOMEM;
	list = calloc(1, sizeof(*list) + n * sizeof(list->rule[0]));
	if (list == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (netrule_parse(src[i], strlen(src[i]), &list->rule[i],
		    why) < 0) {
			free(list);
			*bad = i;
			return -EINVAL;
		}
	}
	list->n = n;
	*out = list;
	return 0;
}

void
netrule_free(struct netrule_list *list)
{
	free(list);
}

bool
netrule_match(const struct netrule *r, const struct host *h, uint16_t port)
{
	const struct host *suffix = &r->host;

	if (r->port != 0 && r->port != port)
		return false;
	if (!r->wildcard)
		return host_equal(suffix, h);
	/* Subdomains only: at least one label, then '.', then the suffix. */
	if (h->kind != HOST_NAME || h->len < suffix->len + 2)
		return false;
	return h->text[h->len - suffix->len - 1] == '.' &&
	    memcmp(h->text + h->len - suffix->len, suffix->text,
	    suffix->len) == 0;
}

int
netrule_find(const struct netrule_list *list, const struct host *h,
    uint16_t port)
{
	size_t i;

	if (list == NULL)
		return -ENOENT;
	for (i = 0; i < list->n && i <= INT32_MAX; i++)
		if (netrule_match(&list->rule[i], h, port))
			return (int)i;
	return -ENOENT;
}

enum netrule_verdict
netrule_decide(const struct netrule_list *deny,
    const struct netrule_list *allow, const struct host *h, uint16_t port,
    size_t *index)
{
	int i;

	if ((i = netrule_find(deny, h, port)) >= 0) {
		*index = (size_t)i;
		return NETRULE_DENY;
	}
	if ((i = netrule_find(allow, h, port)) >= 0) {
		*index = (size_t)i;
		return NETRULE_ALLOW;
	}
	return NETRULE_UNKNOWN;
}

int
netrule_format(const struct netrule *r, char *buf, size_t size)
{
	size_t pre = r->wildcard ? 2 : 0;
	int n;

	if (size < pre + 1)
		return -ENOSPC;
	memcpy(buf, "*.", pre);
	if ((n = host_format(&r->host, r->port, buf + pre, size - pre)) < 0)
		return n;
	return n + (int)pre;
}

const char *
netrule_verdict_name(enum netrule_verdict v)
{
	switch (v) {
	case NETRULE_UNKNOWN:
		return "unknown";
	case NETRULE_ALLOW:
		return "allow";
	case NETRULE_DENY:
		return "deny";
	}
	return "?";
}
