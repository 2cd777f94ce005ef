/* Re-includes against one exclude line, as glob languages: whether they meet it, and what is left of it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/dfa.h"
#include "daemon/seatbelt/reinc.h"

/* "!" lines weighed against one exclude line (seatbelt/ignore.c's cap). */
#define QMAX	64

/*
 * q as a language over paths relative to base (q's dir is base or below),
 * or, with last, over the last component alone (q unanchored, in base).
 */
static int
lang_of(const struct ignore_pattern *q, const char *base, bool last,
    struct seatbelt_dfa_lang *out)
{
	const char *rel = q->file->dir + strlen(base), *end;
	struct ignore_tok *t;
	size_t n = 0, cap = q->ntok + 1;

	if (*rel == '/')
		rel++;
	if (last)
		rel = "";
	for (end = rel; *end != '\0'; end++)
		cap += *end == '/' ? 2 : 0;
	cap += *rel != '\0' ? 2 : 0;
	if ((t = calloc(cap, sizeof(*t))) == NULL)
		return -ENOMEM;
	for (; *rel != '\0'; rel = *end ? end + 1 : end) {
		end = rel + strcspn(rel, "/");
		t[n].kind = IGNORE_TOK_LIT;
		t[n].lit.s = rel;
		t[n++].lit.len = (size_t)(end - rel);
		t[n++].kind = IGNORE_TOK_SLASH;
	}
	if (!(q->flags & IGNORE_ANCHORED) && !last)
		t[n++].kind = IGNORE_TOK_DIRS;
	memcpy(t + n, q->tok, q->ntok * sizeof(*t));
	out->tok = t;
	out->ntok = n + q->ntok;
	return 0;
}

/*
 * A word of both languages ends with both final literals, so one of them
 * is a suffix of the other: most pairs of lines part here, before any
 * automaton is built.
 */
static bool
may_meet(const struct seatbelt_dfa_lang *a, const struct seatbelt_dfa_lang *b)
{
	const struct ignore_tok *x, *y;
	size_t n;

	if (a->ntok == 0 || b->ntok == 0)
		return true;
	x = &a->tok[a->ntok - 1];
	y = &b->tok[b->ntok - 1];
	if (x->kind != IGNORE_TOK_LIT || y->kind != IGNORE_TOK_LIT)
		return true;
	n = x->lit.len < y->lit.len ? x->lit.len : y->lit.len;
	return memcmp(x->lit.s + x->lit.len - n, y->lit.s + y->lit.len - n,
	    n) == 0;
}

int
seatbelt_reinc_meets(const struct ignore_pattern *p,
    const struct ignore_pattern *q, long *budget)
{
	struct seatbelt_dfa_lang lp, lq;
	int r;

	if ((r = lang_of(p, p->file->dir, false, &lp)) < 0)
		return r;
	if ((r = lang_of(q, p->file->dir, false, &lq)) == 0) {
		r = may_meet(&lp, &lq) ? seatbelt_dfa_meets(&lp, &lq,
		    budget) : 0;
		free((void *)lq.tok);
	}
	free((void *)lp.tok);
	return r;
}

/*
 * When p and all q are unanchored lines of one directory only the last
 * component decides, so the difference is taken over components: a far
 * smaller regex.
 */
int
seatbelt_reinc_difference(const struct ignore_pattern *p,
    const struct ignore_pattern **q, size_t nq, struct seatbelt_rx *desc,
    long *budget)
{
	struct seatbelt_dfa_lang lp = { NULL, 0 }, lq[QMAX];
	bool last = !(p->flags & IGNORE_ANCHORED);
	size_t j, n = 0;
	int r;

	if (nq > QMAX)
		return -E2BIG;
	for (j = 0; j < nq; j++)
		last &= !(q[j]->flags & IGNORE_ANCHORED) &&
		    strcmp(q[j]->file->dir, p->file->dir) == 0;
	seatbelt_rx_str(desc, last ? "/(.*/)?" : "/");
	r = lang_of(p, p->file->dir, last, &lp);
	while (r == 0 && n < nq && (r = lang_of(q[n], p->file->dir, last,
	    &lq[n])) == 0)
		n++;
	if (r == 0)
		r = seatbelt_dfa_minus(&lp, lq, nq, NULL, desc, budget);
	free((void *)lp.tok);
	for (j = 0; j < n; j++)
		free((void *)lq[j].tok);
	return r;
}
