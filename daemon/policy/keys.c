/* The keys of each section of a policy document, and help for typos. */
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/keys.h"

#define SRT(name, note) { name, POLICY_KEY_SRT, 0, note }
#define NOTE_MACOS "it only applies to srt on macOS"
#define NOTE_TOOL "sbx does not run this helper"

static const struct policy_key top_keys[] = {
	{ "filesystem", POLICY_KEY_SECTION, POLICY_SEC_FS, NULL },
	{ "network", POLICY_KEY_SECTION, POLICY_SEC_NET, NULL },
	{ "env", POLICY_KEY_SECTION, POLICY_SEC_ENV, NULL },
	{ "process", POLICY_KEY_SECTION, POLICY_SEC_PROC, NULL },
	{ "ignoreFiles", POLICY_KEY_LIST, POLICY_IGNORE_FILES, NULL },
	{ "protect", POLICY_KEY_LIST, POLICY_PROTECT, NULL },
	{ "limits", POLICY_KEY_LIMITS, 0, NULL },
	{ "serial", POLICY_KEY_SERIAL, 0, NULL },
	{ "_comment", POLICY_KEY_COMMENT, 0, NULL },
	{ "$schema", POLICY_KEY_COMMENT, 0, NULL },
	SRT("ignoreViolations", "sbx reports every violation"),
	SRT("enableWeakerNestedSandbox", "sbx never weakens its sandbox"),
	SRT("enableWeakerNetworkIsolation", NOTE_MACOS),
	SRT("allowAppleEvents", NOTE_MACOS),
	SRT("allowPty", NOTE_MACOS),
	SRT("mandatoryDenySearchDepth", "sbx protects files at any depth"),
	SRT("ripgrep", NOTE_TOOL),
	SRT("seccomp", NOTE_TOOL),
	SRT("bwrapPath", NOTE_TOOL),
	SRT("socatPath", NOTE_TOOL),
	SRT("javaAgentJarPath", NOTE_TOOL),
	SRT("windows", "sbx runs inside WSL2 on Windows"),
	SRT("git", "git settings are not injected"),
	SRT("credentials", "its restrictions are NOT applied: list the files "
	    "in filesystem.denyRead and the variables in env.deny"),
	{ NULL, 0, 0, NULL }
};

static const struct policy_key fs_keys[] = {
	{ "denyRead", POLICY_KEY_LIST, POLICY_DENY_READ, NULL },
	{ "allowRead", POLICY_KEY_LIST, POLICY_ALLOW_READ, NULL },
	{ "allowWrite", POLICY_KEY_LIST, POLICY_ALLOW_WRITE, NULL },
	{ "denyWrite", POLICY_KEY_LIST, POLICY_DENY_WRITE, NULL },
	{ "home", POLICY_KEY_HOME, 0, NULL },
	{ "_comment", POLICY_KEY_COMMENT, 0, NULL },
	SRT("disabled", "sbx always enforces the filesystem policy"),
	SRT("allowGitConfig", ".git/config stays write-protected"),
	{ NULL, 0, 0, NULL }
};

static const struct policy_key net_keys[] = {
	{ "allowedDomains", POLICY_KEY_LIST, POLICY_ALLOWED_DOMAINS, NULL },
	{ "deniedDomains", POLICY_KEY_LIST, POLICY_DENIED_DOMAINS, NULL },
	{ "allowUnixSockets", POLICY_KEY_LIST, POLICY_UNIX_SOCKETS, NULL },
	{ "allowAllUnixSockets", POLICY_KEY_BOOL, POLICY_ALL_UNIX_SOCKETS,
	    NULL },
	{ "allowLocalBinding", POLICY_KEY_BOOL, POLICY_LOCAL_BINDING, NULL },
	{ "unknownHosts", POLICY_KEY_HOSTS, 0, NULL },
	{ "strictAllowlist", POLICY_KEY_STRICT, 0, NULL },
	{ "deniedDomainReasons", POLICY_KEY_REASONS, 0, NULL },
	{ "parentProxy", POLICY_KEY_PARENT, 0, NULL },
	{ "hostServices", POLICY_KEY_LIST, POLICY_HOST_SERVICES, NULL },
	{ "requestRules", POLICY_KEY_L7, 0, NULL },
	{ "tls", POLICY_KEY_L7, 1, NULL },
	{ "credentials", POLICY_KEY_L7, 2, NULL },
	{ "_comment", POLICY_KEY_COMMENT, 0, NULL },
	SRT("httpProxyPort", "sbx runs its own proxy"),
	SRT("socksProxyPort", "sbx runs its own proxy"),
	SRT("mitmProxy", "sbx sends no traffic through an inspecting proxy"),
	SRT("tlsTerminate", "sbx inspects TLS only for the hosts "
	    "network.requestRules and network.credentials name"),
	SRT("allowMachLookup", NOTE_MACOS),
	{ NULL, 0, 0, NULL }
};

static const struct policy_key env_keys[] = {
	{ "pass", POLICY_KEY_LIST, POLICY_ENV_PASS, NULL },
	{ "deny", POLICY_KEY_LIST, POLICY_ENV_DENY, NULL },
	{ "_comment", POLICY_KEY_COMMENT, 0, NULL },
	{ NULL, 0, 0, NULL }
};

static const struct policy_key proc_keys[] = {
	{ "allowPtrace", POLICY_KEY_BOOL, POLICY_PTRACE, NULL },
	{ "_comment", POLICY_KEY_COMMENT, 0, NULL },
	{ NULL, 0, 0, NULL }
};

static const struct policy_key *const sections[POLICY_NSECTIONS] = {
	top_keys, fs_keys, net_keys, env_keys, proc_keys
};
static const char *const section_names[POLICY_NSECTIONS] = {
	"the top level", "filesystem", "network", "env", "process"
};

static const struct policy_key *
key_find(const struct policy_key *keys, const char *name)
{
	for (; keys->name != NULL; keys++)
		if (strcmp(keys->name, name) == 0)
			return keys;
	return NULL;
}

/* Case-insensitive edit distance, to suggest the key a typo meant. */
static size_t
key_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[33], diag, up;

	if (la > 32 || lb > 32)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag +
			    ((a[i - 1] | 0x20) != (b[j - 1] | 0x20));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

void
policy_keys_unknown(struct policy_json *pj, enum policy_section sec,
    const char *name)
{
	const struct policy_key *k;
	int s;

	for (k = sections[sec]; k->name != NULL; k++) {
		if (k->kind != POLICY_KEY_SRT &&
		    policy_keys_near(name, k->name)) {
			policy_json_report(pj, POLICY_ERROR, true,
			    "unknown key (did you mean \"%s\"?)", k->name);
			return;
		}
	}
	for (s = 0; s < POLICY_NSECTIONS; s++) {
		if (s != (int)sec && key_find(sections[s], name) != NULL) {
			policy_json_report(pj, POLICY_ERROR, true,
			    "unknown key here (it belongs in %s)",
			    section_names[s]);
			return;
		}
	}
	policy_json_report(pj, POLICY_ERROR, true, "unknown key in %s",
	    section_names[sec]);
}

bool
policy_keys_near(const char *typed, const char *key)
{
	return key_distance(typed, key) <= 2;
}

const struct policy_key *
policy_keys_find(enum policy_section sec, const char *name)
{
	return key_find(sections[sec], name);
}
