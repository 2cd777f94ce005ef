/* The one place sbx calls OpenSSL. */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>

#include "daemon/crypto.h"

int
crypto_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (!EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) || n != 32)
		return -EIO;
	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}
