/* The "limits" object of a policy: one parser, merger and renderer row per
 * key (policy.h's enum policy_limit_id), pure. */
#ifndef SBX_POLICY_LIMITS_H
#define SBX_POLICY_LIMITS_H

#include <stdint.h>

#include <jansson.h>

#include "daemon/policy/json.h"
#include "daemon/policy/policy.h"

/* "limits.tmp" */
const char *policy_limit_name(enum policy_limit_id id);

/* Reads the "limits" object obj of a document into p->limits; unknown
 * keys and bad values are errors reported through pj. */
void policy_limits_parse(struct policy_json *pj, json_t *obj,
    struct policy *p);

/*
 * Sets eff->limits from docs (most authoritative first): the least value
 * of the org and user layers, else unset (the default); then the least of
 * that and every workspace or request value. A lower layer asking for
 * more than the layers above is warned about in diags and changes
 * nothing. Returns 0 or -ENOMEM.
 */
int policy_limits_merge(const struct policy *const *docs, size_t n,
    struct policy *eff, struct policy_diags *diags);

/* Adds a "limits" object to root for what p sets: {"tmp": {"value":
 * "512M", "from": "user ...:3:12"}}; an effective limit under the default
 * adds "atMost": "default". Returns 0 or -ENOMEM. */
int policy_limits_render(const struct policy *p, json_t *root);

/* The limit in force: dflt when unset, at most dflt when only narrowing
 * layers set it. */
uint64_t policy_limit_value(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt);

#endif
