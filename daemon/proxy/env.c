/* Proxy variables for the command: the standard ones and the tool-specific ones that matter. */
#define _GNU_SOURCE

/*
 * Inside the sandbox only the proxy leads out, so every client library must
 * be told about it: the *_PROXY family (both cases: curl reads http_proxy
 * only in lower case, others only upper), and the tools that ignore it or
 * read their own settings first. The client's own values for these are
 * dropped, whatever they pointed at.
 *
 * NO_PROXY names loopback (and Java keeps its own default nonProxyHosts,
 * which does too): a server the command starts is called directly, on the
 * sandbox's own loopback. That reaches nothing of the host's: in a network
 * namespace the loopback is the sandbox's, and without one a direct
 * connect() reaches only the session's proxy ports (Landlock and sbxd's
 * connect check). Through the proxy, 127.0.0.1 would be the host's, which
 * only an explicit rule for that host service allows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/proxy/env.h"

/* The sandbox's own loopback, in NO_PROXY's syntax. */
#define LOOPBACK "localhost,127.0.0.1,::1"

/* What a variable's value is made of. */
enum proxy_val {
	VAL_HTTP,	/* http://127.0.0.1:HTTP */
	VAL_SOCKS,	/* socks5h://127.0.0.1:SOCKS */
	VAL_HOSTPORT,	/* 127.0.0.1:HTTP */
	VAL_PORT,	/* HTTP */
	VAL_TEXT,	/* text as it is ("" included) */
};

static const struct {
	const char *name;
	enum proxy_val val;
	const char *text;
} vars[] = {
	{ "HTTP_PROXY", VAL_HTTP, NULL },
	{ "http_proxy", VAL_HTTP, NULL },
	{ "HTTPS_PROXY", VAL_HTTP, NULL },
	{ "https_proxy", VAL_HTTP, NULL },
	{ "ALL_PROXY", VAL_SOCKS, NULL },
	{ "all_proxy", VAL_SOCKS, NULL },
	{ "FTP_PROXY", VAL_SOCKS, NULL },
	{ "ftp_proxy", VAL_SOCKS, NULL },
	{ "NO_PROXY", VAL_TEXT, LOOPBACK },
	{ "no_proxy", VAL_TEXT, LOOPBACK },
	/* gRPC C-core and grpc-js speak only HTTP CONNECT to a proxy. */
	{ "GRPC_PROXY", VAL_HTTP, NULL },
	{ "grpc_proxy", VAL_HTTP, NULL },
	/* rsync's proxy is an HTTP CONNECT proxy, given as host:port. */
	{ "RSYNC_PROXY", VAL_HOSTPORT, NULL },
	{ "npm_config_proxy", VAL_HTTP, NULL },
	{ "npm_config_https_proxy", VAL_HTTP, NULL },
	{ "npm_config_noproxy", VAL_TEXT, LOOPBACK },
	{ "YARN_HTTP_PROXY", VAL_HTTP, NULL },
	{ "YARN_HTTPS_PROXY", VAL_HTTP, NULL },
	{ "PIP_PROXY", VAL_HTTP, NULL },
	{ "DOCKER_HTTP_PROXY", VAL_HTTP, NULL },
	{ "DOCKER_HTTPS_PROXY", VAL_HTTP, NULL },
	/* gcloud: the type names what the proxy speaks, not what it
	 * carries. */
	{ "CLOUDSDK_PROXY_TYPE", VAL_TEXT, "http" },
	{ "CLOUDSDK_PROXY_ADDRESS", VAL_TEXT, "127.0.0.1" },
	{ "CLOUDSDK_PROXY_PORT", VAL_PORT, NULL },
};
#define NVARS (sizeof(vars) / sizeof(vars[0]))

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
add(struct proxy_env *pe, int r, char *s)
{
	if (r < 0 || pe->n >= PROXY_ENV_MAX)
		return -ENOMEM;
	pe->v[pe->n++] = s;
	return 0;
}

static int
add_var(struct proxy_env *pe, size_t i, unsigned http, unsigned socks)
{
	const char *name = vars[i].name;
	char *s = NULL;
	int r;

	switch (vars[i].val) {
	case VAL_HTTP:
		r = asprintf(&s, "%s=http://127.0.0.1:%u", name, http);
		break;
	case VAL_SOCKS:
		r = asprintf(&s, "%s=socks5h://127.0.0.1:%u", name, socks);
		break;
	case VAL_HOSTPORT:
		r = asprintf(&s, "%s=127.0.0.1:%u", name, http);
		break;
	case VAL_PORT:
		r = asprintf(&s, "%s=%u", name, http);
		break;
	default:
		r = asprintf(&s, "%s=%s", name, vars[i].text);
		break;
	}
	return add(pe, r, s);
}

static int
git_config(struct proxy_env *pe, const char *count, unsigned http)
{
	char *s, *end;
	long c = 0;
	int r;

	if (count != NULL) {
		c = strtol(count, &end, 10);
		if (*count == '\0' || *end != '\0' || c < 0 ||
		    c >= GIT_COUNT_MAX)
			c = 0;
	}
	r = asprintf(&s, "GIT_CONFIG_COUNT=%ld", c + 1);
	if (add(pe, r, s) < 0)
		return -ENOMEM;
	r = asprintf(&s, "GIT_CONFIG_KEY_%ld=http.proxy", c);
	if (add(pe, r, s) < 0)
		return -ENOMEM;
	r = asprintf(&s, "GIT_CONFIG_VALUE_%ld=http://127.0.0.1:%u", c,
	    http);
	return add(pe, r, s);
}

int
proxy_env_build(char *const *env, size_t n, unsigned http_port,
    unsigned socks_port, bool java, struct proxy_env *out)
{
	const char *jto = lookup(env, n, "JAVA_TOOL_OPTIONS");
	char *s;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < NVARS; i++)
		if (add_var(out, i, http_port, socks_port) < 0)
			goto fail;
	if (git_config(out, lookup(env, n, "GIT_CONFIG_COUNT"),
	    http_port) < 0)
		goto fail;
	/* Java has no proxy variable: -D properties through the JVM's own
	 * hook, ours last (the JVM lets a later -D win). Every JVM prints
	 * the hook's contents on stderr, so only where no JDK file carries
	 * them (linux/mount-java.c). */
	if (!java)
		return 0;
	r = asprintf(&s, "JAVA_TOOL_OPTIONS=%s%s-Dhttp.proxyHost=127.0.0.1 "
	    "-Dhttp.proxyPort=%u -Dhttps.proxyHost=127.0.0.1 "
	    "-Dhttps.proxyPort=%u", jto ? jto : "",
	    jto && *jto ? " " : "", http_port, http_port);
	if (add(out, r, s) < 0)
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

	for (i = 0; i < pe->n; i++) {
		k = name_len(pe->v[i]);
		if (k == len && strncasecmp(entry, pe->v[i], len) == 0)
			return true;
	}
	/* (Our GIT_CONFIG_VALUE_<n> is among pe->v.) */
	return len > 15 && strncasecmp(entry, "CLOUDSDK_PROXY_", 15) == 0;
}

void
proxy_env_free(struct proxy_env *pe)
{
	size_t i;

	for (i = 0; i < pe->n; i++)
		free(pe->v[i]);
	memset(pe, 0, sizeof(*pe));
}
