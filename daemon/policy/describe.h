/* The sandbox's constraints in words an agent harness can put into its
 * shell tool's description, and as JSON. Pure. */
#ifndef SBX_DESCRIBE_H
#define SBX_DESCRIBE_H

#include <stdint.h>

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
	char *const *env_withheld; /* names the client's run would not get,
				      NULL-terminated; NULL: none */
	uint64_t tmp_limit;        /* bytes /tmp and /var/tmp hold at most
				      (limits.tmp); 0: not limited */
	unsigned tmp_idle_s;       /* how long /tmp outlives the last
				      command of the workspace */
	bool unix_sockets;         /* Unix stream sockets inside the sandbox
				      work (else every AF_UNIX socket is
				      refused) */
	bool ptrace;               /* debuggers work, unless the policy's
				      process.allowPtrace is false */
	struct policy_limit_defaults limits; /* the machine's defaults */
	bool limits_enforced;      /* sandboxes have cgroups */
	bool captured;             /* every TCP connection and DNS query
				      reaches the proxy (transparent
				      capture), not only proxied ones */
};

/* Builds the description; *text is malloc'd, *json a new reference. */
int describe_build(const struct policy *eff, const struct fsplan *fs,
		   const struct describe_ctx *ctx, char **text, json_t **json);

#endif
