/* Credentials by reference: the run's set, sentinels, and the rewrites on the wire. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "daemon/policy/credential.h"
#include "daemon/policy/reqrule.h"
#include "daemon/proxy/cred.h"
#include "daemon/proxy/sigv4.h"

void
cred_sentinel(const char *real, size_t len, const uint8_t *rnd, char *out)
{
	static const char lower[] = "abcdefghijklmnopqrstuvwxyz",
	    upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", digit[] = "0123456789";
	size_t i = 0, keep;
	unsigned char c;

	/* A prefix such as "ghp_" or "sk-" says what the token is. */
	for (keep = 0; keep < len && keep < 8 &&
	    ((real[keep] >= 'a' && real[keep] <= 'z') ||
	    (real[keep] >= 'A' && real[keep] <= 'Z')); keep++)
		;
	if (keep < len && (real[keep] == '_' || real[keep] == '-') &&
	    keep + 1 < len)
		i = keep + 1;
	memcpy(out, real, i);
	for (; i < len; i++) {
		c = (unsigned char)real[i];
		if (c >= 'a' && c <= 'z')
			out[i] = lower[rnd[i] % 26];
		else if (c >= 'A' && c <= 'Z')
			out[i] = upper[rnd[i] % 26];
		else if (c >= '0' && c <= '9')
			out[i] = digit[rnd[i] % 10];
		else
			out[i] = (char)c;
	}
}

static void
cred_clear(struct cred *c)
{
	if (c->real)
		explicit_bzero(c->real, c->len);
	free(c->id);
	free(c->real);
	free(c->sentinel);
	free(c->env);
	free(c->hosts);
	free(c->header);
	free(c->format);
	free(c->kid);
	free(c->kid_sentinel);
	free(c->kid_env);
}

void
cred_set_free(struct cred_set *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++)
		cred_clear(&s->v[i]);
	free(s->v);
	free(s);
}

/* The value of variable name in env, or NULL. */
static const char *
env_get(char *const *env, size_t n, const char *name)
{
	size_t i, k = strlen(name);

	for (i = 0; i < n; i++)
		if (strncmp(env[i], name, k) == 0 && env[i][k] == '=')
			return env[i] + k + 1;
	return NULL;
}

/* One credential whose secret is v[0..len). */
static int
make(const struct policy_cred *pc, const char *v, size_t len, struct cred *c,
    char *err, size_t errlen)
{
	uint8_t rnd[POLICY_CRED_MAX];
	const char *why;
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f || v[i] == ' ')
			break;
	if (len == 0 || len > POLICY_CRED_MAX || i < len) {
		snprintf(err, errlen, "credential %s: the value must be 1 to "
		    "%d bytes with no spaces or control characters", pc->id,
		    POLICY_CRED_MAX);
		return -EINVAL;
	}
	c->len = len;
	c->body = pc->body != 0;
	if ((c->id = strdup(pc->id)) == NULL ||
	    (c->real = strndup(v, len)) == NULL ||
	    (c->sentinel = calloc(1, len + 1)) == NULL ||
	    (c->hosts = calloc(pc->nhosts, sizeof(*c->hosts))) == NULL ||
	    (c->header = strdup(pc->header)) == NULL ||
	    (c->format = strdup(pc->format)) == NULL)
		return -ENOMEM;
	do {
		if (getrandom(rnd, len, 0) != (ssize_t)len)
			return -EIO;
		cred_sentinel(v, len, rnd, c->sentinel);
	} while (memcmp(c->sentinel, v, len) == 0);
	if (pc->env && asprintf(&c->env, "%s=%s", pc->env, c->sentinel) < 0) {
		c->env = NULL;
		return -ENOMEM;
	}
	for (; c->nhosts < pc->nhosts; c->nhosts++)
		if (netrule_parse(pc->hosts[c->nhosts],
		    strlen(pc->hosts[c->nhosts]), &c->hosts[c->nhosts],
		    &why) < 0)
			return -EINVAL;
	return 0;
}

/* A SigV4 credential's access key id, and its sentinel. */
static int
make_kid(const struct policy_cred *pc, const char *kid, struct cred *c)
{
	uint8_t rnd[POLICY_CRED_MAX];
	size_t len = strlen(kid);

	if (len == 0 || len > 128)
		return -EINVAL;
	if ((c->kid = strdup(kid)) == NULL ||
	    (c->kid_sentinel = calloc(1, len + 1)) == NULL)
		return -ENOMEM;
	do {
		if (getrandom(rnd, len, 0) != (ssize_t)len)
			return -EIO;
		cred_sentinel(kid, len, rnd, c->kid_sentinel);
	} while (strcmp(c->kid_sentinel, kid) == 0);
	if (asprintf(&c->kid_env, "%s=%s", pc->sigv4, c->kid_sentinel) < 0) {
		c->kid_env = NULL;
		return -ENOMEM;
	}
	return 0;
}

int
cred_set_build(const struct policy *p, char *const *env, size_t nenv,
    cred_read_fn read, void *arg, struct cred_set **out, char *err,
    size_t errlen)
{
	const struct policy_cred *pc;
	struct cred_set *s;
	char buf[POLICY_CRED_MAX + 2];
	const char *v;
	size_t i;
	int r = 0, n;

	*out = NULL;
	if (p == NULL || p->l7 == NULL || p->l7->ncred == 0)
		return 0;
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->v = calloc(p->l7->ncred, sizeof(*s->v))) == NULL) {
		free(s);
		return -ENOMEM;
	}
	for (i = 0; i < p->l7->ncred && r == 0; i++) {
		pc = &p->l7->cred[i];
		v = NULL;
		if (pc->env) {
			v = env_get(env, nenv, pc->env);
		} else if (read != NULL && (n = read(pc, env, nenv, buf,
		    sizeof(buf), arg)) >= 0) {
			buf[strcspn(buf, "\r\n")] = '\0';
			v = buf;
		}
		if (v == NULL || (pc->sigv4 && env_get(env, nenv, pc->sigv4) ==
		    NULL))
			continue;
		r = make(pc, v, strlen(v), &s->v[s->n], err, errlen);
		s->n++;
		if (r == 0 && pc->sigv4)
			r = make_kid(pc, env_get(env, nenv, pc->sigv4),
			    &s->v[s->n - 1]);
		if (s->v[s->n - 1].len > s->maxlen)
			s->maxlen = s->v[s->n - 1].len;
	}
	explicit_bzero(buf, sizeof(buf));
	if (r < 0 || s->n == 0) {
		cred_set_free(s);
		return r;
	}
	*out = s;
	return 0;
}

char **
cred_set_env(const struct cred_set *s, char **env)
{
	size_t n, i, j, k, m = 0;
	char **v;

	for (n = 0; env[n]; n++)
		;
	if ((v = calloc(n + 2 * s->n + 1, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		for (j = 0; j < s->n; j++) {
			k = s->v[j].env ? strcspn(s->v[j].env, "=") + 1 : 0;
			if (k && strncmp(env[i], s->v[j].env, k) == 0)
				break;
			k = s->v[j].kid_env ? strcspn(s->v[j].kid_env, "=") +
			    1 : 0;
			if (k && strncmp(env[i], s->v[j].kid_env, k) == 0)
				break;
		}
		if (j == s->n)
			v[m++] = env[i];
	}
	for (j = 0; j < s->n; j++) {
		if (s->v[j].env != NULL)
			v[m++] = s->v[j].env;
		if (s->v[j].kid_env != NULL)
			v[m++] = s->v[j].kid_env;
	}
	free(env);
	return v;
}

bool
cred_for(const struct cred *c, const struct host *h, uint16_t port)
{
	size_t i;

	for (i = 0; i < c->nhosts; i++)
		if (netrule_match(&c->hosts[i], h, port))
			return true;
	return false;
}

bool
cred_set_for(const struct cred_set *s, const struct host *h, uint16_t port)
{
	size_t i;

	for (i = 0; s != NULL && i < s->n; i++)
		if (cred_for(&s->v[i], h, port))
			return true;
	return false;
}

const struct cred *
cred_set_leak(const struct cred_set *s, const char *buf, size_t len,
    const struct host *h, uint16_t port)
{
	size_t i;

	for (i = 0; s != NULL && i < s->n; i++)
		if (!cred_for(&s->v[i], h, port) &&
		    (memmem(buf, len, s->v[i].sentinel, s->v[i].len) != NULL ||
		    (s->v[i].kid_sentinel && memmem(buf, len,
		    s->v[i].kid_sentinel, strlen(s->v[i].kid_sentinel)))))
			return &s->v[i];
	return NULL;
}

/* Does the head have field name (at a line start)? */
static bool
has_field(const char *head, size_t len, const char *name)
{
	size_t k = strlen(name);
	const char *p = head, *end = head + len, *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		p = nl + 1;
		if ((size_t)(end - p) > k && strncasecmp(p, name, k) == 0 &&
		    p[k] == ':')
			return true;
	}
	return false;
}

int
cred_set_head(const struct cred_set *s, const char *head, size_t len,
    const struct host *h, uint16_t port, struct evbuffer *out)
{
	const struct cred *c;
	char *buf = malloc(len + 1), *p, *nl, *brace;
	size_t i, body;
	int r = 0;

	if (buf == NULL)
		return -ENOMEM;
	memcpy(buf, head, len);
	buf[len] = '\0';
	for (i = 0; i < s->n; i++) {
		c = &s->v[i];
		if (!cred_for(c, h, port) || c->kid != NULL)
			continue;
		for (p = buf; (p = memmem(p, len - (size_t)(p - buf),
		    c->sentinel, c->len)) != NULL; p += c->len)
			memcpy(p, c->real, c->len);
	}
	/* The head ends in CRLF CRLF (or LF LF): fields go before the last
	 * line ending. */
	body = len >= 2 && buf[len - 2] == '\r' ? len - 2 : len - 1;
	/* A compressed answer would hide an echoed value from the
	 * redaction: the sandbox's Accept-Encoding is dropped, identity
	 * asked for. */
	for (p = buf; r == 0 && p < buf + body; p = nl) {
		nl = memchr(p, '\n', (size_t)(buf + body - p));
		nl = nl ? nl + 1 : buf + body;
		if (p != buf && strncasecmp(p, "accept-encoding:", 16) == 0)
			continue;
		if (evbuffer_add(out, p, (size_t)(nl - p)) < 0)
			r = -ENOMEM;
	}
	if (r == 0 && evbuffer_add(out, "Accept-Encoding: identity\r\n",
	    27) < 0)
		r = -ENOMEM;
	for (i = 0; r == 0 && i < s->n; i++) {
		c = &s->v[i];
		if (!cred_for(c, h, port) || c->kid != NULL ||
		    has_field(buf, len, c->header))
			continue;
		brace = strstr(c->format, "{}");
		if (evbuffer_add_printf(out, "%s: %.*s%s%s\r\n", c->header,
		    (int)(brace - c->format), c->format, c->real, brace + 2) < 0)
			r = -ENOMEM;
	}
	if (r == 0 && evbuffer_add(out, buf + body, len - body) < 0)
		r = -ENOMEM;
	explicit_bzero(buf, len);
	free(buf);
	return r;
}

int
cred_set_sigv4(const struct cred_set *s, const char *head, size_t len,
    int has_body, const struct host *h, uint16_t port, struct evbuffer *out,
    const char **why)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].kid != NULL && cred_for(&s->v[i], h, port))
			return sigv4_resign(head, len, has_body,
			    s->v[i].kid_sentinel, s->v[i].kid, s->v[i].real,
			    out, why);
	return evbuffer_add(out, head, len) < 0 ? -ENOMEM : 0;
}

/* Each real in buf turned into sentinel; the longest tail of buf that
 * begins real, if longer than hold. */
static size_t
redact_one(const char *real, const char *sentinel, size_t n, char *buf,
    size_t len, size_t hold)
{
	size_t k;
	char *p;

	for (p = buf; (p = memmem(p, len - (size_t)(p - buf), real, n)) !=
	    NULL; p += n)
		memcpy(p, sentinel, n);
	for (k = n - 1; k > hold; k--)
		if (k <= len && memcmp(buf + len - k, real, k) == 0)
			return k;
	return hold;
}

size_t
cred_set_redact(const struct cred_set *s, char *buf, size_t len)
{
	size_t i, hold = 0;

	for (i = 0; s != NULL && i < s->n; i++) {
		hold = redact_one(s->v[i].real, s->v[i].sentinel, s->v[i].len,
		    buf, len, hold);
		/* A SigV4 key id: an echoed Authorization (S3's errors
		 * carry it) shows the sentinel one. */
		if (s->v[i].kid != NULL)
			hold = redact_one(s->v[i].kid, s->v[i].kid_sentinel,
			    strlen(s->v[i].kid), buf, len, hold);
	}
	return hold;
}

/* Value k of s: even k a credential's real value, odd k its SigV4 key
 * id (false when it has none). */
static bool
value_at(const struct cred_set *s, size_t k, const char **real,
    const char **sent, size_t *n)
{
	const struct cred *c = &s->v[k / 2];

	if (k % 2 == 0) {
		*real = c->real;
		*sent = c->sentinel;
		*n = c->len;
		return true;
	}
	if (c->kid == NULL)
		return false;
	*real = c->kid;
	*sent = c->kid_sentinel;
	*n = strlen(c->kid);
	return *n <= POLICY_CRED_MAX;
}

void
cred_set_release(const struct cred_set *s, char *buf, size_t len,
    struct cred_tail *t)
{
	const char *real, *sent;
	size_t k, n;

	t->n = len < sizeof(t->real) ? len : sizeof(t->real);
	memcpy(t->real, buf + len - t->n, t->n);
	for (k = 0; s != NULL && k < 2 * s->n; k++)
		if (value_at(s, k, &real, &sent, &n) && n > len &&
		    memcmp(buf, real, len) == 0) {
			memcpy(buf, sent, len);
			return;
		}
}

bool
cred_set_continue(const struct cred_set *s, struct cred_tail *t, char *buf,
    size_t len)
{
	char comb[2 * POLICY_CRED_MAX], out[POLICY_CRED_MAX];
	size_t m = len < POLICY_CRED_MAX ? len : POLICY_CRED_MAX, n = t->n;
	size_t k, p, e, vlen, keep;
	const char *real, *sent;
	bool open = false;

	if (n == 0 || s == NULL)
		return false;
	memcpy(comb, t->real, n);
	memcpy(comb + n, buf, m);
	memcpy(out, buf, m);
	/* Against the real bytes (comb), not ones already replaced: a
	 * value that begins another is still seen. */
	for (k = 0; k < 2 * s->n; k++) {
		if (!value_at(s, k, &real, &sent, &vlen))
			continue;
		for (p = 0; p < n; p++) {
			e = p + vlen < n + m ? p + vlen : n + m;
			if (e <= n || memcmp(comb + p, real, e - p) != 0)
				continue;
			memcpy(out, sent + (n - p), e - n);
			if (p + vlen > n + len)
				open = true;
		}
	}
	memcpy(buf, out, m);
	t->n = 0;
	if (open) {	/* then m == len: vlen <= POLICY_CRED_MAX */
		keep = n + len < sizeof(t->real) ? n + len :
		    sizeof(t->real);
		memcpy(t->real, comb + n + len - keep, keep);
		t->n = keep;
	}
	explicit_bzero(comb, sizeof(comb));
	return open;
}
