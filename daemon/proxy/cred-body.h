/* A credential's sentinel in a request body replaced by its value as the body passes, when the credential's rule says so. */
#ifndef SBX_PROXY_CRED_BODY_H
#define SBX_PROXY_CRED_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/policy/credential.h"
#include "daemon/proxy/cred.h"

/* The body rewriter's state for one body: the bytes that could begin a
 * sentinel, held until more comes (sentinels only, never a value). */
struct cred_body {
	char hold[POLICY_CRED_MAX];
	size_t nhold;
};

/* Is some credential for h:port to be put in bodies? */
bool cred_body_for(const struct cred_set *s, const struct host *h,
    uint16_t port);

/*
 * buf[0..len), the next bytes of a body towards h:port, appended to out
 * with each sentinel of a body credential for the host replaced by the
 * value (same length: Content-Length and chunk sizes hold). A tail that
 * could begin a sentinel is kept in b, unless end (the body's last
 * bytes). 0 or -ENOMEM.
 */
int cred_body_pass(const struct cred_set *s, const struct host *h,
    uint16_t port, struct cred_body *b, const char *buf, size_t len,
    bool end, struct evbuffer *out);

#endif
