/* Checks the structure of generated SBPL and decides accesses with it, for the Seatbelt tests. */
#ifndef SBX_SBPL_H
#define SBX_SBPL_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sexp.h"

/*
 * sbpl_check() accepts only what the generator may write: the operations
 * and filters below, regexes that regcomp(REG_EXTENDED) compiles and that
 * are anchored at both ends, absolute paths, and no unfiltered allow
 * beyond the few operations that are meant to be whole.
 */
static const char *const sbpl_ops[] = {
	"process-exec", "process-fork", "process-info*", "signal",
	"user-preference-read", "ipc-posix-shm", "ipc-posix-sem",
	"system-socket", "mach-lookup", "sysctl-read", "network-outbound",
	"network-bind", "network-inbound", "file-read*", "file-write*",
	"file-read-metadata",
	"file-write-data", "file-ioctl", "file-link", "file-write-unlink",
};

/* Operations an allow may name without a filter. */
static const char *const sbpl_whole[] = {
	"process-exec", "process-fork", "user-preference-read",
	"ipc-posix-shm", "ipc-posix-sem", "file-read*",
};

static inline bool
sbpl_in(const char *s, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s, v[i]) == 0)
			return true;
	return false;
}

#define SBPL_IN(s, a)	sbpl_in((s), (a), sizeof(a) / sizeof((a)[0]))

static inline void
sbpl_regfree(void *p)
{
	regfree(p);
	free(p);
}

/* The compiled regex of a string node, cached in it; NULL if bad. */
static inline regex_t *
sbpl_re(struct sx *s)
{
	regex_t *re;

	if (s->aux != NULL)
		return s->aux;
	re = malloc(sizeof(*re));
	if (regcomp(re, s->s, REG_EXTENDED | REG_NOSUB) != 0) {
		free(re);
		return NULL;
	}
	s->aux = re;
	s->aux_free = sbpl_regfree;
	return re;
}

static inline bool
sbpl_one_str(const struct sx *f)
{
	return f->n == 2 && f->v[1]->kind == SX_STR;
}

static inline const char *sbpl_check_filter(struct sx *f);

/* (remote ip "localhost:N") or (remote unix-socket FILTER). */
static inline const char *
sbpl_check_endpoint(struct sx *f)
{
	if (f->n != 3)
		return "endpoint arity";
	if (sx_is(f->v[1], "ip"))
		return f->v[2]->kind == SX_STR &&
		    strncmp(f->v[2]->s, "localhost:", 10) == 0 ? NULL :
		    "ip endpoint not on localhost";
	if (!sx_is(f->v[1], "unix-socket"))
		return "unknown endpoint";
	if (sx_head(f->v[2], "path-regex"))
		return sbpl_one_str(f->v[2]) && sbpl_re(f->v[2]->v[1]) ?
		    NULL : "bad path-regex";
	return sx_head(f->v[2], "subpath") ? sbpl_check_filter(f->v[2]) :
	    "unix-socket filter";
}

static inline const char *
sbpl_check_filter(struct sx *f)
{
	const char *s;
	size_t i;

	if (f->kind != SX_LIST || f->n == 0 || f->v[0]->kind != SX_SYM)
		return "filter is not a list";
	if (sx_head(f, "literal") || sx_head(f, "subpath"))
		return sbpl_one_str(f) && f->v[1]->s[0] == '/' ? NULL :
		    "path filter wants one absolute path";
	if (sx_head(f, "regex")) {
		if (!sbpl_one_str(f) || sbpl_re(f->v[1]) == NULL)
			return "regex does not compile";
		s = f->v[1]->s;
		return s[0] == '^' && s[f->v[1]->len - 1] == '$' ? NULL :
		    "regex not anchored";
	}
	if (sx_head(f, "require-all") || sx_head(f, "require-any") ||
	    sx_head(f, "require-not")) {
		if (f->n < 2 || (sx_head(f, "require-not") && f->n != 2))
			return "require-* arity";
		for (i = 1; i < f->n; i++)
			if ((s = sbpl_check_filter(f->v[i])) != NULL)
				return s;
		return NULL;
	}
	if (sx_head(f, "vnode-type"))
		return f->n == 2 && sx_is(f->v[1], "DIRECTORY") ? NULL :
		    "vnode-type";
	if (sx_head(f, "remote") || sx_head(f, "local"))
		return sbpl_check_endpoint(f);
	if (sx_head(f, "target"))
		return f->n == 2 && sx_is(f->v[1], "same-sandbox") ? NULL :
		    "target";
	if (sx_head(f, "socket-domain"))
		return f->n == 2 && sx_is(f->v[1], "AF_UNIX") ? NULL :
		    "socket-domain";
	if (sx_head(f, "global-name") || sx_head(f, "sysctl-name") ||
	    sx_head(f, "sysctl-name-prefix"))
		return sbpl_one_str(f) ? NULL : "name filter";
	return "unknown filter";
}

static inline bool
sbpl_is_tag(const struct sx *f)
{
	return sx_head(f, "with") && f->n == 3 && sx_is(f->v[1], "message") &&
	    sx_head(f->v[2], "param") && f->v[2]->n == 2 &&
	    f->v[2]->v[1]->kind == SX_STR &&
	    strcmp(f->v[2]->v[1]->s, "SBX_SESSION") == 0;
}

static inline const char *
sbpl_check_rule(struct sx *r)
{
	size_t i = 1, nops = 0, nfilt = 0, whole = 0;
	bool deny = sx_is(r->v[0], "deny"), tagged = false;
	const char *s;

	for (; i < r->n && r->v[i]->kind == SX_SYM; i++, nops++) {
		if (!SBPL_IN(r->v[i]->s, sbpl_ops))
			return "unknown operation";
		whole += SBPL_IN(r->v[i]->s, sbpl_whole);
	}
	if (nops == 0)
		return "rule without an operation";
	for (; i < r->n; i++) {
		if (sbpl_is_tag(r->v[i]) && i == r->n - 1) {
			tagged = true;
			continue;
		}
		if ((s = sbpl_check_filter(r->v[i])) != NULL)
			return s;
		nfilt++;
	}
	if (deny && !tagged)
		return "deny without the session tag";
	if (!deny && tagged)
		return "tagged allow";
	if (nfilt == 0 && (deny || whole != nops))
		return "rule without a filter";
	return NULL;
}

/* NULL if top (from sx_parse) is a well-formed profile, else why not. */
static inline const char *
sbpl_check(struct sx *top)
{
	const char *why;
	struct sx *f;
	size_t i;

	if (top->n < 3 || !sx_head(top->v[0], "version") ||
	    top->v[0]->n != 2 || !sx_is(top->v[0]->v[1], "1"))
		return "no (version 1) first";
	f = top->v[1];
	if (!sx_head(f, "deny") || f->n != 3 || !sx_is(f->v[1], "default") ||
	    !sbpl_is_tag(f->v[2]))
		return "no tagged (deny default) second";
	f = top->v[2];
	if (!sx_head(f, "import") || f->n != 2 || f->v[1]->kind != SX_STR ||
	    strcmp(f->v[1]->s, "system.sb") != 0)
		return "no (import \"system.sb\") third";
	for (i = 3; i < top->n; i++) {
		f = top->v[i];
		if (!sx_head(f, "allow") && !sx_head(f, "deny"))
			return "top-level form is not a rule";
		if ((why = sbpl_check_rule(f)) != NULL)
			return why;
	}
	return NULL;
}

/* What is asked: an operation on a path, an IP endpoint or a socket. */
struct sbpl_q {
	const char	*op;
	const char	*path;
	bool		 is_dir;
	const char	*ip;		/* "localhost:3128" */
	const char	*sock;		/* a Unix socket path */
};

static inline bool
sbpl_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return path != NULL && strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

static inline bool
sbpl_match(struct sx *f, const struct sbpl_q *q, const char *path)
{
	size_t i;

	if (sx_head(f, "literal"))
		return path != NULL && strcmp(path, f->v[1]->s) == 0;
	if (sx_head(f, "subpath"))
		return sbpl_under(path, f->v[1]->s);
	if (sx_head(f, "regex") || sx_head(f, "path-regex"))
		return path != NULL &&
		    regexec(sbpl_re(f->v[1]), path, 0, NULL, 0) == 0;
	if (sx_head(f, "vnode-type"))
		return path != NULL && q->is_dir;
	if (sx_head(f, "require-not"))
		return !sbpl_match(f->v[1], q, path);
	if (sx_head(f, "require-all") || sx_head(f, "require-any")) {
		for (i = 1; i < f->n; i++)
			if (sbpl_match(f->v[i], q, path) !=
			    sx_head(f, "require-all"))
				return !sx_head(f, "require-all");
		return sx_head(f, "require-all");
	}
	if ((sx_head(f, "remote") || sx_head(f, "local")) &&
	    sx_is(f->v[1], "ip")) {
		const char *want = f->v[2]->s, *star = strchr(want, '*');

		return q->ip != NULL && (star != NULL ?
		    strncmp(q->ip, want, (size_t)(star - want)) == 0 :
		    strcmp(q->ip, want) == 0);
	}
	if (sx_head(f, "remote") || sx_head(f, "local"))
		return q->sock != NULL && sbpl_match(f->v[2], q, q->sock);
	return false;
}

/* Does a rule naming op apply to the asked operation? */
static inline bool
sbpl_covers(const char *op, const char *asked)
{
	size_t n = strlen(op);

	if (n > 0 && op[n - 1] == '*')
		return strncmp(op, asked, n - 1) == 0;
	return strcmp(op, asked) == 0;
}

/*
 * true when top allows q. Seatbelt's order is taken both ways the tests
 * must survive: the last matching rule wins (specific false), or a rule
 * naming the operation itself beats one naming its family (specific).
 */
static inline bool
sbpl_allows(struct sx *top, const struct sbpl_q *q, bool specific)
{
	int last = 0, last_exact = 0;	/* 0 none, 1 allow, 2 deny */
	struct sx *r;
	size_t i, j, k;
	bool hit, exact;

	for (i = 3; i < top->n; i++) {
		r = top->v[i];
		hit = exact = false;
		for (j = 1; j < r->n && r->v[j]->kind == SX_SYM; j++) {
			hit |= sbpl_covers(r->v[j]->s, q->op);
			exact |= strcmp(r->v[j]->s, q->op) == 0;
		}
		if (!hit)
			continue;
		if (j < r->n && !sbpl_is_tag(r->v[j])) {
			for (k = j, hit = false; k < r->n && !hit; k++)
				hit = !sbpl_is_tag(r->v[k]) &&
				    sbpl_match(r->v[k], q, q->path);
			if (!hit)
				continue;
		}
		last = sx_head(r, "allow") ? 1 : 2;
		if (exact)
			last_exact = last;
	}
	if (specific && last_exact != 0)
		return last_exact == 1;
	return last == 1;
}

#endif
