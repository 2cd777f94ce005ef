/* SigV4 re-signing of one request head (header form). Pure apart from the hashing. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "daemon/proxy/sigv4.h"

#define ALG "AWS4-HMAC-SHA256"
#define EMPTY_SHA256 \
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

struct line {
	const char *p;
	size_t len;
};

/* The head's field lines (after the request line), without CRLF. */
static size_t
lines(const char *head, size_t len, struct line *v, size_t max)
{
	const char *p = head, *end = head + len, *nl;
	size_t n = 0;

	while (n < max && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		v[n].p = p;
		v[n].len = (size_t)(nl - p) - (nl > p && nl[-1] == '\r');
		p = nl + 1;
		if (v[n].len == 0)
			break;
		n++;
	}
	return n;
}

static int
is_field(const struct line *l, const char *name, size_t nlen)
{
	return l->len > nlen && l->p[nlen] == ':' &&
	    strncasecmp(l->p, name, nlen) == 0;
}

/* The field's value, trimmed, its inner runs of spaces as one. */
static void
value(FILE *f, const struct line *l, size_t nlen)
{
	const char *p = l->p + nlen + 1, *e = l->p + l->len;
	int sp = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	for (; p < e; p++) {
		if (*p == ' ' || *p == '\t') {
			sp = 1;
			continue;
		}
		if (sp)
			fputc(' ', f);
		sp = 0;
		fputc(*p, f);
	}
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* k=v pairs sorted (a bare k is "k="), '&'-joined. */
static int
query(FILE *f, const char *q, size_t len)
{
	char *dup = strndup(q, len), *s, *save = NULL, *v[256];
	size_t n = 0, i;

	if (dup == NULL)
		return -ENOMEM;
	for (s = strtok_r(dup, "&", &save); s && n < 256;
	    s = strtok_r(NULL, "&", &save))
		v[n++] = s;
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s%s", i ? "&" : "", v[i],
		    strchr(v[i], '=') ? "" : "=");
	free(dup);
	return 0;
}

static void
hex(const unsigned char *d, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void
hmac(const void *key, size_t klen, const char *msg, unsigned char out[32])
{
	unsigned int n = 32;

	HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msg,
	    strlen(msg), out, &n);
}

/* Authorization's parts: scope (date/region/service/aws4_request) and
 * SignedHeaders, borrowed from the line. */
struct auth {
	const char *kid, *scope, *signed_h;
	size_t kid_len, scope_len, signed_len;
};

static int
parse_auth(const struct line *l, struct auth *a)
{
	const char *p = l->p + 14, *e = l->p + l->len, *c, *s, *x;

	while (p < e && *p == ' ')
		p++;
	if ((size_t)(e - p) < sizeof(ALG) || strncmp(p, ALG " ",
	    sizeof(ALG)) != 0)
		return 1;
	if ((c = memmem(p, (size_t)(e - p), "Credential=", 11)) == NULL ||
	    (s = memmem(p, (size_t)(e - p), "SignedHeaders=", 14)) == NULL)
		return -1;
	c += 11;
	s += 14;
	if ((x = memchr(c, '/', (size_t)(e - c))) == NULL)
		return -1;
	a->kid = c;
	a->kid_len = (size_t)(x - c);
	a->scope = x + 1;
	a->scope_len = strcspn(a->scope, ", \r\n");
	a->signed_h = s;
	a->signed_len = strcspn(s, ", \r\n");
	if (a->scope + a->scope_len > e || a->signed_h + a->signed_len > e)
		return -1;
	return 0;
}

static const struct line *
find(const struct line *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (is_field(&v[i], name, strlen(name)))
			return &v[i];
	return NULL;
}

/* The canonical request's hash (hex) into out. */
static int
canonical(const char *head, const struct line *v, size_t n,
    const struct auth *a, const char *payload, char out[65])
{
	const char *sp1 = strchr(head, ' '), *sp2, *qm;
	char *buf = NULL, *names, *name, *save = NULL;
	unsigned char md[32];
	size_t blen = 0, i;
	FILE *f;
	int r = 0;

	if (sp1 == NULL || (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
	    (f = open_memstream(&buf, &blen)) == NULL)
		return -EINVAL;
	qm = memchr(sp1 + 1, '?', (size_t)(sp2 - sp1 - 1));
	fprintf(f, "%.*s\n%.*s\n", (int)(sp1 - head), head,
	    (int)((qm ? qm : sp2) - sp1 - 1), sp1 + 1);
	if (qm && query(f, qm + 1, (size_t)(sp2 - qm - 1)) < 0)
		r = -ENOMEM;
	fputc('\n', f);
	names = strndup(a->signed_h, a->signed_len);
	for (name = names ? strtok_r(names, ";", &save) : NULL; name;
	    name = strtok_r(NULL, ";", &save)) {
		int first = 1;

		fprintf(f, "%s:", name);
		for (i = 0; i < n; i++)
			if (is_field(&v[i], name, strlen(name))) {
				if (!first)
					fputc(',', f);
				value(f, &v[i], strlen(name));
				first = 0;
			}
		fputc('\n', f);
	}
	fprintf(f, "\n%.*s\n%s", (int)a->signed_len, a->signed_h, payload);
	if (names == NULL)
		r = -ENOMEM;
	free(names);
	if (fclose(f) != 0 || r < 0) {
		free(buf);
		return -ENOMEM;
	}
	SHA256((const unsigned char *)buf, blen, md);
	hex(md, 32, out);
	free(buf);
	return 0;
}

static int resign(const char *head, size_t len, int has_body,
    const char *kid_sentinel, const char *kid, const char *secret,
    struct evbuffer *out, const char **why);

/* The work is done on a NUL-ended copy. */
int
sigv4_resign(const char *head, size_t len, int has_body,
    const char *kid_sentinel, const char *kid, const char *secret,
    struct evbuffer *out, const char **why)
{
	char *h = strndup(head, len);
	int r;

	if (h == NULL)
		return -ENOMEM;
	if (strlen(h) != len) {
		free(h);
		*why = "a NUL in the head";
		return -EPERM;
	}
	r = resign(h, len, has_body, kid_sentinel, kid, secret, out, why);
	free(h);
	return r;
}

static int
resign(const char *head, size_t len, int has_body,
    const char *kid_sentinel, const char *kid, const char *secret,
    struct evbuffer *out, const char **why)
{
	struct line v[128];
	const struct line *au, *date, *ph;
	struct auth a = { 0 };
	const char *nl = memchr(head, '\n', len);
	char payload[65], creq[65], sts[512], sig[65], key[256], *scope;
	unsigned char k[32];
	size_t n, i;
	const char *q = memchr(head, '?', strcspn(head, "\r\n"));
	int r = 0;

	if (nl == NULL)
		return -EINVAL;
	n = lines(nl + 1, len - (size_t)(nl + 1 - head), v, 128);
	if (q && memmem(q, strcspn(q, " "), "X-Amz-Signature=", 16)) {
		*why = "a presigned URL is not signed again";
		return -EPERM;
	}
	if ((au = find(v, n, "Authorization")) == NULL ||
	    (r = parse_auth(au, &a)) == 1 || a.kid_len != strlen(kid_sentinel)
	    || memcmp(a.kid, kid_sentinel, a.kid_len) != 0)
		return evbuffer_add(out, head, len) < 0 ? -ENOMEM : 0;
	*why = "a malformed SigV4 Authorization";
	if (r < 0 || (date = find(v, n, "x-amz-date")) == NULL)
		return -EPERM;
	if ((ph = find(v, n, "x-amz-content-sha256")) != NULL) {
		FILE *f = fmemopen(payload, sizeof(payload), "w");

		if (f == NULL)
			return -ENOMEM;
		value(f, ph, 20);
		fclose(f);
		payload[64] = '\0';
		if (strncmp(payload, "STREAMING-", 10) == 0) {
			*why = "a streaming SigV4 payload is not signed again";
			return -EPERM;
		}
	} else if (has_body) {
		*why = "SigV4 with a body is signed again only with "
		    "x-amz-content-sha256";
		return -EPERM;
	} else {
		snprintf(payload, sizeof(payload), "%s", EMPTY_SHA256);
	}
	if ((r = canonical(head, v, n, &a, payload, creq)) < 0)
		return r;
	{
		char d[32];
		FILE *f = fmemopen(d, sizeof(d), "w");

		if (f == NULL)
			return -ENOMEM;
		value(f, date, 10);
		fclose(f);
		d[31] = '\0';
		d[strcspn(d, " ")] = '\0';
		snprintf(sts, sizeof(sts), ALG "\n%s\n%.*s\n%s", d,
		    (int)a.scope_len, a.scope, creq);
	}
	/* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" secret, date), region),
	 * service), "aws4_request"), each part from the scope. */
	snprintf(key, sizeof(key), "AWS4%s", secret);
	if ((scope = strndup(a.scope, a.scope_len)) == NULL)
		return -ENOMEM;
	{
		char *part, *save = NULL;
		const void *kk = key;
		size_t kl = strlen(key);

		for (part = strtok_r(scope, "/", &save); part;
		    part = strtok_r(NULL, "/", &save)) {
			hmac(kk, kl, part, k);
			kk = k;
			kl = 32;
		}
	}
	free(scope);
	explicit_bzero(key, sizeof(key));
	hmac(k, 32, sts, k);
	hex(k, 32, sig);
	explicit_bzero(k, sizeof(k));
	/* The head with Authorization replaced. */
	r = evbuffer_add(out, head, (size_t)(au->p - head));
	r |= evbuffer_add_printf(out, "Authorization: " ALG " Credential=%s/"
	    "%.*s, SignedHeaders=%.*s, Signature=%s\r\n", kid,
	    (int)a.scope_len, a.scope, (int)a.signed_len, a.signed_h, sig) < 0;
	i = (size_t)(au->p - head) + au->len;
	i += i < len && head[i] == '\r';
	i += i < len && head[i] == '\n';
	r |= evbuffer_add(out, head + i, len - i);
	return r ? -ENOMEM : 0;
}
