/* A denial the kernel reported (a Landlock audit record) described with the
 * policy rule behind it: for a path, the rule `policy explain` would name;
 * for a scope (signals, abstract sockets), the builtin Landlock scoping.
 * Pure. */
#ifndef SBX_FSDENIAL_H
#define SBX_FSDENIAL_H

#include "daemon/policy/explain.h"
#include "daemon/violation.h"

/* Storage the description points into; lives as long as v is used. */
struct fsdenial {
	struct policy_decision d;
	char rule[POLICY_TARGET_MAX + 64];
	char detail[160];
};

/*
 * Fills v for a denial of kind (enum violation_kind) named by Landlock's
 * access ("fs.write_file", "scope.signal") on target, in a session whose
 * effective policy is p (may be NULL) with home and workspace for
 * relative rules and overlay its overlaid home (NULL: none). Strings point into f, target and static text.
 */
void fsdenial_describe(const struct policy *p, const char *home,
		       const char *overlay, const char *workspace, int kind, const char *access,
		       const char *target, struct fsdenial *f,
		       struct violation *v);

#endif
