/* The environment that points a sandboxed command's tools at the proxy. */
#ifndef SBX_PROXY_ENV_H
#define SBX_PROXY_ENV_H

#include <stdbool.h>
#include <stddef.h>

#define PROXY_ENV_MAX 48
#define PROXY_ENV_OWNED 4

/* Entries point at static strings or at owned[], freed by proxy_env_free. */
struct proxy_env {
	const char *v[PROXY_ENV_MAX];
	size_t n;
	char *owned[PROXY_ENV_OWNED];
	size_t nowned;
	unsigned git_index;	/* the GIT_CONFIG_KEY_<n> we add */
};

/*
 * Our entries for a command whose client environment is env[0..n): the
 * proxy variables, and GIT_CONFIG_* and JAVA_TOOL_OPTIONS continuing what
 * the client set. 0 or -ENOMEM (nothing to free then).
 */
int	proxy_env_build(char *const *env, size_t n, struct proxy_env *out);

/* The client's entry is one of ours (any case for *_proxy): drop it. */
bool	proxy_env_replaces(const struct proxy_env *pe, const char *entry);

void	proxy_env_free(struct proxy_env *pe);

#endif
