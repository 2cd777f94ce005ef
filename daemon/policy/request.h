/* The request layer: the policy flags of one run, as a policy document. */
#ifndef SBX_POLICY_REQUEST_H
#define SBX_POLICY_REQUEST_H

#include <stddef.h>

#include "daemon/policy/policy.h"
#include "proto/wire.h"

/*
 * Turns RunRequest.overrides into one document of layer REQUEST: the
 * --policy text (parsed as o->policy_file, relative paths against
 * workspace, "~" against home) plus each --allow-domain, --deny-read and
 * --allow-write as a rule whose origin is the flag. Merged below the other
 * layers, it can only narrow (policy/merge.h). *out is NULL when o sets
 * nothing, else a new policy for the caller to free. -EINVAL with the
 * first "file:line:col: error: ..." in err, or -ENOMEM.
 */
int policy_request_from_overrides(const Sbx__PolicyOverrides *o,
				  const char *home, const char *workspace,
				  struct policy **out, char *err,
				  size_t errlen);

#endif
