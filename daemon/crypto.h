/* OpenSSL glue: hashing (and, later, policy signatures). */
#ifndef SBX_CRYPTO_H
#define SBX_CRYPTO_H

#include <stddef.h>

/* Lower-case hex SHA-256 of data into out (65 bytes with the NUL). */
int crypto_sha256_hex(const void *data, size_t len, char out[65]);

#endif
