/* A small S-expression reader for SBPL text, written independently of the generator's quoting. */
#ifndef SBX_SEXP_H
#define SBX_SEXP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What TinyScheme (the reader inside libsandbox) reads, restricted to
 * what a generated profile may contain: lists, symbols, and strings
 * whose only escapes are \" \\ \n \t \r. Anything else (another escape,
 * "#", "'", an unbalanced parenthesis, a string not closed) is an error,
 * so a profile that passes has exactly the structure the reader shows.
 */
enum sx_kind {
	SX_LIST,
	SX_SYM,
	SX_STR
};

struct sx {
	enum sx_kind	 kind;
	char		*s;	/* SYM, STR: decoded, NUL-terminated */
	size_t		 len;
	struct sx	**v;	/* LIST */
	size_t		 n;
	void		*aux;	/* a user's cache, freed by aux_free */
	void		(*aux_free)(void *);
};

struct sx_reader {
	const char	*p;
	const char	*end;
	int		 line;
	char		 err[128];
};

static inline void
sx_free(struct sx *x)
{
	size_t i;

	if (x == NULL)
		return;
	for (i = 0; i < x->n; i++)
		sx_free(x->v[i]);
	if (x->aux_free != NULL)
		x->aux_free(x->aux);
	free(x->v);
	free(x->s);
	free(x);
}

static inline void
sx_skip(struct sx_reader *r)
{
	while (r->p < r->end) {
		if (*r->p == ';') {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		} else if (*r->p == ' ' || *r->p == '\n' || *r->p == '\t') {
			r->line += *r->p == '\n';
			r->p++;
		} else {
			return;
		}
	}
}

static inline struct sx *
sx_fail(struct sx_reader *r, const char *why, struct sx *x)
{
	if (r->err[0] == '\0')
		snprintf(r->err, sizeof(r->err), "line %d: %s", r->line, why);
	sx_free(x);
	return NULL;
}

static inline struct sx *
sx_string(struct sx_reader *r)
{
	struct sx *x = calloc(1, sizeof(*x));
	char c;

	x->kind = SX_STR;
	x->s = malloc((size_t)(r->end - r->p) + 1);
	for (r->p++; r->p < r->end && *r->p != '"'; r->p++) {
		c = *r->p;
		if (c == '\n')
			return sx_fail(r, "raw newline in a string", x);
		if (c == '\\') {
			if (++r->p == r->end)
				break;
			switch (*r->p) {
			case '"': case '\\': c = *r->p; break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			default:
				return sx_fail(r, "unknown string escape", x);
			}
		}
		x->s[x->len++] = c;
	}
	if (r->p == r->end)
		return sx_fail(r, "string not closed", x);
	r->p++;
	x->s[x->len] = '\0';
	return x;
}

static inline struct sx *sx_read(struct sx_reader *r);

static inline struct sx *
sx_list(struct sx_reader *r)
{
	struct sx *x = calloc(1, sizeof(*x)), *e;

	x->kind = SX_LIST;
	r->p++;
	for (;;) {
		sx_skip(r);
		if (r->p == r->end)
			return sx_fail(r, "list not closed", x);
		if (*r->p == ')') {
			r->p++;
			return x;
		}
		if ((e = sx_read(r)) == NULL)
			return sx_fail(r, "bad element", x);
		x->v = realloc(x->v, (x->n + 1) * sizeof(*x->v));
		x->v[x->n++] = e;
	}
}

/* One form at r->p (after blanks): a list, a string or a symbol. */
static inline struct sx *
sx_read(struct sx_reader *r)
{
	struct sx *x;
	const char *start;

	sx_skip(r);
	if (r->p == r->end)
		return sx_fail(r, "end of text", NULL);
	if (*r->p == '(')
		return sx_list(r);
	if (*r->p == '"')
		return sx_string(r);
	if (*r->p == ')')
		return sx_fail(r, "unbalanced ')'", NULL);
	start = r->p;
	while (r->p < r->end && strchr(" \t\n();\"'#`,", *r->p) == NULL)
		r->p++;
	if (r->p == start)
		return sx_fail(r, "unexpected character", NULL);
	x = calloc(1, sizeof(*x));
	x->kind = SX_SYM;
	x->len = (size_t)(r->p - start);
	x->s = strndup(start, x->len);
	return x;
}

/*
 * Every top-level form of text into a list node (free it with sx_free).
 * NULL on error, with the reason in err.
 */
static inline struct sx *
sx_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct sx_reader r = { text, text + len, 1, "" };
	struct sx *top = calloc(1, sizeof(*top)), *e;

	top->kind = SX_LIST;
	for (;;) {
		sx_skip(&r);
		if (r.p == r.end)
			return top;
		if ((e = sx_read(&r)) == NULL) {
			snprintf(err, errlen, "%s", r.err);
			sx_free(top);
			return NULL;
		}
		top->v = realloc(top->v, (top->n + 1) * sizeof(*top->v));
		top->v[top->n++] = e;
	}
}

/* Is x the symbol s (or, for sx_is_str, the string s)? */
static inline bool
sx_is(const struct sx *x, const char *s)
{
	return x != NULL && x->kind == SX_SYM && strcmp(x->s, s) == 0;
}

static inline bool
sx_head(const struct sx *x, const char *s)
{
	return x != NULL && x->kind == SX_LIST && x->n > 0 && sx_is(x->v[0], s);
}

#endif
