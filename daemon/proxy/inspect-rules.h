/* A session's request rules and TLS exclusions, compiled for the proxy: which hosts to inspect, and each request's verdict. */
#ifndef SBX_PROXY_INSPECT_RULES_H
#define SBX_PROXY_INSPECT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/policy/netrule.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/rules.h"

struct inspect_rule {
	struct netrule nr;
	bool allow;
	unsigned methods;	/* REQRULE_* */
	char *path;
	struct proxy_origin o;	/* list "network.requestRules" */
};

struct inspect_rules {
	struct inspect_rule *v;
	size_t n;
	struct netrule *excl;	/* network.tls.excludeDomains */
	size_t nexcl;
};

/*
 * From p's request rules (NULL p or none: an empty set, never NULL on
 * success). A rule netrule refuses is an error (err says which). 0,
 * -EINVAL, -ENOMEM.
 */
int inspect_rules_compile(const struct policy *p, struct inspect_rules **out,
    char *err, size_t errlen);
void inspect_rules_free(struct inspect_rules *r);

/* What to do with a tunnel to h:port. */
enum inspect_mode {
	INSPECT_NO = 0,		/* no rule names it: an opaque tunnel */
	INSPECT_YES,
	INSPECT_EXCLUDED,	/* rules name it but excludeDomains too:
				   they cannot be enforced, refuse */
};
/* named: a credential names h:port too. */
enum inspect_mode inspect_rules_mode(const struct inspect_rules *r,
    const struct host *h, uint16_t port, bool named);

/*
 * A request (method and origin-form target, not NUL-terminated) to
 * h:port. Each layer's rules decide alone, most authoritative first: a
 * deny rule that matches refuses; so does a layer that has allow rules
 * for the host none of which matches. NULL: allowed; else the rule that
 * refused (a layer's first allow rule for the host when none matched:
 * *unlisted is then true).
 */
const struct inspect_rule *inspect_rules_decide(const struct inspect_rules *r,
    const struct host *h, uint16_t port, const char *method, size_t mlen,
    const char *target, size_t tlen, bool *unlisted);

#endif
