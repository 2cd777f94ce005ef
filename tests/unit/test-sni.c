/* Unit tests for sni.c: real OpenSSL ClientHellos, fragmented and hostile ones. */
#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "daemon/proxy/sni.h"
#include "unit.h"

static struct sni_hello hello;
static size_t need;
static const char *why;

/* --- building ClientHellos by hand ------------------------------------- */

struct buf {
	uint8_t	 b[70000];
	size_t	 n;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void
put_be(struct buf *b, size_t v, size_t n)
{
	while (n-- > 0)
		b->b[b->n++] = (uint8_t)(v >> (8 * n));
}

/* server_name extension data holding one name (or raw bytes). */
static void
sni_ext(struct buf *e, const char *name, size_t len)
{
	put_be(e, 0, 2);
	put_be(e, len + 5, 2);
	put_be(e, len + 3, 2);
	put_be(e, 0, 1);
	put_be(e, len, 2);
	put(e, name, len);
}

/* Handshake message: ClientHello with the given extensions block. */
static void
client_hello(struct buf *hs, const struct buf *ext, bool with_ext)
{
	static const uint8_t suites[] = { 0, 4, 0x13, 0x01, 0x13, 0x02 };
	static const uint8_t comp[] = { 1, 0 };
	size_t body = 2 + 32 + 1 + 32 + sizeof(suites) + sizeof(comp) +
	    (with_ext ? 2 + ext->n : 0);

	hs->n = 0;
	put_be(hs, 1, 1);
	put_be(hs, body, 3);
	put_be(hs, 0x0303, 2);
	memset(hs->b + hs->n, 0xaa, 32 + 1 + 32);
	hs->b[hs->n + 32] = 32;		/* session id length */
	hs->n += 32 + 1 + 32;
	put(hs, suites, sizeof(suites));
	put(hs, comp, sizeof(comp));
	if (with_ext) {
		put_be(hs, ext->n, 2);
		put(hs, ext->b, ext->n);
	}
}

/* Wrap a handshake stream in records of at most frag bytes. */
static void
records(struct buf *out, const struct buf *hs, size_t frag)
{
	size_t o, n;

	out->n = 0;
	for (o = 0; o < hs->n; o += n) {
		n = hs->n - o < frag ? hs->n - o : frag;
		put_be(out, 0x16, 1);
		put_be(out, 0x0301, 2);
		put_be(out, n, 2);
		put(out, hs->b + o, n);
	}
}

static struct buf ext, hs, rec;

/* A one-record ClientHello naming name, plus extra extensions. */
static void
simple(const char *name, size_t len, const struct buf *extra)
{
	ext.n = 0;
	if (extra != NULL)
		put(&ext, extra->b, extra->n);
	if (name != NULL)
		sni_ext(&ext, name, len);
	client_hello(&hs, &ext, true);
	records(&rec, &hs, 16384);
}

static int
parse(const struct buf *b)
{
	memset(&hello, 0, sizeof(hello));
	why = NULL;
	need = 0;
	return sni_parse(b->b, b->n, &hello, &need, &why);
}

/* --- real ClientHellos from OpenSSL ------------------------------------- */

static size_t
openssl_hello(const char *name, int max_version, uint8_t *out, size_t size)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *ssl = SSL_new(ctx);
	BIO *rbio = BIO_new(BIO_s_mem()), *wbio = BIO_new(BIO_s_mem());
	int n;

	SSL_set_bio(ssl, rbio, wbio);
	SSL_set_max_proto_version(ssl, max_version);
	if (name != NULL)
		SSL_set_tlsext_host_name(ssl, name);
	SSL_set_connect_state(ssl);
	(void)SSL_do_handshake(ssl);	/* wants to read: hello is written */
	n = BIO_read(wbio, out, (int)size);
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	return n > 0 ? (size_t)n : 0;
}

static void
test_openssl(void)
{
	static const int versions[] = { TLS1_2_VERSION, TLS1_3_VERSION };
	static struct buf b;
	size_t i, v;

	for (v = 0; v < 2; v++) {
		b.n = openssl_hello("Api.Example.COM", versions[v], b.b,
		    sizeof(b.b));
		CHECK(b.n > 100);
		CHECK_INT(parse(&b), SNI_FOUND);
		CHECK_STR(hello.host.text, "api.example.com");
		CHECK(!hello.ech);
		/* Every prefix needs more, and says how much at least. */
		for (i = 0; i < b.n; i++) {
			need = 0;
			CHECK_INT(sni_parse(b.b, i, &hello, &need, &why),
			    SNI_NEED_MORE);
			CHECK(need > i && need <= b.n);
		}
		b.n = openssl_hello(NULL, versions[v], b.b, sizeof(b.b));
		CHECK_INT(parse(&b), SNI_NO_SNI);
	}
	b.n = openssl_hello("10.1.2.3", TLS1_3_VERSION, b.b, sizeof(b.b));
	if (parse(&b) == SNI_FOUND)	/* OpenSSL may leave IPs out */
		CHECK_INT(hello.host.kind, HOST_IPV4);
}

/* --- hand-built ones ---------------------------------------------------- */

static void
test_found(void)
{
	static struct buf extra, big;
	size_t frag;

	simple("Example.COM.", 12, NULL);
	CHECK_INT(parse(&rec), SNI_FOUND);
	CHECK_STR(hello.host.text, "example.com");
	CHECK_INT(hello.host.kind, HOST_NAME);

	/* Bytes after the ClientHello do not matter. */
	put(&rec, "\x17\x03\x03\x00\x01X", 6);
	CHECK_INT(parse(&rec), SNI_FOUND);

	/* Split over records of any size up to the limit of 16 records. */
	for (frag = hs.n / SNI_RECORDS_MAX + 1; frag <= hs.n; frag += 7) {
		records(&rec, &hs, frag);
		CHECK_INT(parse(&rec), SNI_FOUND);
		CHECK_STR(hello.host.text, "example.com");
	}
	records(&rec, &hs, hs.n / SNI_RECORDS_MAX);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "ClientHello spread over too many records");
	records(&rec, &hs, 1);
	CHECK_INT(parse(&rec), SNI_MALFORMED);

	/* ECH: the outer name is reported and flagged. */
	extra.n = 0;
	put(&extra, "\xfe\x0d\x00\x02\x00\x00", 6);
	simple("public.example", 14, &extra);
	CHECK_INT(parse(&rec), SNI_FOUND);
	CHECK(hello.ech);

	/* Other extensions around it; an address literal is canonical too. */
	extra.n = 0;
	put(&extra, "\x00\x0a\x00\x04\x00\x02\x00\x1d", 8);
	put(&extra, "\xff\x01\x00\x00", 4);
	simple("0x7f.1", 6, &extra);
	CHECK_INT(parse(&rec), SNI_FOUND);
	CHECK_STR(hello.host.text, "127.0.0.1");

	/* A ClientHello of 20 KiB spans two full records. */
	big.n = 0;
	put(&big, "\x00\x15", 2);		/* padding */
	put_be(&big, 20000, 2);
	memset(big.b + big.n, 0, 20000);
	big.n += 20000;
	simple("big.example", 11, &big);
	CHECK_INT(parse(&rec), SNI_FOUND);
	CHECK_STR(hello.host.text, "big.example");
}

static void
test_no_sni(void)
{
	static struct buf extra;

	client_hello(&hs, &ext, false);		/* no extensions at all */
	records(&rec, &hs, 16384);
	CHECK_INT(parse(&rec), SNI_NO_SNI);
	extra.n = 0;
	put(&extra, "\x00\x0a\x00\x04\x00\x02\x00\x1d", 8);
	simple(NULL, 0, &extra);
	CHECK_INT(parse(&rec), SNI_NO_SNI);
	ext.n = 0;
	client_hello(&hs, &ext, true);		/* empty extensions block */
	records(&rec, &hs, 16384);
	CHECK_INT(parse(&rec), SNI_NO_SNI);
}

static void
test_not_tls(void)
{
	static const char *const in[] = {
		"GET / HTTP/1.1\r\n", "SSH-2.0-OpenSSH_9.6\r\n", "\x80\x2e\x01",
		"\x15\x03\x01\x00\x02\x02\x28", "\x17\x03\x03",
	};
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK_INT(sni_parse((const uint8_t *)in[i], strlen(in[i]),
		    &hello, &need, &why), SNI_NOT_TLS);
	CHECK_INT(sni_parse((const uint8_t *)"", 0, &hello, &need, &why),
	    SNI_NEED_MORE);
	CHECK_INT(need, 5);
}

/* Replace bytes of the one-record hello at handshake offset off. */
static int
patched(size_t off, const void *p, size_t n)
{
	simple("example.com", 11, NULL);
	memcpy(rec.b + 5 + off, p, n);
	return parse(&rec);
}

#define BAD_AT(off, bytes, n, reason)                                        \
	do {                                                                 \
		CHECK_INT(patched(off, bytes, n), SNI_MALFORMED);            \
		CHECK(why != NULL && strstr(why, reason) != NULL);           \
	} while (0)

static void
test_malformed(void)
{
	static struct buf extra;
	size_t ext_at = 4 + 2 + 32 + 1 + 32 + 6 + 2;	/* extensions length */
	size_t sni_at = ext_at + 2;			/* first extension */
	uint8_t big[300];

	/* Record layer. */
	simple("example.com", 11, NULL);
	rec.b[1] = 2;
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "not a TLS handshake record");
	rec.b[1] = 3, rec.b[2] = 5;
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	rec.b[2] = 1, rec.b[3] = 0, rec.b[4] = 0;
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "bad TLS record length");
	rec.b[3] = 0x40, rec.b[4] = 0x01;
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	/* A non-handshake record before the ClientHello is complete. */
	records(&rec, &hs, 40);
	rec.b[45] = 0x17;
	CHECK_INT(parse(&rec), SNI_MALFORMED);

	/* Handshake header. */
	BAD_AT(0, "\x02", 1, "not a ClientHello");
	BAD_AT(1, "\x00\x80\x01", 3, "too large");
	/* Body fields. */
	BAD_AT(4, "\x02", 1, "malformed ClientHello");		/* version */
	BAD_AT(4 + 34, "\x21", 1, "malformed ClientHello");	/* sid 33 */
	BAD_AT(4 + 34 + 33, "\x00\x03", 2, "malformed ClientHello");
	BAD_AT(4 + 34 + 33, "\x00\x00", 2, "malformed ClientHello");
	BAD_AT(4 + 34 + 33 + 6, "\x00", 1, "malformed ClientHello");
	BAD_AT(ext_at, "\x00\x01", 2, "extensions do not fill");
	BAD_AT(ext_at, "\xff\xff", 2, "extensions do not fill");
	/* server_name body. */
	BAD_AT(sni_at + 4, "\x00\x0f", 2, "exactly one host_name");
	BAD_AT(sni_at + 6, "\x01", 1, "exactly one host_name");
	BAD_AT(sni_at + 7, "\x00\x0a", 2, "exactly one host_name");
	BAD_AT(sni_at + 2, "\x00\xff", 2, "truncated extension");

	/* Two names in one list; two server_name extensions. */
	ext.n = 0;
	put(&ext, "\x00\x00\x00\x0e\x00\x0c\x00\x00\x03" "a.b" "\x00\x00\x03"
	    "c.d", 18);
	client_hello(&hs, &ext, true);
	records(&rec, &hs, 16384);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "server_name must hold exactly one host_name");
	extra.n = 0;
	sni_ext(&extra, "good.example", 12);
	simple("evil.example", 12, &extra);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "two server_name extensions");

	/* The name itself. */
	simple("", 0, NULL);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	simple("good.com\0.evil", 14, NULL);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "NUL byte in host");
	simple("a b", 3, NULL);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	simple("b\xc3\xbc" "cher.de", 9, NULL);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	memset(big, 'a', sizeof(big));
	simple((const char *)big, sizeof(big), NULL);
	CHECK_INT(parse(&rec), SNI_MALFORMED);
	CHECK_STR(why, "server name too long");
}

int
main(void)
{
	test_openssl();
	test_found();
	test_no_sni();
	test_not_tls();
	test_malformed();
	UNIT_DONE();
}
