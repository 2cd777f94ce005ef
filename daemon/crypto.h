/* OpenSSL glue: hashing, and Ed25519 keys and signatures (org policies). */
#ifndef SBX_CRYPTO_H
#define SBX_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRYPTO_SIG_LEN 64       /* an Ed25519 signature */
#define CRYPTO_SIG_B64_LEN 88   /* its base64 text */
#define CRYPTO_KEY_MAX 16384    /* largest PEM key text accepted */
#define CRYPTO_KEY_ID_LEN 16    /* hex characters of a key id */

/* Lower-case hex SHA-256 of data into out (65 bytes with the NUL). */
int crypto_sha256_hex(const void *data, size_t len, char out[65]);

/*
 * A new Ed25519 key pair as PEM texts: PKCS#8 private key (unencrypted) and
 * SubjectPublicKeyInfo public key, the formats `openssl genpkey -algorithm
 * ed25519` and `openssl pkey -pubout` write. Both malloc'd and NUL-ended.
 */
int crypto_ed25519_keygen(char **priv_pem, char **pub_pem);
/* Signs the bytes of msg. -EINVAL: not an unencrypted Ed25519 private key. */
int crypto_ed25519_sign(const char *priv_pem, size_t priv_len, const void *msg,
			size_t len, uint8_t sig[CRYPTO_SIG_LEN]);
/*
 * 0 when sig is the signature of msg by the key; -EBADMSG when it is not;
 * -EINVAL when pub_pem holds no Ed25519 public key.
 */
int crypto_ed25519_verify(const char *pub_pem, size_t pub_len, const void *msg,
			  size_t len, const uint8_t sig[CRYPTO_SIG_LEN]);
/* A short id of a public key for logs: hex of SHA-256 of its raw bytes. */
int crypto_ed25519_key_id(const char *pub_pem, size_t pub_len,
			  char out[CRYPTO_KEY_ID_LEN + 1]);

/*
 * A signature file's bytes: the 64 raw bytes (as `openssl pkeyutl -sign
 * -rawin` writes them), or their base64 text with white space around it
 * (as `sbxctl policy sign` writes it). 0 or -EINVAL.
 */
int crypto_sig_decode(const void *buf, size_t len, uint8_t sig[CRYPTO_SIG_LEN]);
/* The base64 text of sig and a newline. */
void crypto_sig_encode(const uint8_t sig[CRYPTO_SIG_LEN],
		       char out[CRYPTO_SIG_B64_LEN + 2]);

#endif
