/* Unit tests for policy/envsecret.c: the built-in rule for secrets in the
 * environment, as a table of what passes and what is withheld. */
#include <stddef.h>

#include "daemon/policy/envsecret.h"
#include "unit.h"

static const struct {
	const char *name, *value;
	const char *why; /* NULL: passes */
} cases[] = {
	/* What developers' tools need passes. */
	{ "PATH", "/usr/bin", NULL },
	{ "NODE_ENV", "development", NULL },
	{ "NODE_OPTIONS", "--max-old-space-size=4096", NULL },
	{ "PYTHONPATH", "/src", NULL },
	{ "VIRTUAL_ENV", "/src/.venv", NULL },
	{ "CC", "clang", NULL },
	{ "CFLAGS", "-O2", NULL },
	{ "JAVA_HOME", "/usr/lib/jvm/java-17", NULL },
	{ "SSL_CERT_FILE", "/etc/ssl/certs/ca.pem", NULL },
	{ "NODE_EXTRA_CA_CERTS", "/etc/ssl/corp.pem", NULL },
	{ "REQUESTS_CA_BUNDLE", "/etc/ssl/corp.pem", NULL },
	{ "DATABASE_URL", "postgres://app@localhost/dev", NULL },
	{ "DATABASE_URL", "postgresql:///test?host=/tmp", NULL },
	{ "DATABASE_URL", "postgres://app:@localhost/dev", NULL },
	{ "TOKENIZERS_PARALLELISM", "false", NULL },
	{ "GIT_AUTHOR_NAME", "A", NULL },
	{ "GIT_ASKPASS", "/usr/bin/true", NULL },
	{ "KEYTIMEOUT", "1", NULL },
	{ "PWD", "/src", NULL },
	{ "EMPTY", "", NULL },
	{ "HTTP_PROXY", "http://proxy.corp:8080", NULL },
	{ "AWS_REGION", "eu-west-1", NULL },
	{ "AWS_CA_BUNDLE", "/etc/ssl/ca.pem", NULL },
	{ "AWS_PROFILE", "dev", NULL },
	{ "VAULT_ADDR", "https://v", NULL },
	{ "CURL_CA_BUNDLE", "/etc/ssl/ca.pem", NULL },
	{ "GIT_SSL_CAINFO", "/etc/ssl/ca.pem", NULL },
	/* Credential-looking names. */
	{ "GITHUB_TOKEN", "x", "a credential-looking name (TOKEN)" },
	{ "github_token", "x", "a credential-looking name (TOKEN)" },
	{ "NPM_TOKEN", "x", "a credential-looking name (TOKEN)" },
	{ "npm_config_//registry.npmjs.org/:_authToken", "x",
	  "a credential-looking name (TOKEN)" },
	{ "NPM_CONFIG__AUTH", "x", "a credential-looking name (AUTH)" },
	{ "HF_TOKENS", "x", "a credential-looking name (TOKEN)" },
	{ "OPENAI_API_KEY", "x", "a credential-looking name (KEY)" },
	{ "STRIPE_SECRETKEY", "x", "a credential-looking name (SECRET)" },
	{ "CLIENT_SECRET", "x", "a credential-looking name (SECRET)" },
	{ "DB_PASSWORD", "x", "a credential-looking name (PASSWORD)" },
	{ "PGPASSWORD", "x", "a credential-looking name (PASSWORD)" },
	{ "MYSQL_PASS", "x", "a credential-looking name (PASS)" },
	{ "GPG_PASSPHRASE", "x", "a credential-looking name (PASSPHRASE)" },
	{ "AZURE_DEVOPS_EXT_PAT", "x", "a credential-looking name (PAT)" },
	{ "SESSION_COOKIE", "x", "a credential-looking name (COOKIE)" },
	{ "GOOGLE_APPLICATION_CREDENTIALS", "/k.json",
	  "a credential-looking name (CREDENTIAL)" },
	/* Known credential and agent variables. */
	{ "AWS_ACCESS_KEY_ID", "x", "a credential-looking name (KEY)" },
	{ "AWS_SECRET_ACCESS_KEY", "x", "a credential-looking name (SECRET)" },
	{ "AWS_SESSION_TOKEN", "x", "a credential-looking name (TOKEN)" },
	{ "AWS_WEB_IDENTITY_TOKEN_FILE", "/t", "a credential-looking name (TOKEN)" },
	{ "AZURE_CLIENT_SECRET", "x", "a credential-looking name (SECRET)" },
	{ "VAULT_TOKEN", "x", "a credential-looking name (TOKEN)" },
	{ "KRB5CCNAME", "FILE:/tmp/k", "a credential variable (Kerberos)" },
	{ "SSH_AUTH_SOCK", "/run/a", "an agent socket (ssh-agent)" },
	{ "GPG_AGENT_INFO", "/run/g", "an agent socket (gpg-agent)" },
	{ "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus",
	  "a host service socket (session bus)" },
	{ "NOTIFY_SOCKET", "/run/n", "a host service socket (service manager)" },
	{ "LISTEN_FDS", "1", "a host service socket (socket activation)" },
	/* Secrets by value. */
	{ "DATABASE_URL", "postgres://app:hunter2@db.corp/prod",
	  "its value is a URL with a password" },
	{ "REDIS_URL", "redis://:pw@localhost:6379/0",
	  "its value is a URL with a password" },
	{ "MIRRORS", "https://a.org, https://u:p@b.org/x",
	  "its value is a URL with a password" },
	{ "HTTPS_PROXY", "http://me:pw@proxy.corp:8080",
	  "its value is a URL with a password" },
	{ "DEPLOY", "-----BEGIN OPENSSH PRIVATE KEY-----\nabc",
	  "its value is a private key" },
	{ "GH", "ghp_0123456789abcdef0123456789abcdef0123",
	  "its value is a well-known token's" },
	{ "GL", "glpat-abcdefghijklmnop", "its value is a well-known token's" },
	{ "SLACK", "xoxb-1-2-3", "its value is a well-known token's" },
	{ "ID", "AKIAIOSFODNN7EXAMPLE", "its value is an AWS access key's" },
	{ "ID", "AKIAIOSFODNN7EXAMPLEX", NULL },
	{ "ID", "AKIA", NULL },
};

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		bool secret = envsecret_is(cases[i].name, cases[i].value, &why);

		CHECK_INT(secret, cases[i].why != NULL);
		if (secret && cases[i].why)
			CHECK_STR(why, cases[i].why);
	}
	/* The name alone, when the value is not known. */
	CHECK(envsecret_is("GITHUB_TOKEN", NULL, NULL));
	CHECK(!envsecret_is("DATABASE_URL", NULL, NULL));
	UNIT_DONE();
}
