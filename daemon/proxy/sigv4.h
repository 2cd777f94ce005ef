/* AWS Signature Version 4, header form: a request signed inside the sandbox with a sentinel key, signed again with the real one. */
#ifndef SBX_PROXY_SIGV4_H
#define SBX_PROXY_SIGV4_H

#include <stddef.h>

struct evbuffer;

/*
 * head[0..len) is a whole request head. When its Authorization is
 * "AWS4-HMAC-SHA256 Credential=<kid_sentinel>/...", the head is appended
 * to out with that field signed again: key id kid, signature computed
 * from the head (method, path, query, the signed fields, the payload hash
 * of x-amz-content-sha256, or the empty body's when there is none) with
 * secret. Another Authorization passes unchanged. 0; -EPERM with *why
 * for what is not re-signed (a presigned URL, a streaming payload, a
 * body with no x-amz-content-sha256, a malformed field); -ENOMEM.
 * has_body: the request has a body.
 */
int sigv4_resign(const char *head, size_t len, int has_body,
    const char *kid_sentinel, const char *kid, const char *secret,
    struct evbuffer *out, const char **why);

#endif
