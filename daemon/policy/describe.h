/* The sandbox's constraints in words an agent harness can put into its
 * shell tool's description, and as JSON. Pure. */
#ifndef SBX_DESCRIBE_H
#define SBX_DESCRIBE_H

#include <jansson.h>

#include "daemon/policy/fsplan.h"
#include "daemon/policy/limits.h"
#include "daemon/policy/policy.h"

struct describe_ctx {
	const char *workspace;
	const char *backend;       /* "linux" */
	int landlock_abi;
	bool seccomp;
	bool host_network;         /* no network namespace: the host's, with
				      TCP to the proxy only */
	bool no_network;           /* no IP sockets at all (Landlock-only) */
	const char *tmp;           /* the private temp dir: "/tmp", or a
				      directory where /tmp is the host's */
	bool protect_unguarded;    /* protected paths in the workspace are
				      writable (Landlock-only mode without a
				      supervisor) */
	bool no_link_mounts;       /* no read-only binds of files linked
				      outside the writable paths
				      (Landlock-only mode): with
				      protect_unguarded unguarded, else
				      every multi-link file refused */
	struct policy_limit_defaults limits; /* the machine's defaults */
	bool limits_enforced;      /* sandboxes have cgroups */
};

/* Builds the description; *text is malloc'd, *json a new reference. */
int describe_build(const struct policy *eff, const struct fsplan *fs,
		   const struct describe_ctx *ctx, char **text, json_t **json);

#endif
