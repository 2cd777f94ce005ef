/* sbxd's inspection CA: made in memory, leaf certificates per host, and the two TLS contexts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "daemon/proxy/tls-int.h"

#define CA_DAYS 30
#define LEAF_SECS (24 * 3600)
#define LEAF_SLACK 3600		/* reissue when less than this is left */
#define LEAF_CACHE 128

struct leaf {
	char name[HOST_TEXT_MAX + 1];
	X509 *cert;
	time_t until;
	unsigned long used;
};

static struct {
	bool tried;
	EVP_PKEY *key, *leaf_key;	/* the leaf key is shared by leaves */
	X509 *cert;
	char *pem;
	SSL_CTX *server, *client;
	char *upstream_ca;
	struct leaf leaves[LEAF_CACHE];
	unsigned long clock;
} ca;

static int
set_serial(X509 *x)
{
	unsigned char b[16];
	BIGNUM *bn;
	int ok;

	if (RAND_bytes(b, sizeof(b)) != 1)
		return -1;
	b[0] &= 0x7f;	/* positive */
	if ((bn = BN_bin2bn(b, sizeof(b), NULL)) == NULL)
		return -1;
	ok = BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != NULL;
	BN_free(bn);
	return ok ? 0 : -1;
}

static int
add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX v3;
	X509_EXTENSION *e;
	int ok;

	X509V3_set_ctx(&v3, issuer, x, NULL, NULL, 0);
	if ((e = X509V3_EXT_conf_nid(NULL, &v3, nid, value)) == NULL)
		return -1;
	ok = X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	return ok ? 0 : -1;
}

/* A certificate for pub named cn, valid [now - 1h, now + secs). */
static X509 *
cert_new(EVP_PKEY *pub, const char *cn, long secs)
{
	X509 *x = X509_new();
	X509_NAME *n;

	if (x == NULL || X509_set_version(x, 2) != 1 || set_serial(x) < 0 ||
	    X509_gmtime_adj(X509_getm_notBefore(x), -3600) == NULL ||
	    X509_gmtime_adj(X509_getm_notAfter(x), secs) == NULL ||
	    X509_set_pubkey(x, pub) != 1 || (n = X509_get_subject_name(x)) ==
	    NULL || X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_UTF8,
	    (const unsigned char *)cn, -1, -1, 0) != 1) {
		X509_free(x);
		return NULL;
	}
	return x;
}

static int
ca_make(void)
{
	BIO *b = NULL;
	char *p;
	long len;
	char cn[64];

	if ((ca.key = EVP_EC_gen("P-256")) == NULL ||
	    (ca.leaf_key = EVP_EC_gen("P-256")) == NULL)
		return -ENOMEM;
	snprintf(cn, sizeof(cn), "sbx inspection CA (uid %u)",
	    (unsigned)getuid());
	if ((ca.cert = cert_new(ca.key, cn, CA_DAYS * 86400L)) == NULL ||
	    X509_set_issuer_name(ca.cert, X509_get_subject_name(ca.cert)) != 1 ||
	    add_ext(ca.cert, ca.cert, NID_basic_constraints,
	    "critical,CA:TRUE,pathlen:0") < 0 ||
	    add_ext(ca.cert, ca.cert, NID_key_usage,
	    "critical,keyCertSign,cRLSign") < 0 ||
	    add_ext(ca.cert, ca.cert, NID_subject_key_identifier, "hash") < 0 ||
	    X509_sign(ca.cert, ca.key, EVP_sha256()) == 0)
		return -EIO;
	if ((b = BIO_new(BIO_s_mem())) == NULL ||
	    PEM_write_bio_X509(b, ca.cert) != 1 ||
	    (len = BIO_get_mem_data(b, &p)) <= 0 ||
	    (ca.pem = strndup(p, (size_t)len)) == NULL) {
		BIO_free(b);
		return -ENOMEM;
	}
	BIO_free(b);
	return 0;
}

static int
alpn_select(SSL *s, const unsigned char **out, unsigned char *outlen,
    const unsigned char *in, unsigned inlen, void *arg)
{
	static const unsigned char h1[] = "\x08http/1.1";
	unsigned char *o;

	/* HTTP/2 is negotiated down: h2 framing is not inspected. */
	if (SSL_select_next_proto(&o, outlen, h1, sizeof(h1) - 1, in, inlen) !=
	    OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_NOACK;
	*out = o;
	return SSL_TLSEXT_ERR_OK;
}

static int
contexts(void)
{
	static const unsigned char h1[] = "\x08http/1.1";

	if ((ca.server = SSL_CTX_new(TLS_server_method())) == NULL ||
	    (ca.client = SSL_CTX_new(TLS_client_method())) == NULL)
		return -ENOMEM;
	SSL_CTX_set_min_proto_version(ca.server, TLS1_2_VERSION);
	SSL_CTX_set_min_proto_version(ca.client, TLS1_2_VERSION);
	SSL_CTX_set_alpn_select_cb(ca.server, alpn_select, NULL);
	SSL_CTX_set_options(ca.server, SSL_OP_NO_TICKET);
	SSL_CTX_set_verify(ca.client, SSL_VERIFY_PEER, NULL);
	if (SSL_CTX_set_default_verify_paths(ca.client) != 1 ||
	    SSL_CTX_set_alpn_protos(ca.client, h1, sizeof(h1) - 1) != 0)
		return -EIO;
	if (ca.upstream_ca != NULL &&
	    SSL_CTX_load_verify_locations(ca.client, ca.upstream_ca, NULL) != 1)
		return -ENOENT;
	return 0;
}

int
tls_ca_init(const char *upstream_ca, char *err, size_t errlen)
{
	int r;

	tls_ca_cleanup();
	if (upstream_ca != NULL && (ca.upstream_ca = strdup(upstream_ca)) ==
	    NULL)
		return -ENOMEM;
	/* Checked now so a bad file is an error at start-up. */
	if ((r = contexts()) < 0) {
		snprintf(err, errlen, "upstream CA %s: cannot load it "
		    "(a PEM certificate file)", upstream_ca ? upstream_ca :
		    "(system roots)");
		ERR_clear_error();
		return r;
	}
	return 0;
}

void
tls_ca_cleanup(void)
{
	size_t i;

	for (i = 0; i < LEAF_CACHE; i++)
		X509_free(ca.leaves[i].cert);
	EVP_PKEY_free(ca.key);
	EVP_PKEY_free(ca.leaf_key);
	X509_free(ca.cert);
	SSL_CTX_free(ca.server);
	SSL_CTX_free(ca.client);
	free(ca.pem);
	free(ca.upstream_ca);
	memset(&ca, 0, sizeof(ca));
	tls_jks_free();
}

/* The CA, made on first use. */
static bool
ca_ready(void)
{
	if (ca.cert != NULL)
		return true;
	if (ca.tried)
		return false;
	ca.tried = true;
	if ((ca.server == NULL && contexts() < 0) || ca_make() < 0) {
		ERR_clear_error();
		return false;
	}
	return true;
}

const char *
tls_ca_pem(void)
{
	return ca_ready() ? ca.pem : NULL;
}

static X509 *
leaf_new(const struct host *h)
{
	char san[HOST_TEXT_MAX + 8];
	X509 *x;

	snprintf(san, sizeof(san), "%s:%s", h->kind == HOST_NAME ? "DNS" :
	    "IP", h->text);
	if ((x = cert_new(ca.leaf_key, h->text, LEAF_SECS)) == NULL)
		return NULL;
	if (X509_set_issuer_name(x, X509_get_subject_name(ca.cert)) != 1 ||
	    add_ext(x, ca.cert, NID_basic_constraints, "critical,CA:FALSE") < 0 ||
	    add_ext(x, ca.cert, NID_key_usage, "critical,digitalSignature") < 0 ||
	    add_ext(x, ca.cert, NID_ext_key_usage, "serverAuth") < 0 ||
	    add_ext(x, ca.cert, NID_subject_alt_name, san) < 0 ||
	    add_ext(x, ca.cert, NID_authority_key_identifier, "keyid") < 0 ||
	    X509_sign(x, ca.key, EVP_sha256()) == 0) {
		X509_free(x);
		return NULL;
	}
	return x;
}

/* h's leaf from the cache (least recently used goes), or a new one. */
static X509 *
leaf_get(const struct host *h)
{
	struct leaf *l, *old = &ca.leaves[0];
	time_t now = time(NULL);
	size_t i;

	for (i = 0; i < LEAF_CACHE; i++) {
		l = &ca.leaves[i];
		if (l->cert != NULL && strcmp(l->name, h->text) == 0 &&
		    now + LEAF_SLACK < l->until) {
			l->used = ++ca.clock;
			return l->cert;
		}
		if (l->used < old->used)
			old = l;
	}
	X509_free(old->cert);
	memset(old, 0, sizeof(*old));
	if ((old->cert = leaf_new(h)) == NULL)
		return NULL;
	snprintf(old->name, sizeof(old->name), "%s", h->text);
	old->until = now + LEAF_SECS;
	old->used = ++ca.clock;
	return old->cert;
}

SSL *
tls_ca_server_ssl(const struct host *h)
{
	X509 *leaf;
	SSL *s;

	if (!ca_ready() || (leaf = leaf_get(h)) == NULL ||
	    (s = SSL_new(ca.server)) == NULL)
		return NULL;
	if (SSL_use_certificate(s, leaf) != 1 ||
	    SSL_use_PrivateKey(s, ca.leaf_key) != 1 ||
	    SSL_add1_chain_cert(s, ca.cert) != 1) {
		SSL_free(s);
		return NULL;
	}
	return s;
}

SSL *
tls_ca_client_ssl(const struct host *h)
{
	SSL *s;

	if (ca.client == NULL && contexts() < 0)
		return NULL;
	if ((s = SSL_new(ca.client)) == NULL)
		return NULL;
	if (h->kind == HOST_NAME) {
		if (SSL_set_tlsext_host_name(s, h->text) != 1 ||
		    SSL_set1_host(s, h->text) != 1) {
			SSL_free(s);
			return NULL;
		}
	} else if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s),
	    h->text) != 1) {
		SSL_free(s);
		return NULL;
	}
	return s;
}
