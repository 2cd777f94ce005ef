/* One TLS endpoint over memory BIOs: ciphertext and plaintext move through evbuffers, the socket stays the proxy's. */
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "daemon/proxy/tls-int.h"

#define CHUNK 16384

struct tls_end {
	SSL *ssl;
	BIO *rb, *wb;	/* owned by ssl */
	bool ready;
	char why[160];
};

static struct tls_end *
end_new(SSL *s, bool server)
{
	struct tls_end *t;

	if (s == NULL)
		return NULL;
	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->rb = BIO_new(BIO_s_mem())) == NULL ||
	    (t->wb = BIO_new(BIO_s_mem())) == NULL) {
		if (t != NULL)
			BIO_free(t->rb);
		free(t);
		SSL_free(s);
		return NULL;
	}
	/* An empty read BIO means "wait for more", not end of file. */
	BIO_set_mem_eof_return(t->rb, -1);
	BIO_set_mem_eof_return(t->wb, -1);
	SSL_set_bio(s, t->rb, t->wb);
	t->ssl = s;
	if (server)
		SSL_set_accept_state(s);
	else
		SSL_set_connect_state(s);
	return t;
}

struct tls_end *
tls_end_server(const struct host *h)
{
	return end_new(tls_ca_server_ssl(h), true);
}

struct tls_end *
tls_end_client(const struct host *h)
{
	return end_new(tls_ca_client_ssl(h), false);
}

void
tls_end_free(struct tls_end *t)
{
	if (t == NULL)
		return;
	SSL_free(t->ssl);
	free(t);
}

bool
tls_end_ready(const struct tls_end *t)
{
	return t->ready;
}

const char *
tls_end_why(const struct tls_end *t)
{
	return t->why;
}

static void
set_why(struct tls_end *t, int err)
{
	long v = SSL_get_verify_result(t->ssl);
	unsigned long e = ERR_peek_error();

	if (v != X509_V_OK)
		snprintf(t->why, sizeof(t->why), "certificate: %s",
		    X509_verify_cert_error_string(v));
	else if (e != 0)
		snprintf(t->why, sizeof(t->why), "%s",
		    ERR_reason_error_string(e) ? ERR_reason_error_string(e) :
		    "TLS error");
	else
		snprintf(t->why, sizeof(t->why), "TLS error %d", err);
	ERR_clear_error();
}

static void
out(struct tls_end *t, struct evbuffer *cout)
{
	char buf[CHUNK];
	int n;

	while ((n = BIO_read(t->wb, buf, sizeof(buf))) > 0)
		evbuffer_add(cout, buf, (size_t)n);
}

/* 0: go on, 1: close_notify, -1: error. */
static int
check(struct tls_end *t, int r)
{
	int e = SSL_get_error(t->ssl, r);

	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	if (e == SSL_ERROR_ZERO_RETURN)
		return TLS_END_CLOSED;
	set_why(t, e);
	return TLS_END_ERROR;
}

int
tls_end_pump(struct tls_end *t, struct evbuffer *cin, struct evbuffer *pout,
    struct evbuffer *pin, struct evbuffer *cout)
{
	struct evbuffer_iovec v;
	char buf[CHUNK];
	int r = 1, n, ret = TLS_END_OK;

	while (evbuffer_peek(cin, -1, NULL, &v, 1) > 0 && v.iov_len > 0) {
		n = BIO_write(t->rb, v.iov_base, (int)v.iov_len);
		if (n <= 0)
			return TLS_END_ERROR;
		evbuffer_drain(cin, (size_t)n);
	}
	if (!t->ready) {
		r = SSL_do_handshake(t->ssl);
		if (r == 1)
			t->ready = true;
		else if ((ret = check(t, r)) != 0)
			goto done;
	}
	while (t->ready && (r = SSL_read(t->ssl, buf, sizeof(buf))) > 0)
		evbuffer_add(pout, buf, (size_t)r);
	if (t->ready && r <= 0 && (ret = check(t, r)) != 0)
		goto done;
	while (t->ready && pin != NULL &&
	    evbuffer_peek(pin, -1, NULL, &v, 1) > 0 && v.iov_len > 0) {
		n = SSL_write(t->ssl, v.iov_base, (int)(v.iov_len > CHUNK ?
		    CHUNK : v.iov_len));
		if (n <= 0) {
			ret = check(t, n);
			break;
		}
		evbuffer_drain(pin, (size_t)n);
	}
done:
	out(t, cout);
	return ret;
}

void
tls_end_close(struct tls_end *t, struct evbuffer *cout)
{
	if (t->ready)
		SSL_shutdown(t->ssl);
	ERR_clear_error();
	out(t, cout);
}
