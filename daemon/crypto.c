/* The one place sbx calls OpenSSL: hashing, and Ed25519 keys and signatures
 * for org policies (the daemon verifies; sbxctl makes keys and signs). */
#include <errno.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto.h"

int
crypto_sha256_hex(const void *data, size_t len, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	/* Fetched once: an implicit fetch (EVP_sha256()) looks the
	 * algorithm up again on every call, and every spawn hashes. */
	static EVP_MD *sha256;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (!sha256 && !(sha256 = EVP_MD_fetch(NULL, "SHA256", NULL)))
		return -EIO;
	if (!EVP_Digest(data, len, md, &n, sha256, NULL) || n != 32)
		return -EIO;
	for (i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
	return 0;
}

/* Never prompt for a passphrase (a daemon has no terminal, and a test must
 * not hang): an encrypted key simply fails to load. */
static int
no_passphrase(char *buf, int size, int rwflag, void *u)
{
	return 0;
}

/* The Ed25519 key in a PEM text, private or public; NULL if it is not one. */
static EVP_PKEY *
load_key(const char *pem, size_t len, bool private)
{
	EVP_PKEY *k = NULL;
	BIO *b;

	if (len > CRYPTO_KEY_MAX || len > (size_t)0x7fffffff)
		return NULL;
	b = BIO_new_mem_buf(pem, (int)len);
	if (b)
		k = private ? PEM_read_bio_PrivateKey(b, NULL, no_passphrase,
						      NULL) :
			      PEM_read_bio_PUBKEY(b, NULL, no_passphrase, NULL);
	BIO_free(b);
	if (k && EVP_PKEY_id(k) != EVP_PKEY_ED25519) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	ERR_clear_error();
	return k;
}

/* The PEM text of k (public or PKCS#8 private), malloc'd and NUL-ended. */
static int
write_pem(EVP_PKEY *k, bool private, char **out)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *data;
	long n;
	int r = -EIO;

	if (!b)
		return -ENOMEM;
	if (private ? PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL) :
		      PEM_write_bio_PUBKEY(b, k)) {
		n = BIO_get_mem_data(b, &data);
		if (n > 0 && (*out = malloc((size_t)n + 1))) {
			memcpy(*out, data, (size_t)n);
			(*out)[n] = '\0';
			r = 0;
		} else
			r = -ENOMEM;
	}
	BIO_free(b);
	ERR_clear_error();
	return r;
}

int
crypto_ed25519_keygen(char **priv_pem, char **pub_pem)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	EVP_PKEY *k = NULL;
	char *priv = NULL, *pub = NULL;
	int r = -EIO;

	if (ctx && EVP_PKEY_keygen_init(ctx) > 0 && EVP_PKEY_keygen(ctx, &k) > 0)
		r = 0;
	if (r == 0 && (r = write_pem(k, true, &priv)) == 0 &&
	    (r = write_pem(k, false, &pub)) < 0) {
		free(priv);
		priv = NULL;
	}
	EVP_PKEY_free(k);
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	if (r < 0)
		return r;
	*priv_pem = priv;
	*pub_pem = pub;
	return 0;
}

/* One Ed25519 signing or verification with k, which it frees. Ed25519
 * works on the message itself (no separate digest). */
static int
one_shot(EVP_PKEY *k, bool sign, const void *msg, size_t len, uint8_t *sig)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	size_t n = CRYPTO_SIG_LEN;
	int r;

	if (!md)
		r = -ENOMEM;
	else if (sign)
		r = EVP_DigestSignInit(md, NULL, NULL, NULL, k) > 0 &&
		    EVP_DigestSign(md, sig, &n, msg, len) > 0 &&
		    n == CRYPTO_SIG_LEN ? 0 : -EIO;
	else
		r = EVP_DigestVerifyInit(md, NULL, NULL, NULL, k) > 0 &&
		    EVP_DigestVerify(md, sig, CRYPTO_SIG_LEN, msg, len) == 1 ?
		    0 : -EBADMSG;
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(k);
	ERR_clear_error();
	return r;
}

int
crypto_ed25519_sign(const char *priv_pem, size_t priv_len, const void *msg,
		    size_t len, uint8_t sig[CRYPTO_SIG_LEN])
{
	EVP_PKEY *k = load_key(priv_pem, priv_len, true);

	return k ? one_shot(k, true, msg, len, sig) : -EINVAL;
}

int
crypto_ed25519_verify(const char *pub_pem, size_t pub_len, const void *msg,
		      size_t len, const uint8_t sig[CRYPTO_SIG_LEN])
{
	EVP_PKEY *k = load_key(pub_pem, pub_len, false);

	return k ? one_shot(k, false, msg, len, (uint8_t *)sig) : -EINVAL;
}

int
crypto_ed25519_key_id(const char *pub_pem, size_t pub_len,
		      char out[CRYPTO_KEY_ID_LEN + 1])
{
	EVP_PKEY *k = load_key(pub_pem, pub_len, false);
	unsigned char raw[32];
	size_t n = sizeof(raw);
	char hex[65];
	int r = -EINVAL;

	if (k && EVP_PKEY_get_raw_public_key(k, raw, &n) > 0 && n == 32 &&
	    crypto_sha256_hex(raw, n, hex) == 0) {
		memcpy(out, hex, CRYPTO_KEY_ID_LEN);
		out[CRYPTO_KEY_ID_LEN] = '\0';
		r = 0;
	}
	EVP_PKEY_free(k);
	ERR_clear_error();
	return r;
}

static bool
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
crypto_sig_decode(const void *buf, size_t len, uint8_t sig[CRYPTO_SIG_LEN])
{
	const unsigned char *p = buf;
	unsigned char text[CRYPTO_SIG_B64_LEN + 1], out[CRYPTO_SIG_B64_LEN];

	/* Raw, as `openssl pkeyutl -sign -rawin` writes it. */
	if (len == CRYPTO_SIG_LEN) {
		memcpy(sig, buf, CRYPTO_SIG_LEN);
		return 0;
	}
	while (len > 0 && is_space(p[0])) {
		p++;
		len--;
	}
	while (len > 0 && is_space(p[len - 1]))
		len--;
	/* Base64 of 64 bytes is 88 characters, with "==" at the end;
	 * EVP_DecodeBlock keeps the padding bytes as zeros. */
	if (len != CRYPTO_SIG_B64_LEN || p[86] != '=' || p[87] != '=')
		return -EINVAL;
	memcpy(text, p, len);
	text[len] = '\0';
	if (EVP_DecodeBlock(out, text, (int)len) != 66 || out[64] || out[65])
		return -EINVAL;
	memcpy(sig, out, CRYPTO_SIG_LEN);
	return 0;
}

void
crypto_sig_encode(const uint8_t sig[CRYPTO_SIG_LEN],
		  char out[CRYPTO_SIG_B64_LEN + 2])
{
	EVP_EncodeBlock((unsigned char *)out, sig, CRYPTO_SIG_LEN);
	out[CRYPTO_SIG_B64_LEN] = '\n';
	out[CRYPTO_SIG_B64_LEN + 1] = '\0';
}
