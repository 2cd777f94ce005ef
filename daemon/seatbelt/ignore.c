/* Translates a workspace's ignore set into Seatbelt filters (seatbelt/ignore.h gives the semantics). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/ignore.h"
#include "daemon/seatbelt/reinc.h"

/* "!" lines weighed against one exclude line before it errs to deny. */
#define QMAX	64
/*
 * What one profile may spend on re-includes: automaton work (about a
 * second of CPU) and (require-not ...) filters written. Past either, the
 * remaining lines deny without their re-includes.
 */
#define BUDGET	300000000L
#define NOTS	4096
/*
 * Filters one profile holds for its ignore files. Past it, what the
 * remaining files' directories hold is denied whole, one filter for each
 * top-level directory: a profile stays a size sandbox-exec compiles.
 */
#define FILTERS	10000

/* A "!" line and where it stands in set order. */
struct neg {
	const struct ignore_pattern	*p;
	size_t				 fi, li;
};

struct ictx {
	struct seatbelt_out		*o;
	const struct ignore_set		*set;
	const char			*ws;
	struct neg			*neg;
	size_t				 nneg;
	long				 budget;
	size_t				 nots;
	bool				 spent;	/* and said so */
	bool				 capped; /* FILTERS reached */
	char				 top[IGNORE_PATH_MAX + 1];
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

/* The "!" lines that decide after line li of file fi, in set order. */
static size_t
negations(struct ictx *c, size_t fi, size_t li,
    const struct ignore_pattern **q)
{
	const char *dir = ignore_set_file(c->set, fi)->dir, *gdir;
	const struct neg *g;
	size_t k, n = 0;

	c->budget -= (long)c->nneg;
	for (k = 0; k < c->nneg; k++) {
		g = &c->neg[k];
		gdir = g->p->file->dir;
		if (strcmp(gdir, dir) == 0 ? g->fi < fi ||
		    (g->fi == fi && g->li <= li) : !below(gdir, dir))
			continue;
		if (n == QMAX)
			return QMAX + 1;
		q[n++] = g->p;
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
 * Keeps the "!" lines that can be written and share a path with p, with
 * their regexes in qrx. A line over the string limit is dropped (what it
 * would re-include stays denied); one too complex to compare is kept.
 */
static int
meeting(struct ictx *c, const struct ignore_pattern *p,
    const struct ignore_pattern **q, size_t *nq, struct seatbelt_rx *qrx)
{
	size_t i, n = 0;
	int r;

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
		if ((r = seatbelt_reinc_meets(p, q[i], &c->budget)) == -ENOMEM)
			return r;
		if (r != 0)
			q[n++] = q[i];
	}
	*nq = n;
	return 0;
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
	if (c->nneg > 0 && (c->budget <= 0 || c->nots > NOTS)) {
		if (!c->spent)
			warn(c, p, "ignore files too complex for a macOS "
			    "profile: from this line on, '!' lines do not "
			    "re-include what earlier lines exclude");
		c->spent = true;
		nq = 0;
	} else if ((nq = negations(c, fi, li, q)) > QMAX) {
		warn(c, p, "more than 64 later '!' lines; they do not "
		    "re-include what this line excludes on macOS");
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
	if ((r = seatbelt_reinc_difference(p, q, nq, &desc,
	    &c->budget)) == 1) {
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

/* The directories on the way to f's, each once (prev: the file before). */
static void
move_dirs(struct ictx *c, const struct ignore_file *f,
    const struct ignore_file *prev)
{
	char path[SEATBELT_STR_MAX + 1];
	size_t n;

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
}

/* The directories an anchored line names before its last component. */
static void
move_prefixes(struct ictx *c, const struct ignore_pattern *p,
    struct seatbelt_rx *last)
{
	struct seatbelt_rx rx;
	size_t k;

	for (k = 0; k < p->ntok; k++) {
		if (p->tok[k].kind != IGNORE_TOK_SLASH)
			continue;
		rx_dir(&rx, c->ws, p->file->dir);
		seatbelt_rx_str(&rx, "/");
		seatbelt_rx_toks(&rx, p->tok, k, false);
		seatbelt_rx_str(&rx, "$");
		/* Lines in a row often share their directories. */
		if (rx.never || rx.over || strcmp(rx.s, last->s) == 0)
			continue;
		seatbelt_out_regex(c->o, 1, &rx);
		*last = rx;
	}
}

/*
 * Renaming one of these would carry excluded paths out of their rules.
 * Past FILTERS, every rename and delete below the workspace is denied.
 */
static void
emit_moves(struct ictx *c)
{
	const struct ignore_file *f, *prev = NULL;
	struct seatbelt_rx last;
	size_t i, j;

	seatbelt_rx_init(&last);
	seatbelt_out_begin(c->o, "deny file-write-unlink", true);
	seatbelt_out_path(c->o, NULL, "literal", c->ws);
	for (i = 0; (f = ignore_set_file(c->set, i)) != NULL; prev = f, i++) {
		if (c->o->nfilt >= FILTERS) {
			policy_diag_add(c->o->diags, POLICY_WARNING, "%s: "
			    "warning: too many ignore lines for a macOS "
			    "profile: nothing in the workspace can be renamed "
			    "or deleted", c->ws);
			deny_below(c, "");
			break;
		}
		move_dirs(c, f, prev);
		for (j = 0; j < f->npat; j++)
			if ((f->pat[j].flags & (IGNORE_NEGATE | IGNORE_NEVER |
			    IGNORE_ANCHORED)) == IGNORE_ANCHORED)
				move_prefixes(c, &f->pat[j], &last);
	}
	seatbelt_out_end(c->o);
}

/* Every "!" line that can match, in set order. */
static int
index_negations(struct ictx *c)
{
	const struct ignore_file *f;
	size_t i, j, n = 0;

	for (i = 0; (f = ignore_set_file(c->set, i)) != NULL; i++)
		for (j = 0; j < f->npat; j++)
			n += (f->pat[j].flags & (IGNORE_NEGATE |
			    IGNORE_NEVER)) == IGNORE_NEGATE;
	if (n > 0 && (c->neg = calloc(n, sizeof(*c->neg))) == NULL)
		return -ENOMEM;
	for (i = 0; (f = ignore_set_file(c->set, i)) != NULL; i++)
		for (j = 0; j < f->npat; j++)
			if ((f->pat[j].flags & (IGNORE_NEGATE |
			    IGNORE_NEVER)) == IGNORE_NEGATE)
				c->neg[c->nneg++] = (struct neg){ &f->pat[j],
				    i, j };
	return 0;
}

/* Past FILTERS: f's top-level directory is denied whole, once. */
static void
too_many(struct ictx *c, const struct ignore_file *f)
{
	size_t n = strcspn(f->dir, "/");

	if (!c->capped)
		policy_diag_add(c->o->diags, POLICY_WARNING, "%s%s%s: warning: "
		    "more ignore lines than a macOS profile holds; their "
		    "directories are denied whole", f->dir,
		    f->dir[0] ? "/" : "", f->name);
	if (c->capped && strlen(c->top) == n &&
	    strncmp(c->top, f->dir, n) == 0)
		return;
	c->capped = true;
	snprintf(c->top, sizeof(c->top), "%.*s", (int)n, f->dir);
	deny_below(c, c->top);
}

int
seatbelt_ignore_rules(struct seatbelt_out *o, const struct ignore_set *set,
    const char *workspace)
{
	struct ictx c = { .o = o, .set = set, .ws = workspace,
	    .budget = BUDGET };
	const struct ignore_file *f;
	struct seatbelt_rx *qrx;
	size_t i, j;
	int r;

	if (set == NULL || ignore_set_count(set) == 0)
		return o->err;
	if ((qrx = calloc(QMAX, sizeof(*qrx))) == NULL ||
	    (r = index_negations(&c)) < 0) {
		r = -ENOMEM;
		goto out;
	}
	seatbelt_out_begin(o, "deny file-read* file-write* file-link", true);
	for (i = 0; r == 0 && (f = ignore_set_file(set, i)) != NULL; i++) {
		if (o->nfilt >= FILTERS) {
			too_many(&c, f);
			continue;
		}
		for (j = 0; r == 0 && j < f->npat; j++)
			if (!(f->pat[j].flags & (IGNORE_NEGATE | IGNORE_NEVER)))
				r = emit_line(&c, &f->pat[j], i, j, qrx);
	}
	seatbelt_out_end(o);
	if (r == 0)
		emit_moves(&c);
out:
	free(qrx);
	free(c.neg);
	if (r < 0 && o->err == 0)
		o->err = r;
	return o->err;
}
