/* A session's network rules, compiled from its effective policy for the proxy. */
#ifndef SBX_PROXY_RULES_H
#define SBX_PROXY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/addr-class.h"
#include "daemon/policy/netrule.h"
#include "daemon/policy/policy.h"

/*
 * What decided, copied out of the policy so the proxy does not depend on
 * the policy's lifetime. list is a static name ("network.deniedDomains",
 * "network.unknownHosts", "approval"); value is the rule's canonical text
 * or the setting's value. All strings are owned by the rules.
 */
struct proxy_origin {
	const char *list;
	char *value;
	bool has_layer;		/* false: sbx's built-in default */
	enum policy_layer layer;
	char *file, *id, *reason;
};

struct proxy_rule {
	struct netrule nr;
	bool any;		/* deniedDomains "*" or "*:port" */
	bool allow_private;	/* allowedDomains "allowPrivate": true */
	struct proxy_origin o;
};

struct proxy_rules {
	struct proxy_rule *deny, *allow, *grant;
	size_t ndeny, nallow, ngrant, grant_cap;
	bool ask;			/* unknownHosts "ask" */
	struct proxy_origin unknown;	/* the unknownHosts setting */
	struct upstream *up;		/* network.parentProxy, or NULL */
};

struct upstream;

/*
 * Compiles p's deniedDomains, allowedDomains, unknownHosts and
 * parentProxy (proxy/upstream.h). NULL p gives no rules, unknownHosts
 * "deny" and no upstream. A rule netrule refuses is an
 * error (err says which): the caller then denies everything rather than
 * run with a rule missing. 0, -EINVAL, -ENOMEM.
 */
int	proxy_rules_compile(const struct policy *p, struct proxy_rules **out,
	    char *err, size_t errlen);
void	proxy_rules_free(struct proxy_rules *r);

/* Allows exactly h:port for the rest of the session (an approval). */
int	proxy_rules_grant(struct proxy_rules *r, const struct host *h,
	    uint16_t port);

/*
 * deniedDomains first, then allowedDomains, then session grants, then
 * extra (one connection's allow-once, may be NULL). On DENY or ALLOW
 * *rule is the rule that decided (valid until the next grant); on
 * UNKNOWN unknownHosts decides.
 */
enum netrule_verdict proxy_rules_decide(const struct proxy_rules *r,
	    const struct host *h, uint16_t port,
	    const struct proxy_rule *extra, const struct proxy_rule **rule);

/*
 * The address that destination h resolved to, or h itself for a literal:
 * DENY if a deny rule names the address (*rule set), or if it is not
 * public (*cls set, *rule NULL) unless an allow rule, a grant or extra
 * names that address exactly, or h is a localhost name that an exact rule
 * (by_exact: not a wildcard) allowed and the address is loopback, or an
 * allowedDomains rule with allowPrivate matches the name h and the
 * address is one proxy_rules_private_ok() admits. Any other rule for a
 * name never opens a non-public address: that is DNS rebinding.
 */
enum netrule_verdict proxy_rules_address(const struct proxy_rules *r,
	    const struct host *h, bool by_exact,
	    const struct host *addr, uint16_t port,
	    const struct proxy_rule *extra, const struct proxy_rule **rule,
	    enum addr_class *cls);

/*
 * The classes allowPrivate opens: private, carrier-grade NAT and reserved
 * (documentation, benchmarking) ranges. Never loopback or unspecified
 * (the host itself: network.hostServices or a rule naming the address),
 * link-local or cloud metadata (machine credentials), multicast.
 */
bool	proxy_rules_private_ok(enum addr_class cls);

/*
 * The allowedDomains rule that would let name h:port reach a private
 * address if it said allowPrivate (the first allowing rule without it),
 * or NULL: what a denial names as the fix.
 */
const struct proxy_rule *proxy_rules_private_fix(const struct proxy_rules *r,
	    const struct host *h, uint16_t port);

/* A rule that allowed: exact (not a wildcard), so it may open localhost. */
bool	proxy_rule_exact(const struct proxy_rule *r);

/* RFC 6761: "localhost" and names below it are loopback by definition. */
bool	proxy_rules_localhost(const struct host *h);

/* `network.deniedDomains "x"` and the like; -ENOSPC if cut. */
int	proxy_rules_describe(const struct proxy_origin *o, char *buf,
	    size_t size);

#endif
