/* Unit tests for proxy/env.c: what the command is told, and what it keeps. */
#include <string.h>

#include "daemon/proxy/env.h"
#include "unit.h"

static const char *
get(const struct proxy_env *pe, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < pe->n; i++)
		if (strncmp(pe->v[i], name, n) == 0 && pe->v[i][n] == '=')
			return pe->v[i] + n + 1;
	return NULL;
}

static void
test_plain(void)
{
	struct proxy_env pe;

	CHECK_INT(proxy_env_build(NULL, 0, 3128, 1080, true, &pe), 0);
	CHECK_STR(get(&pe, "HTTP_PROXY"), "http://127.0.0.1:3128");
	CHECK_STR(get(&pe, "https_proxy"), "http://127.0.0.1:3128");
	CHECK_STR(get(&pe, "ALL_PROXY"), "socks5h://127.0.0.1:1080");
	/* A server inside the sandbox is called directly; Java keeps its
	 * own default nonProxyHosts, which says the same. */
	CHECK_STR(get(&pe, "NO_PROXY"), "localhost,127.0.0.1,::1");
	CHECK_STR(get(&pe, "no_proxy"), "localhost,127.0.0.1,::1");
	CHECK_STR(get(&pe, "npm_config_noproxy"), "localhost,127.0.0.1,::1");
	CHECK(strstr(get(&pe, "JAVA_TOOL_OPTIONS"), "nonProxyHosts") == NULL);
	CHECK_STR(get(&pe, "PIP_PROXY"), "http://127.0.0.1:3128");
	CHECK_STR(get(&pe, "npm_config_https_proxy"), "http://127.0.0.1:3128");
	CHECK_STR(get(&pe, "GIT_CONFIG_COUNT"), "1");
	CHECK_STR(get(&pe, "GIT_CONFIG_KEY_0"), "http.proxy");
	CHECK_STR(get(&pe, "GIT_CONFIG_VALUE_0"), "http://127.0.0.1:3128");
	CHECK(strncmp(get(&pe, "JAVA_TOOL_OPTIONS"), "-Dhttp.proxyHost=", 17)
	    == 0);
	CHECK(pe.n < PROXY_ENV_MAX);
	proxy_env_free(&pe);
	/* Where the JDKs' own file names the proxy: no JAVA_TOOL_OPTIONS,
	 * which every JVM would echo on stderr. */
	CHECK_INT(proxy_env_build(NULL, 0, 3128, 1080, false, &pe), 0);
	CHECK(get(&pe, "JAVA_TOOL_OPTIONS") == NULL);
	CHECK_STR(get(&pe, "HTTP_PROXY"), "http://127.0.0.1:3128");
	proxy_env_free(&pe);
}

/* Without a network namespace the listeners are on the host's loopback,
 * at ports the kernel chose: every variable names them. */
static void
test_ports(void)
{
	struct proxy_env pe;
	size_t i;

	CHECK_INT(proxy_env_build(NULL, 0, 40001, 40002, true, &pe), 0);
	CHECK_STR(get(&pe, "HTTP_PROXY"), "http://127.0.0.1:40001");
	CHECK_STR(get(&pe, "all_proxy"), "socks5h://127.0.0.1:40002");
	CHECK_STR(get(&pe, "FTP_PROXY"), "socks5h://127.0.0.1:40002");
	CHECK_STR(get(&pe, "RSYNC_PROXY"), "127.0.0.1:40001");
	CHECK_STR(get(&pe, "CLOUDSDK_PROXY_PORT"), "40001");
	CHECK_STR(get(&pe, "CLOUDSDK_PROXY_TYPE"), "http");
	CHECK_STR(get(&pe, "GIT_CONFIG_VALUE_0"), "http://127.0.0.1:40001");
	CHECK_STR(get(&pe, "JAVA_TOOL_OPTIONS"), "-Dhttp.proxyHost=127.0.0.1 "
	    "-Dhttp.proxyPort=40001 -Dhttps.proxyHost=127.0.0.1 "
	    "-Dhttps.proxyPort=40001");
	for (i = 0; i < pe.n; i++)
		CHECK(strstr(pe.v[i], "3128") == NULL &&
		    strstr(pe.v[i], "1080") == NULL);
	proxy_env_free(&pe);
}

static void
test_continues(void)
{
	const char *env[] = {
		"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=a.b",
		"GIT_CONFIG_VALUE_0=1", "GIT_CONFIG_KEY_1=c.d",
		"GIT_CONFIG_VALUE_1=2", "JAVA_TOOL_OPTIONS=-Xmx1g",
		"http_proxy=http://elsewhere:8080", "No_Proxy=localhost",
		"CLOUDSDK_PROXY_USERNAME=x", "PATH=/bin",
		"GIT_CONFIG_KEY_2=stale",
	};
	struct proxy_env pe;
	size_t i;
	bool drop[11];

	CHECK_INT(proxy_env_build((char *const *)env, 11, 3128, 1080, true, &pe), 0);
	CHECK_STR(get(&pe, "GIT_CONFIG_COUNT"), "3");
	CHECK_STR(get(&pe, "GIT_CONFIG_KEY_2"), "http.proxy");
	CHECK(strncmp(get(&pe, "JAVA_TOOL_OPTIONS"), "-Xmx1g -Dhttp.", 14)
	    == 0);
	for (i = 0; i < 11; i++)
		drop[i] = proxy_env_replaces(&pe, env[i]);
	CHECK(drop[0]);
	CHECK(!drop[1] && !drop[2] && !drop[3] && !drop[4]);
	CHECK(drop[5] && drop[6] && drop[7] && drop[8]);
	CHECK(!drop[9]);
	CHECK(drop[10]);
	proxy_env_free(&pe);

	/* A count git would refuse is not continued. */
	env[0] = "GIT_CONFIG_COUNT=x";
	CHECK_INT(proxy_env_build((char *const *)env, 1, 3128, 1080, true, &pe), 0);
	CHECK_STR(get(&pe, "GIT_CONFIG_COUNT"), "1");
	CHECK(proxy_env_replaces(&pe, "GIT_CONFIG_VALUE_0=z"));
	proxy_env_free(&pe);
}

int
main(void)
{
	test_plain();
	test_ports();
	test_continues();
	UNIT_DONE();
}
