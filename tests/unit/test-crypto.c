/* crypto.c: SHA-256, and the Ed25519 helpers org policies rely on. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto.h"
#include "unit.h"

static const char policy[] = "{\"serial\": 7, \"network\": "
			     "{\"deniedDomains\": [\"evil.example\"]}}\n";

static void
test_sha256(void)
{
	char hex[65];

	CHECK_INT(crypto_sha256_hex("abc", 3, hex), 0);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223"
		       "b00361a396177a9cb410ff61f20015ad");
}

static void
test_round_trip(void)
{
	char *priv = NULL, *pub = NULL, *priv2 = NULL, *pub2 = NULL;
	char id[CRYPTO_KEY_ID_LEN + 1], id2[CRYPTO_KEY_ID_LEN + 1];
	uint8_t sig[CRYPTO_SIG_LEN], bad[CRYPTO_SIG_LEN];
	char tampered[sizeof(policy)];
	size_t len = strlen(policy);

	CHECK_INT(crypto_ed25519_keygen(&priv, &pub), 0);
	CHECK_INT(crypto_ed25519_keygen(&priv2, &pub2), 0);
	CHECK(strstr(priv, "-----BEGIN PRIVATE KEY-----") == priv);
	CHECK(strstr(pub, "-----BEGIN PUBLIC KEY-----") == pub);
	CHECK_INT(crypto_ed25519_sign(priv, strlen(priv), policy, len, sig), 0);

	/* good */
	CHECK_INT(crypto_ed25519_verify(pub, strlen(pub), policy, len, sig), 0);
	/* wrong key */
	CHECK_INT(crypto_ed25519_verify(pub2, strlen(pub2), policy, len, sig),
		  -EBADMSG);
	/* one tampered byte of the policy, anywhere */
	memcpy(tampered, policy, sizeof(policy));
	tampered[11] ^= 1; /* the serial: 7 -> 6 */
	CHECK_INT(crypto_ed25519_verify(pub, strlen(pub), tampered, len, sig),
		  -EBADMSG);
	/* a byte added or cut */
	CHECK_INT(crypto_ed25519_verify(pub, strlen(pub), policy, len - 1, sig),
		  -EBADMSG);
	/* one tampered byte of the signature */
	memcpy(bad, sig, sizeof(bad));
	bad[40] ^= 0x80;
	CHECK_INT(crypto_ed25519_verify(pub, strlen(pub), policy, len, bad),
		  -EBADMSG);
	/* a private key is not a public key, and garbage is neither */
	CHECK_INT(crypto_ed25519_verify(priv, strlen(priv), policy, len, sig),
		  -EINVAL);
	CHECK_INT(crypto_ed25519_verify("junk", 4, policy, len, sig), -EINVAL);
	CHECK_INT(crypto_ed25519_sign(pub, strlen(pub), policy, len, bad),
		  -EINVAL);
	/* ids are stable per key and differ between keys */
	CHECK_INT(crypto_ed25519_key_id(pub, strlen(pub), id), 0);
	CHECK_INT(crypto_ed25519_key_id(pub2, strlen(pub2), id2), 0);
	CHECK_INT(strlen(id), CRYPTO_KEY_ID_LEN);
	CHECK(strcmp(id, id2) != 0);
	free(priv);
	free(pub);
	free(priv2);
	free(pub2);
}

/* A key made by `openssl genpkey -algorithm ed25519` (RFC 8032 test 1). */
static const char rfc_priv[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
	"-----END PRIVATE KEY-----\n";
static const char rfc_pub[] =
	"-----BEGIN PUBLIC KEY-----\n"
	"MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n"
	"-----END PUBLIC KEY-----\n";

static void
test_known_vector(void)
{
	/* RFC 8032 7.1 TEST 1: the empty message. */
	static const char want[] =
		"5VZDAMNgrHKQhuLMgG6CioSHfx645dl02HPgZSJJAVVfuIIVkKM7rMYeOXAc+b"
		"Rr0lv18FlbviRlUUFDjnoQCw==";
	uint8_t sig[CRYPTO_SIG_LEN];
	char text[CRYPTO_SIG_B64_LEN + 2];

	CHECK_INT(crypto_ed25519_sign(rfc_priv, strlen(rfc_priv), "", 0, sig),
		  0);
	crypto_sig_encode(sig, text);
	CHECK(strncmp(text, want, CRYPTO_SIG_B64_LEN) == 0);
	CHECK_INT(text[CRYPTO_SIG_B64_LEN], '\n');
	CHECK_INT(crypto_ed25519_verify(rfc_pub, strlen(rfc_pub), "", 0, sig),
		  0);
}

static void
test_sig_decode(void)
{
	uint8_t sig[CRYPTO_SIG_LEN], back[CRYPTO_SIG_LEN];
	char text[CRYPTO_SIG_B64_LEN + 2], spaced[CRYPTO_SIG_B64_LEN + 8];
	size_t i;

	for (i = 0; i < sizeof(sig); i++)
		sig[i] = (uint8_t)(i * 37 + 1);
	crypto_sig_encode(sig, text);
	CHECK_INT(crypto_sig_decode(text, strlen(text), back), 0);
	CHECK(memcmp(sig, back, sizeof(sig)) == 0);
	snprintf(spaced, sizeof(spaced), "  %s\r\n", text);
	CHECK_INT(crypto_sig_decode(spaced, strlen(spaced), back), 0);
	CHECK(memcmp(sig, back, sizeof(sig)) == 0);
	/* raw bytes */
	memset(back, 0, sizeof(back));
	CHECK_INT(crypto_sig_decode(sig, sizeof(sig), back), 0);
	CHECK(memcmp(sig, back, sizeof(sig)) == 0);
	/* wrong lengths and characters */
	CHECK_INT(crypto_sig_decode(text, 87, back), -EINVAL);
	CHECK_INT(crypto_sig_decode(sig, 63, back), -EINVAL);
	CHECK_INT(crypto_sig_decode("", 0, back), -EINVAL);
	text[10] = '*';
	CHECK_INT(crypto_sig_decode(text, CRYPTO_SIG_B64_LEN, back), -EINVAL);
}

int
main(void)
{
	test_sha256();
	test_round_trip();
	test_known_vector();
	test_sig_decode();
	UNIT_DONE();
}
