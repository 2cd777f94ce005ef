/* Shared by the policy unit tests: fixed home and workspace, parsing text. */
#ifndef SBX_POLICY_UNIT_H
#define SBX_POLICY_UNIT_H

#include <string.h>

#include "daemon/policy/policy.h"

#define HOME "/home/alice"
#define WS "/home/alice/src/app"

/* Parses text as "t.json" of layer; *p is NULL unless it parsed. */
static inline int
parse_as(const char *text, enum policy_layer layer, struct policy **p,
    struct policy_diags *d)
{
	struct policy_ctx ctx = { layer, "t.json", HOME, WS };

	*p = NULL;
	return policy_parse(text, strlen(text), &ctx, p, d);
}

#endif
