/* Domain rules of allowedDomains and deniedDomains: syntax, match, meet. */
#ifndef SBX_POLICY_DOMAIN_H
#define SBX_POLICY_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Rule syntax, as srt accepts it: "example.com" (that host only),
 * "*.example.com" (strict subdomains, not example.com itself; at least two
 * labels after "*."), "localhost", an IPv4 address, a bracketed IPv6
 * address "[::1]", each with an optional ":port" (1-65535; none = any
 * port), and in deniedDomains a bare "*" or "*:port". Names are lower-cased;
 * non-ASCII names must be written in their xn-- form; a trailing dot is an
 * error in a rule.
 *
 * Interface for the network module: the proxy validates and canonicalises
 * a requested host with its own strict parser, which must produce what
 * policy_domain_canon_host() produces (lower-case ASCII, no trailing dot,
 * IPv4 in dotted-quad form including shorthand such as 2130706433, IPv6 as
 * inet_ntop prints it, without brackets), then calls policy_domain_match()
 * for each rule. policy_domain_canon_host() is a simple stand-in that
 * explain uses; the network module may replace it, but not the matcher,
 * which defines what a rule means.
 */
#define POLICY_HOST_MAX 253

enum policy_domain_kind {
	POLICY_DOMAIN_EXACT,
	POLICY_DOMAIN_SUBDOMAINS,
	POLICY_DOMAIN_ANY
};

struct policy_domain {
	enum policy_domain_kind kind;
	int port;				/* 0: any port */
	char host[POLICY_HOST_MAX + 1];		/* canonical; "" for ANY */
};

/* Parses one rule; any_ok admits "*". -EINVAL sets *why. */
int policy_domain_parse(const char *text, bool any_ok,
    struct policy_domain *out, const char **why);
/* Canonical rule text ("*.example.com:443", "[::1]"); -ENOSPC if short. */
int policy_domain_format(const struct policy_domain *d, char *buf,
    size_t len);

/*
 * Splits "host", "host:port", "[v6]:port" (and bare "::1" when bare_v6) into
 * host text and port (0 if none). -EINVAL sets *why.
 */
int policy_domain_split(const char *text, bool bare_v6, char *host,
    size_t hostlen, int *port, const char **why);
/* Canonicalises a requested host (one trailing dot is dropped). */
int policy_domain_canon_host(const char *in, char *out, size_t outlen,
    const char **why);

/* host must be canonical; port 0 matches only rules without a port. */
bool policy_domain_match(const struct policy_domain *rule, const char *host,
    int port);
/*
 * The rule matching exactly what both a and b match, if there is one. For
 * rules of this syntax the intersection is always one rule or empty.
 */
bool policy_domain_meet(const struct policy_domain *a,
    const struct policy_domain *b, struct policy_domain *out);

#endif
