/* Explain: a decision against an effective policy, with its rule. */
#ifndef SBX_POLICY_EXPLAIN_H
#define SBX_POLICY_EXPLAIN_H

#include <stddef.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/path.h"

enum policy_verdict {
	POLICY_VERDICT_ALLOW,
	POLICY_VERDICT_DENY,
	POLICY_VERDICT_ASK
};

enum policy_access {
	POLICY_ACCESS_READ,
	POLICY_ACCESS_WRITE,
	POLICY_ACCESS_CONNECT,	/* set by policy_explain_host() */
	POLICY_ACCESS_ENV	/* set by policy_explain_env() */
};

#define POLICY_TARGET_MAX (POLICY_PATH_MAX + 16)

/*
 * The answer. rule (in list) or setting is what decided, pointing into the
 * policy (valid while it lives); both NULL means the built-in default.
 * within is the higher layer's rule the deciding one was checked against.
 */
struct policy_decision {
	enum policy_verdict verdict;
	enum policy_access access;
	const struct policy_rule *rule;
	enum policy_list list;
	const struct policy_setting *setting;
	enum policy_setting_id setting_id;	/* which one setting is */
	const char *why;			/* static, one phrase */
	char target[POLICY_TARGET_MAX];		/* canonical path, host:port */
};

/*
 * Reads: denied under a denyRead rule unless an allowRead rule of the same
 * layer re-allows (policy/merge.h), else allowed. Writes: denied if reads
 * are (the path is masked), if protected, or under denyWrite, whichever
 * rule is most authoritative; else allowed under allowWrite; else, under
 * overlay (the overlaid home, NULL when the sandbox has none: see
 * fsplan_build) but outside the workspace (cwd), allowed into the home
 * overlay unless filesystem.home is "read-only" (setting_id POLICY_HOME);
 * else denied. A relative path resolves against cwd, the workspace; "~"
 * against home. Ignore-file patterns are the ignore module's and not seen
 * here. 0 or -EINVAL.
 */
int policy_explain_path(const struct policy *p, const char *path,
    enum policy_access access, const char *home, const char *overlay,
    const char *cwd, struct policy_decision *out);
/*
 * HOST, HOST:PORT, [V6]:PORT or a bare IPv6 address; no port means 443.
 * deniedDomains first, then allowedDomains, then unknownHosts (ask or
 * deny). Hosts are canonicalised by policy_domain_canon_host(). 0 or
 * -EINVAL for a malformed host.
 */
int policy_explain_host(const struct policy *p, const char *hostport,
    struct policy_decision *out);
/*
 * Whether the client's variable NAME (value: its value, or NULL when not
 * known) reaches a sandboxed command, first match deciding: env.deny
 * withholds; an env.pass rule of an org or user layer naming it exactly
 * (no '*') passes; the built-in secret rule (policy/envsecret.h)
 * withholds; a policy that sets env.pass passes only what a rule of it
 * matches; everything else passes. p may be NULL (no policy lists). 0.
 */
int policy_explain_env(const struct policy *p, const char *name,
    const char *value, struct policy_decision *out);

/*
 * "deny write /etc/hosts: outside every allowWrite path" and, indented on
 * the next lines, the rule, its origin, what it was within, and its reason.
 * Returns the length, or -ENOSPC (the text is cut).
 */
int policy_explain_format(const struct policy_decision *d, char *buf,
    size_t len);

#endif
