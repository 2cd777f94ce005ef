/* The environment that points a sandboxed command's tools at the proxy. */
#ifndef SBX_PROXY_ENV_H
#define SBX_PROXY_ENV_H

#include <stdbool.h>
#include <stddef.h>

#define PROXY_ENV_MAX 48

/* Entries are allocated, freed by proxy_env_free. */
struct proxy_env {
	char *v[PROXY_ENV_MAX];
	size_t n;
};

/*
 * Our entries for a command whose client environment is env[0..n): the
 * proxy variables for an HTTP proxy on 127.0.0.1:http_port and a SOCKS5
 * one on 127.0.0.1:socks_port, GIT_CONFIG_* continuing what the client
 * set, and with java JAVA_TOOL_OPTIONS too (Java's -D properties after the
 * client's; for sandboxes whose JDKs' net.properties do not name the
 * proxy). 0 or -ENOMEM (nothing to free then).
 */
int	proxy_env_build(char *const *env, size_t n, unsigned http_port,
	    unsigned socks_port, bool java, struct proxy_env *out);

/* The client's entry is one of ours (any case for *_proxy): drop it. */
bool	proxy_env_replaces(const struct proxy_env *pe, const char *entry);

void	proxy_env_free(struct proxy_env *pe);

/* The distributions' CA bundle files (NULL-ended); inside a sandbox with
 * TLS inspection on, each one there is holds sbx's CA too. */
extern const char *const proxy_ca_bundles[];
/* The first of them this host has, or NULL. */
const char *proxy_ca_bundle(void);
/* Appends the variables naming a CA bundle (SSL_CERT_FILE and the
 * tool-specific ones), each set to bundle: 0, -ENOSPC, -ENOMEM. */
int	proxy_env_ca(struct proxy_env *pe, const char *bundle);

#endif
