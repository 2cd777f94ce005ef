/* The default environment scrub: a secret in the environment is a leak the
 * moment a sandboxed tool prints or uploads it. The policy module will make
 * these lists configurable (env.pass / env.deny). */
#include <fnmatch.h>
#include <string.h>

#include "daemon/envfilter.h"

static const char *const deny_globs[] = {
	"*TOKEN*", "*SECRET*", "*PASSWORD*", "*PASSWD*", "*_API_KEY",
	"*_APIKEY", "*ACCESS_KEY*", "*PRIVATE_KEY*", "*CREDENTIAL*",
	"AWS_*", "AZURE_CLIENT_*", "GOOGLE_APPLICATION_CREDENTIALS",
	"SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO",
	"DBUS_SESSION_BUS_ADDRESS", "NOTIFY_SOCKET", "LISTEN_FDS",
	"LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM", "SBX_SOCKET",
	"KRB5CCNAME", "VAULT_*", "NPM_CONFIG__AUTH*",
};

bool
envfilter_valid(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq && eq != entry;
}

bool
envfilter_pass(const char *entry)
{
	char name[256];
	const char *eq = strchr(entry, '=');
	size_t i, n;

	if (!eq || eq == entry)
		return false;
	n = (size_t)(eq - entry);
	if (n >= sizeof(name))
		return false;
	for (i = 0; i < n; i++) {
		char ch = entry[i];

		/* Upper-case copy: the globs are case-insensitive. */
		name[i] = ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
	}
	name[n] = '\0';
	for (i = 0; i < sizeof(deny_globs) / sizeof(deny_globs[0]); i++)
		if (fnmatch(deny_globs[i], name, 0) == 0)
			return false;
	return true;
}
