/* A credential's sentinel in a request body replaced by its value as the body passes, when the credential's rule says so. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/cred-body.h"

static bool
in_body(const struct cred *c, const struct host *h, uint16_t port)
{
	return c->body && c->kid == NULL && cred_for(c, h, port);
}

bool
cred_body_for(const struct cred_set *s, const struct host *h, uint16_t port)
{
	size_t i;

	for (i = 0; s != NULL && i < s->n; i++)
		if (in_body(&s->v[i], h, port))
			return true;
	return false;
}

/* Sentinels in w[0..n) become values; returns where the last one ended
 * (a value's bytes are never looked at again). */
static size_t
replace(const struct cred_set *s, const struct host *h, uint16_t port,
    char *w, size_t n)
{
	const struct cred *c;
	size_t i, done = 0;
	char *p;

	for (i = 0; i < s->n; i++) {
		c = &s->v[i];
		if (!in_body(c, h, port))
			continue;
		for (p = w; (p = memmem(p, n - (size_t)(p - w), c->sentinel,
		    c->len)) != NULL; p += c->len) {
			memcpy(p, c->real, c->len);
			if ((size_t)(p - w) + c->len > done)
				done = (size_t)(p - w) + c->len;
		}
	}
	return done;
}

/* The longest tail of w[from..n) that begins a body sentinel (shorter
 * than it: a whole one was replaced). */
static size_t
tail(const struct cred_set *s, const struct host *h, uint16_t port,
    const char *w, size_t from, size_t n)
{
	const struct cred *c;
	size_t i, k, hold = 0;

	for (i = 0; i < s->n; i++) {
		c = &s->v[i];
		if (!in_body(c, h, port))
			continue;
		for (k = c->len - 1; k > hold; k--)
			if (k <= n - from &&
			    memcmp(w + n - k, c->sentinel, k) == 0) {
				hold = k;
				break;
			}
	}
	return hold;
}

int
cred_body_pass(const struct cred_set *s, const struct host *h,
    uint16_t port, struct cred_body *b, const char *buf, size_t len,
    bool end, struct evbuffer *out)
{
	size_t n = b->nhold + len, done, hold;
	char *w;
	int r = 0;

	if (n == 0)
		return 0;
	if ((w = malloc(n)) == NULL)
		return -ENOMEM;
	memcpy(w, b->hold, b->nhold);
	if (len > 0)		/* buf may be NULL then */
		memcpy(w + b->nhold, buf, len);
	done = replace(s, h, port, w, n);
	hold = end ? 0 : tail(s, h, port, w, done, n);
	if (evbuffer_add(out, w, n - hold) < 0)
		r = -ENOMEM;
	else {
		memcpy(b->hold, w + n - hold, hold);
		b->nhold = hold;
	}
	/* The values were in w. */
	explicit_bzero(w, n);
	free(w);
	return r;
}
