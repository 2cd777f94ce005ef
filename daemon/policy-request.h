/* The request layer of one run: the policy a client sends with a run
 * request (sbxctl run --policy FILE, --allow-domain). */
#ifndef SBX_POLICY_REQUEST_H
#define SBX_POLICY_REQUEST_H

#include <stddef.h>

#include "policy.h"
#include "proto/wire.h"

/*
 * One request-layer document made of o->policy_json and o->allow_domains
 * (relative paths resolve against workspace, "~" against home). *out is
 * NULL when the request has neither. -EINVAL with err (the first error,
 * located), -ENOTSUP for overrides not supported yet (deny_read,
 * allow_write), -ENOMEM. The policy store merges it under the other
 * layers, where it can only narrow.
 */
int policy_request_build(const Sbx__PolicyOverrides *o, const char *workspace,
    const char *home, struct policy **out, char *err, size_t errlen);

#endif
