/* Translates a workspace's ignore set into Seatbelt filters (seatbelt-ignore.h gives the semantics). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seatbelt-dfa.h"
#include "seatbelt-ignore.h"

/* "!" lines weighed against one exclude line before it errs to deny. */
#define QMAX	64
/*
 * What one profile may spend on re-includes: automaton work (about a
 * second of CPU) and (require-not ...) filters written. Past either, the
 * remaining lines deny without their re-includes.
 */
#define BUDGET	300000000L
#define NOTS	4096

struct ictx {
	struct seatbelt_out		*o;
	const struct ignore_set		*set;
	const char			*ws;
	long				 budget;
	size_t				 nots;
	bool				 spent;	/* and said so */
};

static void
warn(struct ictx *c, const struct ignore_pattern *p, const char *what)
{
	const struct ignore_file *f = p->file;

	policy_diag_add(c->o->diags, POLICY_WARNING, "%s%s%s:%u: warning: %s",
	    f->dir, f->dir[0] ? "/" : "", f->name, p->line, what);
}

/* Is the workspace-relative dir base or below it? */
static bool
below(const char *dir, const char *base)
{
	size_t n = strlen(base);

	return n == 0 || (strncmp(dir, base, n) == 0 &&
	    (dir[n] == '\0' || dir[n] == '/'));
}

/* "^WORKSPACE/DIR", the directory of an ignore file. */
static void
rx_dir(struct seatbelt_rx *rx, const char *ws, const char *dir)
{
	seatbelt_rx_init(rx);
	seatbelt_rx_anchor(rx, ws, false);
	if (dir[0] != '\0') {
		seatbelt_rx_str(rx, "/");
		seatbelt_rx_lit(rx, dir, strlen(dir), false);
	}
}

/* What p matches, not yet ended: unanchored lines match at any depth. */
static void
rx_pat(struct seatbelt_rx *rx, const char *ws, const struct ignore_pattern *p)
{
	rx_dir(rx, ws, p->file->dir);
	seatbelt_rx_str(rx, p->flags & IGNORE_ANCHORED ? "/" : "/(.*/)?");
	seatbelt_rx_toks(rx, p->tok, p->ntok, false);
}

/*
 * Everything below dir, or below the deepest of its parents that fits in
 * a profile string: what an over-long line turns into.
 */
static void
deny_below(struct ictx *c, const char *dir)
{
	char d[IGNORE_PATH_MAX + 1], *slash;
	struct seatbelt_rx rx;

	snprintf(d, sizeof(d), "%s", dir);
	for (;;) {
		rx_dir(&rx, c->ws, d);
		seatbelt_rx_str(&rx, "/.+$");
		if (!rx.over || d[0] == '\0')
			break;
		slash = strrchr(d, '/');
		*(slash != NULL ? slash : d) = '\0';
	}
	seatbelt_out_regex(c->o, 1, &rx);
}

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

/* The "!" lines that decide after line li of file fi, in set order. */
static size_t
negations(struct ictx *c, size_t fi, size_t li,
    const struct ignore_pattern **q)
{
	const struct ignore_file *f = ignore_set_file(c->set, fi), *g;
	size_t i, j, n = 0;
	bool same;

	for (i = 0; (g = ignore_set_file(c->set, i)) != NULL; i++) {
		same = strcmp(g->dir, f->dir) == 0;
		if ((same && i < fi) || !below(g->dir, f->dir))
			continue;
		for (j = same && i == fi ? li + 1 : 0; j < g->npat; j++) {
			if ((g->pat[j].flags & (IGNORE_NEGATE | IGNORE_NEVER))
			    != IGNORE_NEGATE)
				continue;
			if (n == QMAX)
				return QMAX + 1;
			q[n++] = &g->pat[j];
		}
	}
	return n;
}

/* (require-all p (require-not q)...): exact for the path itself. */
static void
emit_self(struct ictx *c, const struct ignore_pattern *p,
    const struct seatbelt_rx *self, const struct seatbelt_rx *qrx,
    const struct ignore_pattern **q, size_t nq)
{
	struct seatbelt_out *o = c->o;
	size_t j;
	bool dir;

	seatbelt_out_line(o, 1, "(require-all");
	seatbelt_out_regex(o, 2, self);
	if (p->flags & IGNORE_DIRONLY)
		seatbelt_out_line(o, 2, "(vnode-type DIRECTORY)");
	for (j = 0; j < nq; j++) {
		dir = (q[j]->flags & IGNORE_DIRONLY) != 0;
		seatbelt_out_line(o, 2, dir ? "(require-not (require-all "
		    "(vnode-type DIRECTORY)" : "(require-not");
		seatbelt_out_regex(o, 0, &qrx[j]);
		seatbelt_out_text(o, dir ? "))" : ")");
	}
	seatbelt_out_text(o, ")");
	seatbelt_out_filter(o);
}

/* Filters for an exclude line with no "!" line against it. */
static void
emit_plain(struct ictx *c, const struct ignore_pattern *p,
    const struct seatbelt_rx *base)
{
	struct seatbelt_rx rx = *base;

	if (!(p->flags & IGNORE_DIRONLY)) {
		/* A final "**" already matches everything below. */
		seatbelt_rx_str(&rx, p->ntok > 0 &&
		    p->tok[p->ntok - 1].kind == IGNORE_TOK_STARSTAR ?
		    "$" : "(/.*)?$");
		seatbelt_out_regex(c->o, 1, &rx);
		return;
	}
	seatbelt_rx_str(&rx, "$");
	seatbelt_out_line(c->o, 1, "(require-all (vnode-type DIRECTORY)");
	seatbelt_out_regex(c->o, 0, &rx);
	seatbelt_out_text(c->o, ")");
	seatbelt_out_filter(c->o);
	rx = *base;
	seatbelt_rx_str(&rx, "/.+$");
	seatbelt_out_regex(c->o, 1, &rx);
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

/*
 * Keeps the "!" lines that can be written and share a path with p, with
 * their regexes in qrx. A line over the string limit is dropped (what it
 * would re-include stays denied); one too complex to compare is kept.
 */
static int
meeting(struct ictx *c, const struct ignore_pattern *p,
    const struct ignore_pattern **q, size_t *nq, struct seatbelt_rx *qrx)
{
	struct seatbelt_dfa_lang lp, lq;
	size_t i, n = 0;
	int r;

	if ((r = lang_of(p, p->file->dir, false, &lp)) < 0)
		return r;
	for (i = 0; i < *nq; i++) {
		rx_pat(&qrx[n], c->ws, q[i]);
		seatbelt_rx_str(&qrx[n], "$");
		if (qrx[n].never)
			continue;
		if (qrx[n].over || qrx[n].qlen + 8 > SEATBELT_STR_MAX) {
			warn(c, q[i], "re-include too long for a macOS "
			    "profile; what it re-includes stays denied");
			continue;
		}
		if ((r = lang_of(q[i], p->file->dir, false, &lq)) < 0)
			break;
		r = may_meet(&lp, &lq) ?
		    seatbelt_dfa_meets(&lp, &lq, &c->budget) : 0;
		free((void *)lq.tok);
		if (r == -ENOMEM)
			break;
		if (r != 0)
			q[n++] = q[i];
		r = 0;
	}
	free((void *)lp.tok);
	*nq = n;
	return r;
}

/*
 * Appends p minus the q to desc (after "^WORKSPACE/DIR"). When p and all
 * q are unanchored lines of one directory only the last component
 * decides, so the difference is taken over components: a far smaller
 * regex. Returns as seatbelt_dfa_minus() does.
 */
static int
difference(struct ictx *c, const struct ignore_pattern *p,
    const struct ignore_pattern **q, size_t nq, struct seatbelt_rx *desc)
{
	struct seatbelt_dfa_lang lp = { NULL, 0 }, lq[QMAX];
	bool last = !(p->flags & IGNORE_ANCHORED);
	size_t j, n = 0;
	int r;

	for (j = 0; j < nq; j++)
		last &= !(q[j]->flags & IGNORE_ANCHORED) &&
		    strcmp(q[j]->file->dir, p->file->dir) == 0;
	seatbelt_rx_str(desc, last ? "/(.*/)?" : "/");
	r = lang_of(p, p->file->dir, last, &lp);
	for (; r == 0 && n < nq; n++)
		r = lang_of(q[n], p->file->dir, last, &lq[n]);
	if (r == 0)
		r = seatbelt_dfa_minus(&lp, lq, nq, NULL, desc, &c->budget);
	else
		n--;
	free((void *)lp.tok);
	for (j = 0; j < n; j++)
		free((void *)lq[j].tok);
	return r;
}

/* The filters for exclude line li of file fi. */
static int
emit_line(struct ictx *c, const struct ignore_pattern *p, size_t fi,
    size_t li, struct seatbelt_rx *qrx)
{
	const struct ignore_pattern *q[QMAX + 1];
	struct seatbelt_rx self, desc;
	size_t nq;
	int r;

	rx_pat(&self, c->ws, p);
	if (self.never)
		return 0;
	/* Room for the longest ending, "(/.*)?$". */
	if (self.over || self.qlen + 8 > SEATBELT_STR_MAX) {
		warn(c, p, "pattern too long for a macOS profile; its "
		    "whole directory is denied instead");
		deny_below(c, p->file->dir);
		return 0;
	}
	if ((nq = negations(c, fi, li, q)) > QMAX) {
		warn(c, p, "more than 64 later '!' lines; they do not "
		    "re-include what this line excludes on macOS");
		nq = 0;
	}
	if (nq > 0 && (c->budget <= 0 || c->nots > NOTS)) {
		if (!c->spent)
			warn(c, p, "ignore files too complex for a macOS "
			    "profile: from this line on, '!' lines do not "
			    "re-include what earlier lines exclude");
		c->spent = true;
		nq = 0;
	}
	if ((r = meeting(c, p, q, &nq, qrx)) < 0)
		return r;
	c->nots += nq;
	if (nq == 0) {
		emit_plain(c, p, &self);
		return 0;
	}
	seatbelt_rx_str(&self, "$");
	emit_self(c, p, &self, qrx, q, nq);
	rx_dir(&desc, c->ws, p->file->dir);
	if ((r = difference(c, p, q, nq, &desc)) == 1) {
		seatbelt_rx_str(&desc, "/.+$");
		r = desc.over ? -E2BIG : 1;
	}
	if (r == -E2BIG) {
		warn(c, p, "re-includes too complex to express below the "
		    "directories this line excludes; they stay denied there");
		rx_pat(&desc, c->ws, p);
		seatbelt_rx_str(&desc, "/.+$");
		r = 1;
	}
	if (r == 1)
		seatbelt_out_regex(c->o, 1, &desc);
	return r < 0 ? r : 0;
}

/* Renaming one of these would carry excluded paths out of their rules. */
static void
emit_moves(struct ictx *c)
{
	const struct ignore_file *f, *prev = NULL;
	const struct ignore_pattern *p;
	struct seatbelt_rx rx;
	char path[SEATBELT_STR_MAX + 1];
	size_t i, j, k, n;

	seatbelt_out_begin(c->o, "deny file-write-unlink", true);
	seatbelt_out_path(c->o, NULL, "literal", c->ws);
	for (i = 0; (f = ignore_set_file(c->set, i)) != NULL; prev = f, i++) {
		/* Each directory on the way to f->dir, once. */
		for (n = 0; f->dir[n] != '\0'; n++) {
			if (f->dir[n + 1] != '/' && f->dir[n + 1] != '\0')
				continue;
			if (prev != NULL && strncmp(prev->dir, f->dir, n + 1) == 0 &&
			    (prev->dir[n + 1] == '/' || prev->dir[n + 1] == '\0'))
				continue;
			if (snprintf(path, sizeof(path), "%s/%.*s", c->ws,
			    (int)(n + 1), f->dir) < (int)sizeof(path))
				seatbelt_out_path(c->o, NULL, "literal", path);
		}
		for (j = 0; j < f->npat; j++) {
			p = &f->pat[j];
			if ((p->flags & (IGNORE_NEGATE | IGNORE_NEVER |
			    IGNORE_ANCHORED)) != IGNORE_ANCHORED)
				continue;
			for (k = 0; k < p->ntok; k++) {
				if (p->tok[k].kind != IGNORE_TOK_SLASH)
					continue;
				rx_dir(&rx, c->ws, f->dir);
				seatbelt_rx_str(&rx, "/");
				seatbelt_rx_toks(&rx, p->tok, k, false);
				seatbelt_rx_str(&rx, "$");
				if (!rx.never && !rx.over)
					seatbelt_out_regex(c->o, 1, &rx);
			}
		}
	}
	seatbelt_out_end(c->o);
}

int
seatbelt_ignore_rules(struct seatbelt_out *o, const struct ignore_set *set,
    const char *workspace)
{
	struct ictx c = { o, set, workspace, BUDGET, 0, false };
	const struct ignore_file *f;
	struct seatbelt_rx *qrx;
	size_t i, j;
	int r = 0;

	if (set == NULL || ignore_set_count(set) == 0)
		return o->err;
	if ((qrx = calloc(QMAX, sizeof(*qrx))) == NULL) {
		r = -ENOMEM;
		goto out;
	}
	seatbelt_out_begin(o, "deny file-read* file-write* file-link", true);
	for (i = 0; r == 0 && (f = ignore_set_file(set, i)) != NULL; i++)
		for (j = 0; r == 0 && j < f->npat; j++)
			if (!(f->pat[j].flags & (IGNORE_NEGATE | IGNORE_NEVER)))
				r = emit_line(&c, &f->pat[j], i, j, qrx);
	seatbelt_out_end(o);
	if (r == 0)
		emit_moves(&c);
out:
	free(qrx);
	if (r < 0 && o->err == 0)
		o->err = r;
	return o->err;
}
