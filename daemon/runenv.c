/* The command's environment: what the client sent, scrubbed by policy,
 * and what the sandbox adds (proxy, TMPDIR, SBX_*). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/explain.h"
#include "daemon/policy/reqrule.h"
#include "daemon/proxy/env.h"
#include "daemon/runenv.h"

/* The sandbox sets these; a client's own are dropped. */
static bool
reserved(const char *entry)
{
	return !strncmp(entry, "TMPDIR=", 7) || !strncmp(entry, "SBX_", 4);
}

/* Does the policy let this client variable through? policy/explain.h
 * says in what order the env lists and the built-in secret rule decide;
 * `sbxctl policy explain env:NAME` asks the same question. */
static bool
env_passes(const struct policy *p, const char *entry)
{
	struct policy_decision d;
	char name[256];
	size_t n = strcspn(entry, "=");

	if (n >= sizeof(name) || !entry[n])
		return false;
	memcpy(name, entry, n);
	name[n] = '\0';
	return policy_explain_env(p, name, entry + n + 1, &d) == 0 &&
	       d.verdict == POLICY_VERDICT_ALLOW;
}

/* Environment for the command: the client's, scrubbed by policy, the
 * variables set explicitly for this run (-e), what tells a tool it runs
 * sandboxed, and where its proxy is (ports: HTTP, SOCKS5 on 127.0.0.1;
 * NULL: there is none; pe holds those). */
char **
runenv_build(const Sbx__RunRequest *req, const struct policy *p, uint64_t id,
	     const char *tmp, const uint16_t *ports, bool java,
	     struct proxy_env *pe)
{
	const char *bundle;
	char **env, **all;
	size_t i, n = 0;
	int r = 0;

	/* The proxy's variables continue or replace the client's, whether
	 * they come from its environment or from -e (set_env, later). */
	memset(pe, 0, sizeof(*pe));
	all = calloc(req->n_env + req->n_set_env + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < req->n_env; i++)
		all[i] = req->env[i];
	for (i = 0; i < req->n_set_env; i++)
		all[req->n_env + i] = req->set_env[i];
	if (ports)
		r = proxy_env_build(all, req->n_env + req->n_set_env, ports[0],
				    ports[1], java, pe);
	/* TLS inspection on: the bundle the sandbox sees holds sbx's CA
	 * (linux/mount-ca.c), and tools that read a variable read it. */
	if (r == 0 && ports && policy_reqrule_inspects(p) &&
	    (bundle = proxy_ca_bundle()) != NULL)
		r = proxy_env_ca(pe, bundle);
	free(all);
	if (r < 0)
		return NULL;
	env = calloc(req->n_env + req->n_set_env + pe->n + 4, sizeof(*env));
	if (!env) {
		proxy_env_free(pe);
		return NULL;
	}
	for (i = 0; i < req->n_env; i++)
		if (!reserved(req->env[i]) && env_passes(p, req->env[i]) &&
		    !(ports && proxy_env_replaces(pe, req->env[i])))
			env[n++] = req->env[i];
	/* Asked for by name on this run's command line: the user's call. */
	for (i = 0; i < req->n_set_env; i++)
		if (!reserved(req->set_env[i]) &&
		    !(ports && proxy_env_replaces(pe, req->set_env[i])))
			env[n++] = req->set_env[i];
	for (i = 0; i < pe->n; i++)
		env[n++] = (char *)pe->v[i];
	env[n++] = (char *)"SBX_SANDBOX=1";
	if (asprintf(&env[n], "TMPDIR=%s", tmp) < 0)
		env[n] = NULL;
	else if (asprintf(&env[n + 1], "SBX_SESSION=%llu",
			  (unsigned long long)id) < 0)
		env[n + 1] = NULL;
	if (!env[n] || !env[n + 1]) {
		runenv_free(env);
		proxy_env_free(pe);
		return NULL;
	}
	return env;
}

char **
runenv_withheld(char *const *env, size_t nenv, const struct policy *p)
{
	char **v = calloc(nenv + 1, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < nenv; i++) {
		const char *e = env[i];

		if (reserved(e) || env_passes(p, e))
			continue;
		/* The name, never the value. */
		if (!(v[n] = strndup(e, strcspn(e, "=")))) {
			runenv_names_free(v);
			return NULL;
		}
		n++;
	}
	return v;
}

void
runenv_names_free(char **names)
{
	size_t i;

	for (i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

void
runenv_free(char **env)
{
	size_t i;

	/* Ours alone: the client's TMPDIR and SBX_* never pass. */
	for (i = 0; env && env[i]; i++)
		if (!strncmp(env[i], "SBX_SESSION=", 12) ||
		    !strncmp(env[i], "TMPDIR=", 7))
			free(env[i]);
	free(env);
}
