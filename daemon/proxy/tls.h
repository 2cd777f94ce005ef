/* TLS for inspected connections: sbxd's CA, leaf certificates, and memory-BIO endpoints (OpenSSL lives in tls-ca.c and tls-end.c). */
#ifndef SBX_PROXY_TLS_H
#define SBX_PROXY_TLS_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/proxy/host.h"

struct evbuffer;
struct tls_end;

/*
 * The CA is made on first use and held in memory only (ECDSA P-256, valid
 * from an hour ago for 30 days): its key never touches a disk, so a file
 * left behind or a backup cannot mint certificates every sandbox trusts;
 * sandboxes get its certificate when they start, so a new CA after a
 * restart of sbxd costs nothing. upstream_ca (a PEM file, or NULL) is
 * trusted for upstreams besides the system's roots: a corporate CA.
 * 0, or -errno with err set.
 */
int tls_ca_init(const char *upstream_ca, char *err, size_t errlen);
void tls_ca_cleanup(void);

/* The CA certificate as PEM (static, NUL-ended), NULL if it cannot be made. */
const char *tls_ca_pem(void);

/* Java's trust store with the CA (tls-jks.c): the system's first CA
 * bundle and the CA as a JKS file of *len bytes, made once per CA
 * (static); NULL if it cannot be made or there is no system bundle. */
const void *tls_ca_java(size_t *len);

/*
 * A server end for the sandbox's side of a connection to h, presenting a
 * leaf certificate for h signed by the CA (cached per host, valid for a
 * day, reissued an hour before it ends), ALPN http/1.1 only; or a client
 * end towards h: SNI h (a name), the peer verified against the system's
 * roots and upstream_ca for h, ALPN http/1.1. NULL on failure.
 */
struct tls_end *tls_end_server(const struct host *h);
struct tls_end *tls_end_client(const struct host *h);
void tls_end_free(struct tls_end *t);

/* Result of tls_end_pump. */
enum {
	TLS_END_OK = 0,		/* more may come */
	TLS_END_CLOSED = 1,	/* the peer sent close_notify */
	TLS_END_ERROR = -1,	/* handshake or record failure: t's why */
};

/*
 * Takes the ciphertext in cin (drained), runs the handshake, appends
 * plaintext to pout; then encrypts what is in pin (drained) once the
 * handshake is done; appends what must go to the peer to cout.
 */
int tls_end_pump(struct tls_end *t, struct evbuffer *cin,
    struct evbuffer *pout, struct evbuffer *pin, struct evbuffer *cout);
/* A close_notify into cout. */
void tls_end_close(struct tls_end *t, struct evbuffer *cout);
bool tls_end_ready(const struct tls_end *t);
/* Why the last error happened (static or t's), "" if none. */
const char *tls_end_why(const struct tls_end *t);

#endif
