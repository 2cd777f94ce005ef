/* Where tools look for CA certificates: the distributions' bundles and the variables that name one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/proxy/env.h"

/* Debian and Ubuntu, Fedora and RHEL, openSUSE, Alpine and others. */
const char *const proxy_ca_bundles[] = {
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/ssl/ca-bundle.pem",
	"/etc/ssl/cert.pem",
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
	NULL
};

/* Tools that read their own variable before the system's bundle:
 * OpenSSL, Node (added to its own roots), Python requests, curl, git,
 * pip. */
static const char *const vars[] = {
	"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE",
	"CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PIP_CERT",
};

const char *
proxy_ca_bundle(void)
{
	size_t i;

	for (i = 0; proxy_ca_bundles[i]; i++)
		if (access(proxy_ca_bundles[i], R_OK) == 0)
			return proxy_ca_bundles[i];
	return NULL;
}

int
proxy_env_ca(struct proxy_env *pe, const char *bundle)
{
	size_t i;

	if (pe->n + sizeof(vars) / sizeof(vars[0]) > PROXY_ENV_MAX)
		return -ENOSPC;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (asprintf(&pe->v[pe->n], "%s=%s", vars[i], bundle) < 0)
			return -ENOMEM;
		pe->n++;
	}
	return 0;
}
