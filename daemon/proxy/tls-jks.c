/* Java's trust store for sandboxes with inspection on: the system's roots and sbx's CA as a JKS file, made once per CA. */

/*
 * Java reads neither SSL_CERT_FILE nor the PEM bundles: its trust store
 * is the JDK's lib/security/cacerts (Debian's links to
 * /etc/ssl/certs/java/cacerts, made from the same roots). A PKCS12 store
 * would need Oracle's trusted-key-usage attribute on each certificate
 * (OpenSSL 3.0 has no -jdktrust), and keytool costs a JVM start; JKS, the
 * format Debian ships, is a flat layout every JDK reads as its default
 * trust store (keystore.type.compat), written here from the system's
 * bundle and the CA. Its digest is keyed with "changeit" like the
 * distributions' (the JVM loads a trust store without a password and
 * skips it; keytool checks it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "daemon/proxy/env.h"
#include "daemon/proxy/tls-int.h"

#define JKS_MAGIC 0xfeedfeedu
#define JKS_TRUSTED 2
#define JKS_MAX (16 * 1024 * 1024)

struct out {
	unsigned char *v;
	size_t len, cap;
	int err;
};

static struct {
	const char *pem;	/* the CA it was made for */
	struct out o;
} jks;

static void
put(struct out *o, const void *p, size_t n)
{
	unsigned char *v;
	size_t cap;

	if (o->err)
		return;
	if (o->len + n > JKS_MAX) {
		o->err = -EFBIG;
		return;
	}
	if (o->len + n > o->cap) {
		cap = o->cap ? o->cap : 65536;
		while (cap < o->len + n)
			cap *= 2;
		if ((v = realloc(o->v, cap)) == NULL) {
			o->err = -ENOMEM;
			return;
		}
		o->v = v;
		o->cap = cap;
	}
	memcpy(o->v + o->len, p, n);
	o->len += n;
}

/* Big-endian, as Java's DataOutputStream. */
static void
be(struct out *o, uint64_t x, size_t n)
{
	unsigned char b[8];
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(x >> (8 * (n - 1 - i)));
	put(o, b, n);
}

/* writeUTF: a 16-bit length, then the bytes (ASCII here). */
static void
utf(struct out *o, const char *s)
{
	be(o, strlen(s), 2);
	put(o, s, strlen(s));
}

/* Each certificate of b as a trusted entry "PREFIX-N"; *n counts them.
 * The DER goes as it is (no X509 parse: the JVM checks it). */
static void
entries(struct out *o, BIO *b, const char *prefix, uint32_t *n,
    uint64_t ms)
{
	unsigned char *der;
	char alias[64], *name, *header;
	long len;

	while (PEM_read_bio(b, &name, &header, &der, &len) == 1) {
		if (strcmp(name, PEM_STRING_X509) == 0 && len > 0) {
			snprintf(alias, sizeof(alias), "%s-%u", prefix, *n);
			be(o, JKS_TRUSTED, 4);
			utf(o, alias);
			be(o, ms, 8);
			utf(o, "X.509");
			be(o, (uint64_t)len, 4);
			put(o, der, (size_t)len);
			(*n)++;
		}
		OPENSSL_free(name);
		OPENSSL_free(header);
		OPENSSL_free(der);
	}
	/* The end of the PEM data is an error on OpenSSL's queue. */
	ERR_clear_error();
}

/* SHA-1 of the password (UTF-16BE), "Mighty Aphrodite" and the store. */
static void
digest(struct out *o)
{
	static const unsigned char pw[] = { 0, 'c', 0, 'h', 0, 'a', 0, 'n',
	    0, 'g', 0, 'e', 0, 'i', 0, 't' };
	static const char salt[] = "Mighty Aphrodite";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	EVP_MD_CTX *c;

	if (o->err)
		return;
	if ((c = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(c, EVP_sha1(), NULL) != 1 ||
	    EVP_DigestUpdate(c, pw, sizeof(pw)) != 1 ||
	    EVP_DigestUpdate(c, salt, sizeof(salt) - 1) != 1 ||
	    EVP_DigestUpdate(c, o->v, o->len) != 1 ||
	    EVP_DigestFinal_ex(c, md, &n) != 1)
		o->err = -ENOMEM;
	EVP_MD_CTX_free(c);
	put(o, md, n);
}

/* The store for the CA pem: the system's first bundle, then pem.
 * -ENOENT: no system roots. */
static int
make(const char *pem, struct out *o)
{
	const char *bundle = proxy_ca_bundle();
	uint64_t ms = (uint64_t)time(NULL) * 1000;
	uint32_t n = 0;
	unsigned k;
	FILE *f;
	BIO *b;

	be(o, JKS_MAGIC, 4);
	be(o, 2, 4);
	be(o, 0, 4);		/* the count, set below */
	if (bundle != NULL && (f = fopen(bundle, "re")) != NULL) {
		if ((b = BIO_new_fp(f, BIO_CLOSE)) == NULL) {
			fclose(f);
			return -ENOMEM;
		}
		entries(o, b, "system", &n, ms);
		BIO_free(b);
	}
	/* Without the system's roots the store would trust sbx's CA
	 * alone and break Java towards every host that is not inspected. */
	if (n == 0)
		return o->err ? o->err : -ENOENT;
	if ((b = BIO_new_mem_buf(pem, -1)) == NULL)
		return -ENOMEM;
	entries(o, b, "sbx-inspection-ca", &n, ms);
	BIO_free(b);
	for (k = 0; o->err == 0 && k < 4; k++)
		o->v[8 + k] = (unsigned char)(n >> (24 - 8 * k));
	digest(o);
	return o->err;
}

const void *
tls_ca_java(size_t *len)
{
	const char *pem = tls_ca_pem();
	struct out o = { 0 };

	if (pem == NULL)
		return NULL;
	if (jks.pem != pem) {
		if (make(pem, &o) < 0) {
			free(o.v);
			return NULL;
		}
		tls_jks_free();
		jks.o = o;
		jks.pem = pem;
	}
	*len = jks.o.len;
	return jks.o.v;
}

void
tls_jks_free(void)
{
	free(jks.o.v);
	memset(&jks, 0, sizeof(jks));
}
