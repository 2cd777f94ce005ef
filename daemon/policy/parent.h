/* network.parentProxy: the upstream proxy sbx's proxy forwards through; parsed, merged, shown without credentials. */
#ifndef SBX_POLICY_PARENT_H
#define SBX_POLICY_PARENT_H

#include <jansson.h>

#include "daemon/policy/json.h"
#include "daemon/policy/policy.h"

/*
 * A document says {"http": URL, "https": URL, "noProxy": LIST} (srt's
 * shape; LIST a string of comma-separated entries or an array of them;
 * at least one URL) or "env" (the daemon's own HTTP_PROXY, HTTPS_PROXY
 * and NO_PROXY, read when a session starts). The URLs are checked here
 * (proxy/upstream-parse.h) and may hold credentials: nothing quotes them
 * but policy_parent_redact(). Only org and user documents may say it: a
 * workspace or request layer that could redirect traffic is an error.
 */
void	policy_parent_parse(struct policy_json *pj, json_t *v,
	    struct policy *p);
void	policy_parent_clear(struct policy_parent_proxy *pp);

/*
 * The most authoritative document that sets it wins whole (an org's over
 * the user's); the others are warnings. 0 or -ENOMEM.
 */
int	policy_parent_merge(const struct policy *const *docs, size_t n,
	    struct policy *eff, struct policy_diags *diags);

/* "network": {"parentProxy": ...} in root when p sets it; credentials
 * shown as "***". 0 or -ENOMEM. */
int	policy_parent_render(const struct policy *p, json_t *root);

/* url with any user:password@ replaced by ***@. */
void	policy_parent_redact(const char *url, char *buf, size_t size);

#endif
