/* Between tls-ca.c and tls-end.c: the OpenSSL objects of one endpoint. */
#ifndef SBX_PROXY_TLS_INT_H
#define SBX_PROXY_TLS_INT_H

#include <openssl/ssl.h>

#include "daemon/proxy/tls.h"

/* A new SSL for either side of an inspected connection (tls.h). */
SSL *tls_ca_server_ssl(const struct host *h);
SSL *tls_ca_client_ssl(const struct host *h);

/* Frees tls_ca_java's store (from tls_ca_cleanup). */
void tls_jks_free(void);

#endif
