/* State elimination: turns seatbelt/dfa.c's minimal DFA into a regex with as few parentheses as precedence allows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/elim.h"

/*
 * What a regex is at its top, which decides what an operator applied to
 * it needs: an ATOM takes a quantifier as is; a QUANT (only * and ? are
 * made, both match empty) is made a star by its last byte; a CAT goes
 * into parentheses under a quantifier; an ALT also inside a CAT.
 */
enum re_kind {
	RE_EPS,		/* the empty word only */
	RE_ATOM,
	RE_QUANT,
	RE_CAT,
	RE_ALT
};

struct re {
	enum re_kind		 kind;
	struct seatbelt_rx	 rx;
};

/* The matrix of edges; NULL is the empty language. err sticks. */
struct elim {
	struct re	**e;
	size_t		  n;
	int		  err;
};

static struct re *
re_new(struct elim *m, enum re_kind kind)
{
	struct re *r;

	if (m->err < 0)
		return NULL;
	if ((r = malloc(sizeof(*r))) == NULL) {
		m->err = -ENOMEM;
		return NULL;
	}
	r->kind = kind;
	seatbelt_rx_init(&r->rx);
	return r;
}

static struct re *
re_dup(struct elim *m, const struct re *a)
{
	struct re *r = re_new(m, a->kind);

	if (r != NULL)
		*r = *a;
	return r;
}

/* a, in parentheses when it is at least of kind k. */
static void
put(struct re *r, const struct re *a, enum re_kind k)
{
	bool paren = a->kind >= k;

	if (paren)
		seatbelt_rx_str(&r->rx, "(");
	seatbelt_rx_cat(&r->rx, &a->rx);
	if (paren)
		seatbelt_rx_str(&r->rx, ")");
}

/* a* (q '*') or a? (q '?'). */
static struct re *
re_quant(struct elim *m, const struct re *a, char q)
{
	struct re *r;

	if (a == NULL || a->kind == RE_EPS)
		return re_new(m, RE_EPS);
	if (a->kind == RE_QUANT) {
		/* Already matches empty: a? is a, (a?)* and (a*)* are a*. */
		if ((r = re_dup(m, a)) != NULL && q == '*')
			r->rx.s[r->rx.len - 1] = '*';
		return r;
	}
	if ((r = re_new(m, RE_QUANT)) == NULL)
		return NULL;
	put(r, a, RE_CAT);
	seatbelt_rx_raw(&r->rx, &q, 1);
	return r;
}

static struct re *
re_cat(struct elim *m, const struct re *a, const struct re *b)
{
	struct re *r;

	if (a == NULL || b == NULL)
		return NULL;
	if (a->kind == RE_EPS)
		return re_dup(m, b);
	if (b->kind == RE_EPS)
		return re_dup(m, a);
	if ((r = re_new(m, RE_CAT)) == NULL)
		return NULL;
	put(r, a, RE_ALT);
	put(r, b, RE_ALT);
	return r;
}

static struct re *
re_alt(struct elim *m, const struct re *a, const struct re *b)
{
	struct re *r;

	if (a == NULL || b == NULL)
		return a == NULL && b == NULL ? NULL : re_dup(m, a ? a : b);
	if (a->kind == b->kind && strcmp(a->rx.s, b->rx.s) == 0)
		return re_dup(m, a);
	if (a->kind == RE_EPS || b->kind == RE_EPS)
		return re_quant(m, a->kind == RE_EPS ? b : a, '?');
	if ((r = re_new(m, RE_ALT)) == NULL)
		return NULL;
	seatbelt_rx_cat(&r->rx, &a->rx);
	seatbelt_rx_str(&r->rx, "|");
	seatbelt_rx_cat(&r->rx, &b->rx);
	return r;
}

#define E(m, i, j)	((m)->e[(i) * (m)->n + (j)])

static void
set(struct elim *m, size_t i, size_t j, struct re *r)
{
	free(E(m, i, j));
	E(m, i, j) = r;
	if (r != NULL && r->rx.over && m->err == 0)
		m->err = -E2BIG;
}

/* Removes k, routing every path i -> k -> j around it. */
static void
eliminate(struct elim *m, size_t k, const bool *gone)
{
	struct re *loop, *a, *b;
	size_t i, j;

	loop = re_quant(m, E(m, k, k), '*');
	for (i = 0; i < m->n && m->err == 0; i++) {
		if (gone[i] || i == k || E(m, i, k) == NULL)
			continue;
		a = re_cat(m, E(m, i, k), loop);
		for (j = 0; j < m->n && m->err == 0; j++) {
			if (gone[j] || j == k || E(m, k, j) == NULL)
				continue;
			b = re_cat(m, a, E(m, k, j));
			set(m, i, j, re_alt(m, E(m, i, j), b));
			free(b);
		}
		free(a);
	}
	free(loop);
	for (i = 0; i < m->n; i++) {
		set(m, i, k, NULL);
		set(m, k, i, NULL);
	}
}

/* The state whose removal makes the fewest new edges. */
static size_t
cheapest(const struct elim *m, const bool *gone, size_t nstates)
{
	size_t k, i, in, out, best = 0, cost, best_cost = (size_t)-1;

	for (k = 0; k < nstates; k++) {
		if (gone[k])
			continue;
		for (i = 0, in = out = 0; i < m->n; i++) {
			in += i != k && E(m, i, k) != NULL;
			out += i != k && E(m, k, i) != NULL;
		}
		cost = in * out;
		if (cost < best_cost) {
			best = k;
			best_cost = cost;
		}
	}
	return best;
}

static void
load(struct elim *m, const unsigned char *label, const bool *acc,
    size_t n, size_t start)
{
	struct re *r;
	size_t i, j, k;
	bool any;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			for (k = 0, any = false; k < 32; k++)
				any |= label[(i * n + j) * 32 + k] != 0;
			if (!any || (r = re_new(m, RE_ATOM)) == NULL)
				continue;
			seatbelt_rx_set(&r->rx, label + (i * n + j) * 32);
			set(m, i, j, r);
		}
		if (acc[i])
			set(m, i, n + 1, re_new(m, RE_EPS));
	}
	set(m, n, start, re_new(m, RE_EPS));
}

int
seatbelt_elim(const unsigned char *label, const bool *acc, size_t n,
    size_t start, struct seatbelt_rx *rx)
{
	struct elim m = { .n = n + 2 };
	struct re *r;
	size_t i, k;
	bool *gone;
	int ret;

	m.e = calloc(m.n * m.n, sizeof(*m.e));
	gone = calloc(m.n, sizeof(*gone));
	if (m.e == NULL || gone == NULL) {
		free(m.e);
		free(gone);
		return -ENOMEM;
	}
	load(&m, label, acc, n, start);
	for (i = 0; i < n && m.err == 0; i++) {
		k = cheapest(&m, gone, n);
		eliminate(&m, k, gone);
		gone[k] = true;
	}
	r = E(&m, n, n + 1);
	ret = m.err;
	if (ret == 0 && r != NULL && r->kind != RE_EPS) {
		if (r->kind == RE_ALT)
			seatbelt_rx_str(rx, "(");
		seatbelt_rx_cat(rx, &r->rx);
		if (r->kind == RE_ALT)
			seatbelt_rx_str(rx, ")");
		ret = rx->over ? -E2BIG : 1;
	}
	for (i = 0; i < m.n * m.n; i++)
		free(m.e[i]);
	free(m.e);
	free(gone);
	return ret;
}
