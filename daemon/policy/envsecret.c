/* Secrets in the environment by name and by value: a secret in a
 * sandboxed command's environment is a leak the moment a tool prints,
 * logs or uploads it, and the command needs none of them to build, test
 * or fetch through the proxy. Names are cut into words so that a word
 * decides, not a substring of another (TOKENIZERS_PARALLELISM passes,
 * GITHUB_TOKEN does not). */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "daemon/policy/envsecret.h"

#define WORD_MAX 64

static const struct {
	const char *word;
	enum { CONTAINS, ENDS, IS } how;
	const char *why;
} words[] = {
	{ "SECRET", CONTAINS, "a credential-looking name (SECRET)" },
	{ "PASSWORD", CONTAINS, "a credential-looking name (PASSWORD)" },
	{ "PASSWD", CONTAINS, "a credential-looking name (PASSWD)" },
	{ "PASSPHRASE", CONTAINS, "a credential-looking name (PASSPHRASE)" },
	{ "CREDENTIAL", CONTAINS, "a credential-looking name (CREDENTIAL)" },
	{ "COOKIE", CONTAINS, "a credential-looking name (COOKIE)" },
	{ "TOKEN", ENDS, "a credential-looking name (TOKEN)" },
	{ "TOKENS", ENDS, "a credential-looking name (TOKEN)" },
	{ "KEY", ENDS, "a credential-looking name (KEY)" },
	{ "KEYS", ENDS, "a credential-looking name (KEY)" },
	{ "AUTH", IS, "a credential-looking name (AUTH)" },
	{ "PASS", IS, "a credential-looking name (PASS)" },
	{ "PAT", IS, "a credential-looking name (PAT)" },
	{ "PSK", IS, "a credential-looking name (PSK)" },
};

/* Known by name, for what no word gives away; a trailing '*' is a prefix.
 * Cloud credentials need no prefix rule: their secrets have the words
 * (AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AZURE_CLIENT_SECRET,
 * VAULT_TOKEN), and what else such a prefix holds is configuration a
 * tool needs (AWS_REGION, AWS_CA_BUNDLE, VAULT_ADDR). */
static const struct {
	const char *name;
	const char *why;
} known[] = {
	{ "KRB5CCNAME", "a credential variable (Kerberos)" },
	{ "XAUTHORITY", "a credential variable (X11)" },
	{ "SSH_AUTH_SOCK", "an agent socket (ssh-agent)" },
	{ "SSH_AGENT_PID", "an agent socket (ssh-agent)" },
	{ "GPG_AGENT_INFO", "an agent socket (gpg-agent)" },
	{ "DBUS_SESSION_BUS_ADDRESS", "a host service socket (session bus)" },
	{ "NOTIFY_SOCKET", "a host service socket (service manager)" },
	{ "LISTEN_*", "a host service socket (socket activation)" },
	{ "JOURNAL_STREAM", "a host service socket (journal)" },
	{ "SBX_SOCKET", "a host service socket (sbxd)" },
};

static const char *const token_prefixes[] = {
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxa-", "xoxb-", "xoxp-", "xoxs-", "sk-ant-",
};

static bool
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool
ends_with(const char *w, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && strncasecmp(w + n - k, suffix, k) == 0;
}

static bool
contains(const char *w, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(w + i, needle, k) == 0)
			return true;
	return false;
}

static const char *
word_why(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *x = words[i].word;

		if ((words[i].how == CONTAINS && contains(w, n, x)) ||
		    (words[i].how == ENDS && ends_with(w, n, x)) ||
		    (words[i].how == IS && n == strlen(x) &&
		     strncasecmp(w, x, n) == 0))
			return words[i].why;
	}
	return NULL;
}

static const char *
name_why(const char *name)
{
	const char *p = name, *why;
	size_t i, n;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		n = strlen(known[i].name);
		if (known[i].name[n - 1] == '*' ?
		    strncasecmp(name, known[i].name, n - 1) == 0 :
		    strcasecmp(name, known[i].name) == 0)
			return known[i].why;
	}
	while (*p) {
		while (*p && !alnum(*p))
			p++;
		for (n = 0; alnum(p[n]); n++)
			;
		if (n && (why = word_why(p, n)) != NULL)
			return why;
		p += n;
	}
	return NULL;
}

/* scheme://user:password@host: the userinfo (before the authority's last
 * '@') has a ':' with something after it. */
static bool
url_password(const char *v)
{
	const char *s = v, *a, *end, *at, *colon;

	while ((s = strstr(s, "://")) != NULL) {
		a = s + 3;
		end = a + strcspn(a, "/?# \t,;");
		at = NULL;
		for (const char *q = a; q < end; q++)
			if (*q == '@')
				at = q;
		colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
		if (colon && colon + 1 < at)
			return true;
		s = a;
	}
	return false;
}

static bool
akia(const char *v)
{
	size_t i;

	if (strncmp(v, "AKIA", 4) && strncmp(v, "ASIA", 4))
		return false;
	for (i = 4; i < 20; i++)
		if (!((v[i] >= 'A' && v[i] <= 'Z') ||
		      (v[i] >= '0' && v[i] <= '9')))
			return false;
	return !alnum(v[20]);
}

static const char *
value_why(const char *v)
{
	size_t i;

	if (url_password(v))
		return "its value is a URL with a password";
	if (strstr(v, "-----BEGIN") && strstr(v, "PRIVATE KEY"))
		return "its value is a private key";
	for (i = 0; i < sizeof(token_prefixes) / sizeof(token_prefixes[0]);
	     i++)
		if (!strncmp(v, token_prefixes[i], strlen(token_prefixes[i])))
			return "its value is a well-known token's";
	if (akia(v))
		return "its value is an AWS access key's";
	return NULL;
}

bool
envsecret_is(const char *name, const char *value, const char **why)
{
	const char *w = name_why(name);

	if (!w && value)
		w = value_why(value);
	if (w && why)
		*why = w;
	return w != NULL;
}
