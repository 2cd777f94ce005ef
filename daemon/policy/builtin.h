/* The built-in layer: paths always protected from writes, and ignore files. */
#ifndef SBX_POLICY_BUILTIN_H
#define SBX_POLICY_BUILTIN_H

#include "daemon/policy/policy.h"

/*
 * The "always protected" list (docs/architecture.md, "Protected paths"), as a
 * BUILTIN-layer document whose
 * file name is "<builtin>". policy_merge() adds it; it is exported so tests
 * and `sbxctl policy show` can print it. 0 or -ENOMEM (-EINVAL would be a
 * bug in the embedded text, which a unit test parses).
 */
int policy_builtin_new(const char *home, struct policy **out);
/* The embedded text, to show and to test. */
const char *policy_builtin_text(void);

#endif
