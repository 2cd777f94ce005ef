/* Request rules and TLS inspection settings of a policy (network.requestRules, network.tls): parse, merge, match. */
#ifndef SBX_POLICY_REQRULE_H
#define SBX_POLICY_REQRULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "daemon/policy/policy.h"

struct policy_json;

/* Methods a rule names; a request of another method matches only "*". */
#define REQRULE_GET	0x001u
#define REQRULE_HEAD	0x002u
#define REQRULE_POST	0x004u
#define REQRULE_PUT	0x008u
#define REQRULE_DELETE	0x010u
#define REQRULE_PATCH	0x020u
#define REQRULE_OPTIONS	0x040u
#define REQRULE_TRACE	0x080u
#define REQRULE_ANY	0xfffu
#define REQRULE_READ_ONLY (REQRULE_GET | REQRULE_HEAD | REQRULE_OPTIONS)

/*
 * One "METHODS PATH" entry of a requestRules object's allow or deny list.
 * host is the object's domain rule text (as allowedDomains spells them);
 * path a pattern over the request target (path and query), where '*'
 * matches any run of bytes, '/' and '?' included. text is the entry as
 * messages show it: "deny POST /x/git-receive-pack". Owned by the rule.
 */
struct policy_reqrule {
	char *host;
	bool allow;
	unsigned methods;
	char *path;
	char *text;
	struct policy_origin origin;
};

/*
 * What a policy says about inspection: its request rules in layer order
 * (an effective policy keeps every layer's, each decides alone, so a
 * lower layer can only narrow), and the hosts never to inspect.
 */
struct policy_l7 {
	struct policy_reqrule *rule;
	size_t n, cap;
	char **exclude;		/* domain rule texts */
	size_t nexclude;
	struct policy_cred *cred;	/* policy/credential.h */
	size_t ncred;
};

/* network.requestRules (which 0), network.tls (1) or
 * network.credentials (2, policy/credential.c) into p. */
void policy_reqrule_parse(struct policy_json *pj, json_t *v, int which,
    struct policy *p);
/* p's l7 part, made when first needed. 0 or -ENOMEM. */
int policy_reqrule_l7(struct policy *p, struct policy_l7 **out);

/* eff gets every doc's rules and exclusions, in order. 0 or -ENOMEM. */
int policy_reqrule_merge(const struct policy *const *docs, size_t n,
    struct policy *eff);

void policy_reqrule_free(struct policy_l7 *l7);

/* network.requestRules, network.tls and network.credentials of p into
 * root (policy_render_json's shape: each entry with "from"; never a
 * secret, which policies do not hold). 0 or -ENOMEM. */
int policy_reqrule_render(const struct policy *p, json_t *root);

/* For sbxctl describe (an agent reads it): the request rules by host and
 * the credentials' variables and hosts, one line each kind. */
void policy_reqrule_describe(FILE *f, const struct policy *p);

/* Does p (NULL: no) turn TLS inspection on for some host (a request
 * rule or a credential)? */
bool policy_reqrule_inspects(const struct policy *p);

/* The REQRULE_* bit of a method token, 0 for any other method. */
unsigned policy_reqrule_method(const char *m, size_t len);

/*
 * "METHODS PATH" (methods "GET", "GET,HEAD", or "*"; PATH starts with
 * '/' or is "*") into *methods and a new *path. 0, -EINVAL with *why,
 * -ENOMEM.
 */
int policy_reqrule_spec(const char *s, unsigned *methods, char **path,
    const char **why);

/*
 * The origin-form target t[0..len) as a server reads its path, into out
 * (len bytes at least): percent-encoded unreserved characters decoded,
 * runs of '/' made one; the query as it is. *olen its length; -EINVAL
 * for a "." or ".." segment (servers resolve them, so the path the rules
 * saw would not be the one served).
 */
int policy_reqrule_path_norm(const char *t, size_t len, char *out,
    size_t *olen);

/* Does target[0..len) (origin form) match pattern? */
bool policy_reqrule_path_match(const char *pattern, const char *target,
    size_t len);

#endif
