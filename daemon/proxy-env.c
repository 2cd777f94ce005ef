/* Proxy variables for the command: the standard ones and the tool-specific ones that matter. */
#define _GNU_SOURCE

/*
 * Inside the sandbox only the proxy leads out, so every client library must
 * be told about it: the *_PROXY family (both cases: curl reads http_proxy
 * only in lower case, others only upper), and the tools that ignore it or
 * read their own settings first. The client's own values for these are
 * dropped, whatever they pointed at.
 *
 * NO_PROXY is set empty on purpose: a loopback entry would send requests
 * for 127.0.0.1 past the proxy, to the sandbox's own loopback where the
 * host's servers are not, and on a host without a network namespace it
 * would be a hole around the policy. A command that runs its own server
 * inside the sandbox sets NO_PROXY=localhost itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proxy-env.h"
#include "sandbox.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define HTTP_URL "http://127.0.0.1:" STR(SANDBOX_HTTP_PROXY_PORT)
#define SOCKS_URL "socks5h://127.0.0.1:" STR(SANDBOX_SOCKS_PROXY_PORT)

static const char *const fixed[] = {
	"HTTP_PROXY=" HTTP_URL,
	"http_proxy=" HTTP_URL,
	"HTTPS_PROXY=" HTTP_URL,
	"https_proxy=" HTTP_URL,
	"ALL_PROXY=" SOCKS_URL,
	"all_proxy=" SOCKS_URL,
	"FTP_PROXY=" SOCKS_URL,
	"ftp_proxy=" SOCKS_URL,
	"NO_PROXY=",
	"no_proxy=",
	/* gRPC C-core and grpc-js speak only HTTP CONNECT to a proxy. */
	"GRPC_PROXY=" HTTP_URL,
	"grpc_proxy=" HTTP_URL,
	/* rsync's proxy is an HTTP CONNECT proxy, given as host:port. */
	"RSYNC_PROXY=127.0.0.1:" STR(SANDBOX_HTTP_PROXY_PORT),
	"npm_config_proxy=" HTTP_URL,
	"npm_config_https_proxy=" HTTP_URL,
	"npm_config_noproxy=",
	"YARN_HTTP_PROXY=" HTTP_URL,
	"YARN_HTTPS_PROXY=" HTTP_URL,
	"PIP_PROXY=" HTTP_URL,
	"DOCKER_HTTP_PROXY=" HTTP_URL,
	"DOCKER_HTTPS_PROXY=" HTTP_URL,
	/* gcloud: the type names what the proxy speaks, not what it carries. */
	"CLOUDSDK_PROXY_TYPE=http",
	"CLOUDSDK_PROXY_ADDRESS=127.0.0.1",
	"CLOUDSDK_PROXY_PORT=" STR(SANDBOX_HTTP_PROXY_PORT),
};
#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

/* Java has no proxy variable; -D properties through the JVM's own hook. */
static const char java_opts[] =
	"-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort="
	STR(SANDBOX_HTTP_PROXY_PORT)
	" -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort="
	STR(SANDBOX_HTTP_PROXY_PORT) " -Dhttp.nonProxyHosts=";

/* Largest GIT_CONFIG_COUNT we continue; git itself has no limit. */
#define GIT_COUNT_MAX 1000

static size_t
name_len(const char *entry)
{
	return strcspn(entry, "=");
}

static bool
named(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return name_len(entry) == n && strncmp(entry, name, n) == 0;
}

/* The client's value of name, or NULL. */
static const char *
lookup(char *const *env, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (named(env[i], name))
			return env[i] + strlen(name) + 1;
	return NULL;
}

static int
own(struct proxy_env *pe, char *s)
{
	if (s == NULL)
		return -ENOMEM;
	pe->owned[pe->nowned++] = s;
	pe->v[pe->n++] = s;
	return 0;
}

static int
git_config(struct proxy_env *pe, const char *count)
{
	char *s, *end;
	long c = 0;

	if (count != NULL) {
		c = strtol(count, &end, 10);
		if (*count == '\0' || *end != '\0' || c < 0 ||
		    c >= GIT_COUNT_MAX)
			c = 0;
	}
	pe->git_index = (unsigned)c;
	if (asprintf(&s, "GIT_CONFIG_COUNT=%u", pe->git_index + 1) < 0)
		s = NULL;
	if (own(pe, s) < 0)
		return -ENOMEM;
	if (asprintf(&s, "GIT_CONFIG_KEY_%u=http.proxy", pe->git_index) < 0)
		s = NULL;
	if (own(pe, s) < 0)
		return -ENOMEM;
	if (asprintf(&s, "GIT_CONFIG_VALUE_%u=" HTTP_URL, pe->git_index) < 0)
		s = NULL;
	return own(pe, s);
}

int
proxy_env_build(char *const *env, size_t n, struct proxy_env *out)
{
	const char *java = lookup(env, n, "JAVA_TOOL_OPTIONS");
	char *s;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < NFIXED; i++)
		out->v[out->n++] = fixed[i];
	if (git_config(out, lookup(env, n, "GIT_CONFIG_COUNT")) < 0)
		goto fail;
	/* Ours last: the JVM lets a later -D win. */
	if (asprintf(&s, "JAVA_TOOL_OPTIONS=%s%s%s", java ? java : "",
	    java && *java ? " " : "", java_opts) < 0)
		s = NULL;
	if (own(out, s) < 0)
		goto fail;
	return 0;
fail:
	proxy_env_free(out);
	return -ENOMEM;
}

bool
proxy_env_replaces(const struct proxy_env *pe, const char *entry)
{
	size_t len = name_len(entry), i, k;
	char git[40];

	for (i = 0; i < pe->n; i++) {
		k = name_len(pe->v[i]);
		if (k == len && strncasecmp(entry, pe->v[i], len) == 0)
			return true;
	}
	if (len > 15 && strncasecmp(entry, "CLOUDSDK_PROXY_", 15) == 0)
		return true;
	snprintf(git, sizeof(git), "GIT_CONFIG_VALUE_%u", pe->git_index);
	return named(entry, git);
}

void
proxy_env_free(struct proxy_env *pe)
{
	size_t i;

	for (i = 0; i < pe->nowned; i++)
		free(pe->owned[i]);
	memset(pe, 0, sizeof(*pe));
}
