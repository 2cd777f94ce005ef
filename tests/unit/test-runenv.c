/* Unit tests for daemon/runenv.c: what a command's environment holds. */
#include <string.h>

#include "daemon/runenv.h"
#include "unit.h"

static const char *
get(char **env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

static size_t
count(char **env, const char *name)
{
	size_t n = strlen(name), k = 0;

	for (; env && *env; env++)
		k += !strncmp(*env, name, n) && (*env)[n] == '=';
	return k;
}

int
main(void)
{
	char *cenv[] = { (char *)"PATH=/bin", (char *)"TMPDIR=/host/tmp",
			 (char *)"SBX_SESSION=7", (char *)"GITHUB_TOKEN=x",
			 (char *)"HTTP_PROXY=http://elsewhere:1" };
	char *set[] = { (char *)"A=1", (char *)"TMPDIR=/mine",
			(char *)"SBX_SANDBOX=0" };
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	const uint16_t ports[2] = { 3128, 1080 };
	struct proxy_env pe;
	char **env;

	req.env = cenv;
	req.n_env = 5;
	req.set_env = set;
	req.n_set_env = 3;
	env = runenv_build(&req, NULL, 42, "/tmp", ports, true, &pe);
	CHECK(env != NULL);
	CHECK_STR(get(env, "PATH"), "/bin");
	CHECK(get(env, "GITHUB_TOKEN") == NULL);
	CHECK_STR(get(env, "A"), "1");
	/* The sandbox's own, whatever the client or -e said. */
	CHECK_INT(count(env, "TMPDIR"), 1);
	CHECK_STR(get(env, "TMPDIR"), "/tmp");
	CHECK_INT(count(env, "SBX_SESSION"), 1);
	CHECK_STR(get(env, "SBX_SESSION"), "42");
	CHECK_STR(get(env, "SBX_SANDBOX"), "1");
	CHECK_INT(count(env, "HTTP_PROXY"), 1);
	CHECK_STR(get(env, "HTTP_PROXY"), "http://127.0.0.1:3128");
	runenv_free(env);
	proxy_env_free(&pe);
	/* Landlock-only: TMPDIR names the private dir; no proxy, no
	 * proxy variables of ours, and the client's are dropped with it. */
	env = runenv_build(&req, NULL, 43, "/run/sbx/tmp/ab", NULL, false, &pe);
	CHECK(env != NULL);
	CHECK_STR(get(env, "TMPDIR"), "/run/sbx/tmp/ab");
	CHECK_INT(count(env, "TMPDIR"), 1);
	runenv_free(env);
	proxy_env_free(&pe);
	UNIT_DONE();
}
