/* The request layer of one run: `sbxctl run --policy FILE --allow-domain D
 * --deny-read P --allow-write P` as one policy document. */
#ifndef SBX_POLICY_REQUEST_H
#define SBX_POLICY_REQUEST_H

#include <stddef.h>

#include "daemon/policy.h"
#include "proto/wire.h"

/* One REQUEST-layer document from the overrides, or *out NULL when there
 * are none. Paths resolve against home and workspace. -EINVAL with
 * "file:line:col: message" in err when something does not parse. */
int policy_request_build(const Sbx__PolicyOverrides *o, const char *home,
			 const char *workspace, struct policy **out, char *err,
			 size_t errlen);

#endif
