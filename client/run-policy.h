/* The request policy layer of sbxctl run and sbxctl sandbox create: the
 * policy flags as given, sent as RunRequest.overrides (policy/request.c
 * turns them into a policy document). */
#ifndef SBX_CLIENT_RUN_POLICY_H
#define SBX_CLIENT_RUN_POLICY_H

#include <getopt.h>
#include <stddef.h>

#include "proto/wire.h"

#define RUN_MAX_POLICY_FLAGS 256

struct run_policy {
	const char *allow_domain[RUN_MAX_POLICY_FLAGS];
	const char *deny_read[RUN_MAX_POLICY_FLAGS];
	const char *allow_write[RUN_MAX_POLICY_FLAGS];
	size_t nallow_domain, ndeny_read, nallow_write;
	const char *file;
	/* --publish: not policy, but a flag of the same two commands,
	 * checked by the daemon (daemon/proxy/publish.h). */
	const char *publish[RUN_MAX_POLICY_FLAGS];
	size_t npublish;
};

/* getopt values of the flags, and their long options (for an option
 * table: RUN_POLICY_OPTIONS,). */
enum {
	RUN_OPT_ALLOW_DOMAIN = 0x200,
	RUN_OPT_DENY_READ,
	RUN_OPT_ALLOW_WRITE,
	RUN_OPT_POLICY,
	RUN_OPT_PUBLISH,
};
#define RUN_POLICY_OPTIONS \
	{ "allow-domain", required_argument, NULL, RUN_OPT_ALLOW_DOMAIN }, \
	{ "deny-read", required_argument, NULL, RUN_OPT_DENY_READ }, \
	{ "allow-write", required_argument, NULL, RUN_OPT_ALLOW_WRITE }, \
	{ "policy", required_argument, NULL, RUN_OPT_POLICY }, \
	{ "publish", required_argument, NULL, RUN_OPT_PUBLISH }

/* Takes getopt's c and arg into p: 1 when c was a policy flag, 0 when
 * not, -EINVAL (said on stderr). */
int run_policy_flag(int c, const char *arg, struct run_policy *p);
/* p as RunRequest.overrides, relative paths against cwd, in po: *out is
 * po, or NULL when no flag was given. run_policy_free(po) either way. */
int run_policy_overrides(const struct run_policy *p, const char *cwd,
			 Sbx__PolicyOverrides *po, Sbx__PolicyOverrides **out);
void run_policy_free(Sbx__PolicyOverrides *po);

#endif
