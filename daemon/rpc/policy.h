/* What the policy verbs (rpc/policy-*.c) share. */
#ifndef SBX_RPC_POLICY_H
#define SBX_RPC_POLICY_H

#include <limits.h>

struct conn;
struct policy;

/*
 * The workspace a request names, resolved as the served user into ws (a
 * directory other than "/"), and watched from now (policy/watch.h). On
 * failure the connection gets the error and -errno comes back.
 */
int rpc_policy_workspace(struct conn *c, const char *in, char ws[PATH_MAX]);

/* As above, plus the effective policy of ws as a run would get it now
 * (*eff for the caller to free). */
int rpc_policy_effective(struct conn *c, const char *in, char ws[PATH_MAX],
			 struct policy **eff);

#endif
