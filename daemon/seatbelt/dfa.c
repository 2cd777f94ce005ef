/* Glob token lists to a minimal DFA for one language minus others (seatbelt/dfa.h says why). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/dfa.h"
#include "daemon/seatbelt/elim.h"

#define HAS(set, c)	((set)[(unsigned char)(c) >> 3] & (1u << ((c) & 7)))
#define ADD(set, c)	((set)[(unsigned char)(c) >> 3] |= \
			    (unsigned char)(1u << ((c) & 7)))
#define WORDS		(SEATBELT_DFA_NFA_MAX / 64)
#define BYTES		253	/* 0x01..0xfd: what a macOS path holds */
/* Steps of work one call may take, however much the caller has left. */
#define BUDGET		50000000L

/* One NFA state: at most one move on a byte set, two empty moves. */
struct nstate {
	unsigned char	 set[32];
	int		 to;
	int		 eps[2];
};

struct dfa {
	struct nstate	 ns[SEATBELT_DFA_NFA_MAX];
	size_t		 nn;
	size_t		 words;
	int		 final[1 + 64];	/* [0]: the language, then minus */
	size_t		 nfinal;
	unsigned char	 cls_of[256];
	unsigned char	 cls_set[BYTES][32];
	size_t		 ncls;
	uint64_t	 sub[SEATBELT_DFA_DFA_MAX][WORDS];
	int		 trans[SEATBELT_DFA_DFA_MAX][BYTES];
	bool		 acc[SEATBELT_DFA_DFA_MAX];
	size_t		 nd;
	long		 budget;
	uint64_t	 sig[BYTES][WORDS];	/* byte_classes() scratch */
};

static int
state_new(struct dfa *d)
{
	struct nstate *s;

	if (d->nn == SEATBELT_DFA_NFA_MAX)
		return -E2BIG;
	s = &d->ns[d->nn];
	memset(s->set, 0, sizeof(s->set));
	s->to = s->eps[0] = s->eps[1] = -1;
	return (int)d->nn++;
}

static void
set_range(unsigned char set[32], unsigned lo, unsigned hi, bool slash)
{
	unsigned c;

	for (c = lo; c <= hi; c++)
		if (slash || c != '/')
			ADD(set, c);
}

/* A move on set from cur: to a new state, or to cur itself when loop. */
static int
move(struct dfa *d, int cur, const unsigned char set[32], bool loop)
{
	int next = state_new(d);

	if (next < 0)
		return next;
	memcpy(d->ns[cur].set, set, 32);
	d->ns[cur].to = loop ? cur : next;
	if (loop)
		d->ns[cur].eps[0] = next;
	return next;
}

static int
lang_tok(struct dfa *d, int cur, const struct ignore_tok *t)
{
	unsigned char set[32] = { 0 };
	size_t i;
	int m, m2, next;

	switch (t->kind) {
	case IGNORE_TOK_LIT:
		for (i = 0; i < t->lit.len && cur >= 0; i++) {
			memset(set, 0, sizeof(set));
			ADD(set, (unsigned char)t->lit.s[i]);
			cur = move(d, cur, set, false);
		}
		return cur;
	case IGNORE_TOK_SLASH:
		ADD(set, '/');
		return move(d, cur, set, false);
	case IGNORE_TOK_ANY:
		set_range(set, 1, 255, false);
		return move(d, cur, set, false);
	case IGNORE_TOK_CLASS:
		memcpy(set, t->class, 32);
		return move(d, cur, set, false);
	case IGNORE_TOK_STAR:
	case IGNORE_TOK_STARSTAR:
		set_range(set, 1, 255, t->kind == IGNORE_TOK_STARSTAR);
		return move(d, cur, set, true);
	case IGNORE_TOK_DIRS:
		/* "(.*\/)?": skip it, or any bytes then a '/'. */
		if ((m = state_new(d)) < 0 || (m2 = state_new(d)) < 0 ||
		    (next = state_new(d)) < 0)
			return -E2BIG;
		d->ns[cur].eps[0] = next;
		d->ns[cur].eps[1] = m;
		set_range(d->ns[m].set, 1, 255, true);
		d->ns[m].to = m;
		d->ns[m].eps[0] = m2;
		ADD(d->ns[m2].set, '/');
		d->ns[m2].to = next;
		return next;
	}
	return -EINVAL;
}

/* Adds the language's states; returns its start state. */
static int
lang_add(struct dfa *d, const struct seatbelt_dfa_lang *l)
{
	int start = state_new(d), cur = start;
	size_t i;

	for (i = 0; i < l->ntok && cur >= 0; i++)
		cur = lang_tok(d, cur, &l->tok[i]);
	if (cur < 0)
		return cur;
	d->final[d->nfinal++] = cur;
	return start;
}

#define BIT(v, i)	(((v)[(i) >> 6] >> ((i) & 63)) & 1)
#define SETBIT(v, i)	((v)[(i) >> 6] |= UINT64_C(1) << ((i) & 63))

static void
closure(struct dfa *d, uint64_t *v)
{
	int stack[SEATBELT_DFA_NFA_MAX], sp = 0, s, k, e;
	size_t i;

	for (i = 0; i < d->nn; i++)
		if (BIT(v, i))
			stack[sp++] = (int)i;
	while (sp > 0) {
		s = stack[--sp];
		for (k = 0; k < 2; k++) {
			e = d->ns[s].eps[k];
			if (e >= 0 && !BIT(v, e)) {
				SETBIT(v, e);
				stack[sp++] = e;
			}
		}
	}
	d->budget -= (long)d->nn;
}

/* Bytes that every NFA move treats alike share a class. */
static void
byte_classes(struct dfa *d)
{
	uint64_t (*sig)[WORDS] = d->sig;
	unsigned b, c, rep[BYTES];
	size_t s;

	d->ncls = 0;
	for (b = 0; b < BYTES; b++) {
		memset(sig[b], 0, sizeof(sig[b]));
		for (s = 0; s < d->nn; s++)
			if (HAS(d->ns[s].set, b + 1))
				SETBIT(sig[b], s);
		/* Against one byte of each class so far, not every byte. */
		for (c = 0; c < d->ncls; c++)
			if (memcmp(sig[rep[c]], sig[b], d->words * 8) == 0)
				break;
		if (c == d->ncls) {
			rep[c] = b;
			memset(d->cls_set[c], 0, 32);
			d->ncls++;
		}
		d->cls_of[b] = (unsigned char)c;
		ADD(d->cls_set[c], b + 1);
	}
	d->budget -= (long)BYTES * (long)(d->nn + d->ncls * d->words);
}

/* The subset reached from subset i on class c: an index, -1 if empty. */
static int
step(struct dfa *d, size_t i, size_t c)
{
	uint64_t v[WORDS] = { 0 };
	unsigned b = 0;
	size_t s, j;
	bool any = false;

	while (d->cls_of[b] != c)
		b++;
	for (s = 0; s < d->nn; s++)
		if (BIT(d->sub[i], s) && d->ns[s].to >= 0 &&
		    HAS(d->ns[s].set, b + 1)) {
			SETBIT(v, d->ns[s].to);
			any = true;
		}
	if (!any)
		return -1;
	closure(d, v);
	d->budget -= (long)(d->nn + d->nd * d->words);
	for (j = 0; j < d->nd; j++)
		if (memcmp(d->sub[j], v, d->words * 8) == 0)
			return (int)j;
	if (d->nd == SEATBELT_DFA_DFA_MAX)
		return -E2BIG;
	memcpy(d->sub[d->nd], v, sizeof(v));
	return (int)d->nd++;
}

static int
subsets(struct dfa *d, bool *hit, size_t n)
{
	size_t i, c, j;
	int t;
	bool main_final;

	for (i = 0; i < d->nd; i++) {
		main_final = BIT(d->sub[i], d->final[0]);
		d->acc[i] = main_final;
		for (j = 0; j < n; j++) {
			if (!BIT(d->sub[i], d->final[1 + j]))
				continue;
			d->acc[i] = false;
			if (hit != NULL && main_final)
				hit[j] = true;
		}
		for (c = 0; c < d->ncls; c++) {
			if ((t = step(d, i, c)) < -1)
				return t;
			d->trans[i][c] = t;
		}
		if (d->budget < 0)
			return -E2BIG;
	}
	return 0;
}

/* Drops states from which no accepting one is reachable. */
static bool
prune(struct dfa *d, bool *live)
{
	size_t i, c;
	bool changed = true;

	for (i = 0; i < d->nd; i++)
		live[i] = d->acc[i];
	while (changed) {
		changed = false;
		for (i = 0; i < d->nd; i++)
			for (c = 0; !live[i] && c < d->ncls; c++)
				if (d->trans[i][c] >= 0 && live[d->trans[i][c]])
					live[i] = changed = true;
	}
	for (i = 0; i < d->nd; i++)
		for (c = 0; c < d->ncls; c++)
			if (d->trans[i][c] >= 0 && !live[d->trans[i][c]])
				d->trans[i][c] = -1;
	return live[0];
}

/*
 * Moore's refinement over the live states: blk[i] ends as the index of
 * i's class of equivalent states. Returns the number of classes.
 */
static int
minimise(struct dfa *d, const bool *live, int *blk)
{
	int nb, nnew, rep[SEATBELT_DFA_DFA_MAX], nblk[SEATBELT_DFA_DFA_MAX];
	size_t i, c;
	int k, a, b;
	bool same;

	bool seen[2] = { false, false };

	for (i = 0; i < d->nd; i++) {
		blk[i] = live[i] ? d->acc[i] : -1;
		if (live[i])
			seen[d->acc[i]] = true;
	}
	nb = seen[0] + seen[1];
	for (;;) {
		nnew = 0;
		for (i = 0; i < d->nd; i++) {
			if (blk[i] < 0) {
				nblk[i] = -1;
				continue;
			}
			for (k = 0; k < nnew; k++) {
				same = blk[rep[k]] == blk[i];
				for (c = 0; same && c < d->ncls; c++) {
					a = d->trans[i][c];
					b = d->trans[rep[k]][c];
					same = (a < 0 ? -1 : blk[a]) ==
					    (b < 0 ? -1 : blk[b]);
				}
				if (same)
					break;
			}
			if (k == nnew)
				rep[nnew++] = (int)i;
			nblk[i] = k;
			d->budget -= (long)k * (long)d->ncls;
		}
		if (d->budget < 0)
			return -E2BIG;
		memcpy(blk, nblk, d->nd * sizeof(*blk));
		if (nnew == nb)
			return nnew;
		nb = nnew;
	}
}

/* The minimal DFA as a graph of byte-set edges, handed to seatbelt_elim(). */
static int
to_regex(const struct dfa *d, const int *blk, int nb, struct seatbelt_rx *rx)
{
	bool acc[SEATBELT_DFA_ELIM_MAX] = { false };
	unsigned char *label, *l;
	size_t i, c, k;
	int t, r;

	if (nb > SEATBELT_DFA_ELIM_MAX)
		return -E2BIG;
	if ((label = calloc((size_t)nb * (size_t)nb, 32)) == NULL)
		return -ENOMEM;
	for (i = 0; i < d->nd; i++) {
		if (blk[i] < 0)
			continue;
		acc[blk[i]] = d->acc[i];
		for (c = 0; c < d->ncls; c++) {
			if ((t = d->trans[i][c]) < 0)
				continue;
			l = label + ((size_t)blk[i] * (size_t)nb +
			    (size_t)blk[t]) * 32;
			for (k = 0; k < 32; k++)
				l[k] |= d->cls_set[c][k];
		}
	}
	r = seatbelt_elim(label, acc, (size_t)nb, (size_t)blk[0], rx);
	free(label);
	return r;
}

/*
 * The NFA of lang and minus[], and the DFA of all their subsets. d comes
 * from malloc: every part is written before it is read, and not zeroing
 * its 400 KiB keeps a call cheap when most languages are a few states.
 */
static int
build(struct dfa *d, const struct seatbelt_dfa_lang *lang,
    const struct seatbelt_dfa_lang *minus, size_t n, bool *hit, long left)
{
	int start[1 + 64], r = 0;
	size_t i;

	d->nn = d->nfinal = d->nd = 0;
	d->budget = left < BUDGET ? left : BUDGET;
	for (i = 0; i <= n && r >= 0; i++)
		r = start[i] = lang_add(d, i == 0 ? lang : &minus[i - 1]);
	if (r < 0)
		return r;
	d->words = (d->nn + 63) / 64;
	byte_classes(d);
	memset(d->sub[0], 0, sizeof(d->sub[0]));
	for (i = 0; i <= n; i++)
		SETBIT(d->sub[0], start[i]);
	closure(d, d->sub[0]);
	d->nd = 1;
	return subsets(d, hit, n);
}

/* What a call used of the caller's budget. */
static void
charge(const struct dfa *d, long *budget)
{
	long start = *budget < BUDGET ? *budget : BUDGET;

	*budget -= start - (d->budget > 0 ? d->budget : 0) + 1;
}

int
seatbelt_dfa_meets(const struct seatbelt_dfa_lang *a,
    const struct seatbelt_dfa_lang *b, long *budget)
{
	struct dfa *d;
	bool hit = false;
	int r;

	if (*budget <= 0)
		return -E2BIG;
	if ((d = malloc(sizeof(*d))) == NULL)
		return -ENOMEM;
	r = build(d, a, b, 1, &hit, *budget);
	charge(d, budget);
	free(d);
	return r < 0 ? r : hit;
}

int
seatbelt_dfa_minus(const struct seatbelt_dfa_lang *lang,
    const struct seatbelt_dfa_lang *minus, size_t n, bool *hit,
    struct seatbelt_rx *rx, long *budget)
{
	bool live[SEATBELT_DFA_DFA_MAX] = { false };
	int blk[SEATBELT_DFA_DFA_MAX], r, nb;
	struct dfa *d;
	size_t i;

	if (hit != NULL)
		memset(hit, 0, n * sizeof(*hit));
	if (n > 64 || *budget <= 0 || (d = malloc(sizeof(*d))) == NULL) {
		r = n > 64 || *budget <= 0 ? -E2BIG : -ENOMEM;
		goto fail;
	}
	r = build(d, lang, minus, n, hit, *budget);
	if (r < 0)
		goto out;
	if (!prune(d, live)) {
		r = 0;
		goto out;
	}
	if ((nb = r = minimise(d, live, blk)) < 0)
		goto out;
	r = to_regex(d, blk, nb, rx);
out:
	charge(d, budget);
	free(d);
	if (r != -E2BIG && r != -ENOMEM)
		return r;
fail:
	for (i = 0; hit != NULL && i < n; i++)
		hit[i] = true;
	return r;
}
