/* The environment a sandboxed command starts with. Pure. */
#ifndef SBX_RUNENV_H
#define SBX_RUNENV_H

#include <stdint.h>

#include "daemon/policy/policy.h"
#include "daemon/proxy/env.h"
#include "proto/wire.h"

/*
 * The client's variables that policy p passes (policy_explain_env), the run's -e variables, the proxy's (ports: HTTP
 * and SOCKS5 on 127.0.0.1, NULL when the sandbox has none; pe holds them,
 * for proxy_env_free; java: Java's in JAVA_TOOL_OPTIONS too,
 * proxy_env_build), TMPDIR=tmp, SBX_SANDBOX and SBX_SESSION=id. NULL on
 * ENOMEM. The strings are borrowed from req and pe except the ones
 * runenv_free frees.
 */
char **runenv_build(const Sbx__RunRequest *req, const struct policy *p,
		    uint64_t id, const char *tmp, const uint16_t *ports,
		    bool java, struct proxy_env *pe);
void runenv_free(char **env);

/* The names (never the values) of the client's variables env[0..n) that
 * policy p withholds from the command, NULL-terminated, for the run's
 * report and describe; NULL on ENOMEM. The sandbox's own (TMPDIR, SBX_*)
 * are replaced, not listed. Free with runenv_names_free. */
char **runenv_withheld(char *const *env, size_t n, const struct policy *p);
void runenv_names_free(char **names);

#endif
