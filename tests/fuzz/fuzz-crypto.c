/* libFuzzer target for the bytes crypto.c parses from files: a signature
 * file (raw or base64) and a PEM public key. A decoded signature re-encodes
 * to text that decodes to the same bytes; nothing verifies by accident. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zero[CRYPTO_SIG_LEN];
	uint8_t sig[CRYPTO_SIG_LEN], back[CRYPTO_SIG_LEN];
	char text[CRYPTO_SIG_B64_LEN + 2], id[CRYPTO_KEY_ID_LEN + 1];

	if (crypto_sig_decode(data, size, sig) == 0) {
		crypto_sig_encode(sig, text);
		if (crypto_sig_decode(text, strlen(text), back) != 0 ||
		    memcmp(sig, back, sizeof(sig)) != 0)
			abort();
	}
	/* As a trusted key: an all-zero signature of a fixed text must not
	 * verify, whatever the key. OpenSSL's decoders cost milliseconds a
	 * call, so only what looks like PEM goes to them. */
	if (size < 11 || memcmp(data, "-----BEGIN ", 11))
		return 0;
	if (crypto_ed25519_verify((const char *)data, size, "policy", 6,
				  zero) == 0)
		abort();
	crypto_ed25519_key_id((const char *)data, size, id);
	return 0;
}
