/* A session's credentials: real values and their sentinels, and the byte-level work on requests and responses. */
#ifndef SBX_PROXY_CRED_H
#define SBX_PROXY_CRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/policy/credential.h"
#include "daemon/policy/netrule.h"
#include "daemon/policy/policy.h"

/*
 * real never leaves the daemon but towards hosts; sentinel (same length,
 * same character classes, the value's leading letters and '_' or '-'
 * kept, so a tool's format check passes) is what the sandbox sees. env
 * ("NAME=sentinel") replaces the client's variable. Owned by the set.
 */
struct cred {
	char *id;
	char *real, *sentinel;
	size_t len;
	char *env;		/* or NULL (a file credential) */
	struct netrule *hosts;
	size_t nhosts;
	char *header, *format;
	bool body;		/* also in request bodies (cred-body.c) */
	/* SigV4: the access key id and its sentinel, its variable's entry;
	 * requests are signed again instead of having a header added. */
	char *kid, *kid_sentinel, *kid_env;
};

struct cred_set {
	struct cred *v;
	size_t n;
	size_t maxlen;
};

/*
 * Reads the secret of a file or command credential pc into buf (at most
 * size - 1 bytes, NUL-ended): from its file with the user's rights, or
 * from what its command prints (env: the run's client environment,
 * NAME=VALUE entries; arg: the caller's). Its length, or -errno: the
 * credential is skipped (the reader says why). Set by the core; NULL:
 * file and command credentials are skipped.
 */
typedef int (*cred_read_fn)(const struct policy_cred *pc, char *const *env,
    size_t nenv, char *buf, size_t size, void *arg);

/*
 * The set for a run: p's credentials whose value is there (a variable
 * the client does not have is skipped). *out NULL when there are none.
 * 0, -ENOMEM, or -EINVAL with err set (a value too long, or with
 * control characters).
 */
int cred_set_build(const struct policy *p, char *const *env, size_t nenv,
    cred_read_fn read, void *arg, struct cred_set **out, char *err,
    size_t errlen);
void cred_set_free(struct cred_set *s);

/* A sentinel for real[0..len) into out (len bytes, no NUL), from rnd
 * (len random bytes). Pure. */
void cred_sentinel(const char *real, size_t len, const uint8_t *rnd,
    char *out);

/* The NULL-ended array env (freed: the entries stay the caller's) with
 * each credential's variable set to its sentinel whatever the policy's
 * env lists say (the entries are s's), or NULL on ENOMEM. */
char **cred_set_env(const struct cred_set *s, char **env);

/* May c go to h:port? */
bool cred_for(const struct cred *c, const struct host *h, uint16_t port);
/* Is some credential for h:port? */
bool cred_set_for(const struct cred_set *s, const struct host *h,
    uint16_t port);

/* The first credential whose sentinel is in buf and that may not go to
 * h:port, or NULL. */
const struct cred *cred_set_leak(const struct cred_set *s, const char *buf,
    size_t len, const struct host *h, uint16_t port);

/*
 * Rewrites a request head (whole, ending in the empty line) for h:port:
 * each sentinel of a credential for the host becomes the real value, and
 * a credential whose header field the head lacks adds it. The new head
 * is appended to out (an evbuffer). 0 or -ENOMEM.
 */
struct evbuffer;
int cred_set_head(const struct cred_set *s, const char *head, size_t len,
    const struct host *h, uint16_t port, struct evbuffer *out);

/*
 * head (from cred_set_head) towards h:port, signed again when a SigV4
 * credential is for the host (proxy/sigv4.c), appended to out. 0, -EPERM
 * with *why (not signed again: refuse it), -ENOMEM.
 */
int cred_set_sigv4(const struct cred_set *s, const char *head, size_t len,
    int has_body, const struct host *h, uint16_t port, struct evbuffer *out,
    const char **why);

/* Replaces each real value in buf[0..len) by its sentinel (same length),
 * in place. Returns how many bytes at the end could begin a real value
 * (to hold back until more comes). */
size_t cred_set_redact(const struct cred_set *s, char *buf, size_t len);

/*
 * The real bytes that last went to the sandbox as sentinel bytes: a
 * held partial match let go when the upstream went quiet (a response
 * that ends there would stall otherwise). What comes next is matched as
 * their continuation.
 */
struct cred_tail {
	char real[POLICY_CRED_MAX];
	size_t n;
};

/* buf[0..len) (held: cred_set_redact's tail) turned into the same-length
 * start of the sentinel of the value it begins, in place; t remembers
 * the real bytes. */
void cred_set_release(const struct cred_set *s, char *buf, size_t len,
    struct cred_tail *t);

/*
 * The next bytes after t: those that continue a value begun in t become
 * that sentinel's continuation, in place. True when all of buf does and
 * the value is not complete yet (t then ends with buf's real bytes:
 * nothing to hold); else t is emptied and buf goes on to
 * cred_set_redact.
 */
bool cred_set_continue(const struct cred_set *s, struct cred_tail *t,
    char *buf, size_t len);

#endif
