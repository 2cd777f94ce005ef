/* The policy a run request is served with, until the policy store takes over: a user layer given to sbxd, narrowed by the request's flags. */
#ifndef SBX_POLICY_REQUEST_H
#define SBX_POLICY_REQUEST_H

#include <stddef.h>

#include "policy.h"
#include "proto/wire.h"

/*
 * `sbxd --policy FILE`: FILE is the user layer of every session (the
 * test and admin override of ~/.config/sbx/policy.json). It is read and
 * checked once, here; relative paths in it resolve against each session's
 * workspace. NULL path: no user layer. home expands "~". 0, or -errno
 * with err set (file:line:col: reason for a policy error).
 */
int policy_request_init(const char *path, const char *home, char *err,
    size_t errlen);
void policy_request_cleanup(void);

/*
 * The effective policy for one run: the user layer, then the request layer
 * made of o->policy_json and o->allow_domains, merged (a request layer only
 * narrows). *out is NULL when there is neither. -EINVAL with err (the
 * first error, located), -ENOTSUP for overrides not supported yet
 * (deny_read, allow_write), -ENOMEM.
 */
int policy_request_build(const Sbx__PolicyOverrides *o, const char *workspace,
    struct policy **out, char *err, size_t errlen);

#endif
