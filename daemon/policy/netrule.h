/* Network rules (allowedDomains / deniedDomains entries) and the allow/deny decision. */
#ifndef SBX_NETRULE_H
#define SBX_NETRULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

enum netrule_verdict {
	NETRULE_UNKNOWN = 0,	/* no rule matched: the policy's unknownHosts decides */
	NETRULE_ALLOW,
	NETRULE_DENY,
};

/*
 * One compiled rule. "example.com", "*.example.com", "10.0.0.1",
 * "[::1]", each optionally with ":port". A wildcard keeps the suffix
 * after "*." in host and matches strict subdomains only.
 */
struct netrule {
	struct host	 host;
	uint16_t	 port;		/* 0: any port */
	bool		 wildcard;
};

struct netrule_list {
	size_t		 n;
	struct netrule	 rule[];
};

/*
 * Compile one rule s[0..len). On failure returns -EINVAL and a static
 * reason in *why.
 */
int	netrule_parse(const char *s, size_t len, struct netrule *out,
	    const char **why);

/*
 * Compile n NUL-terminated rules into a new list (owned by the caller,
 * freed with netrule_free). On a bad rule returns -EINVAL with its index
 * in *bad and the reason in *why; -ENOMEM if allocation fails. Callers
 * reading JSON must refuse strings with an embedded NUL first.
 */
int	netrule_compile(const char *const *src, size_t n,
	    struct netrule_list **out, size_t *bad, const char **why);
void	netrule_free(struct netrule_list *list);

bool	netrule_match(const struct netrule *r, const struct host *h,
	    uint16_t port);

/* Index of the first rule in list (may be NULL) matching, or -ENOENT. */
int	netrule_find(const struct netrule_list *list, const struct host *h,
	    uint16_t port);

/*
 * deny first, then allow (either may be NULL). On DENY or ALLOW *index is
 * the matching rule's index in its list; on UNKNOWN it is left alone.
 * h must be canonical (host_canon); port is the destination port.
 */
enum netrule_verdict netrule_decide(const struct netrule_list *deny,
	    const struct netrule_list *allow, const struct host *h,
	    uint16_t port, size_t *index);

/* The rule as it would be written, canonical ("*.example.com:443"). */
int	netrule_format(const struct netrule *r, char *buf, size_t size);

const char *netrule_verdict_name(enum netrule_verdict v);

#endif
