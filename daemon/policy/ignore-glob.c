/* Gitignore globs: compiling pattern text to tokens, and matching tokens against text. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/ignore.h"

/*
 * The compiler reproduces git's wildmatch() as dir.c calls it, quirks
 * included, so that a pattern means here what it means to git:
 *  - "**" is special only when it starts the glob or follows a '/'. The
 *    glob starts after its literal prefix, the bytes before the first of
 *    "*?[\", because dir.c compares that prefix itself and hands only the
 *    rest to wildmatch(): "a**" + "/b" matches "ab", "a/b" and "ax/y/b".
 *  - "**" then '/' is DIRS; "**" at the end, or before an escaped '/', is
 *    STARSTAR (the escaped form has no zero-directory case).
 *  - A '[' without its ']', an unknown "[:name:]", or a trailing '\' make
 *    wildmatch() abort, so the pattern never matches.
 * It runs twice: once counting (e->tok == NULL), once filling one block.
 */
struct emit {
	struct ignore_tok	*tok;
	unsigned char		*cls;
	char			*lit;
	size_t			 ntok;
	size_t			 ncls;
	size_t			 nlit;
	enum ignore_tok_kind	 last;
};

#define BIT_SET(set, c)	((set)[(unsigned char)(c) >> 3] |= 1u << ((c) & 7))

static void
emit_tok(struct emit *e, enum ignore_tok_kind kind)
{
	if (e->tok != NULL)
		e->tok[e->ntok].kind = kind;
	e->ntok++;
	e->last = kind;
}

static void
emit_byte(struct emit *e, unsigned char c)
{
	if (c == '/') {
		emit_tok(e, IGNORE_TOK_SLASH);
		return;
	}
	/* Literals are stored in order, so a run extends the last token. */
	if (e->ntok > 0 && e->last == IGNORE_TOK_LIT) {
		if (e->tok != NULL)
			e->tok[e->ntok - 1].lit.len++;
	} else {
		if (e->tok != NULL) {
			e->tok[e->ntok].lit.s = e->lit + e->nlit;
			e->tok[e->ntok].lit.len = 1;
		}
		emit_tok(e, IGNORE_TOK_LIT);
	}
	if (e->lit != NULL)
		e->lit[e->nlit] = (char)c;
	e->nlit++;
}

static void
emit_class(struct emit *e, const unsigned char set[32])
{
	if (e->tok != NULL) {
		memcpy(e->cls + 32 * e->ncls, set, 32);
		e->tok[e->ntok].kind = IGNORE_TOK_CLASS;
		e->tok[e->ntok].class = e->cls + 32 * e->ncls;
	}
	e->ntok++;
	e->ncls++;
	e->last = IGNORE_TOK_CLASS;
}

/* git's ctype for the bracket classes: ASCII only, space without \v \f. */
static int
class_has(const char *name, size_t len, unsigned c)
{
	static const struct {
		const char	*name;
		const char	*ranges;	/* pairs of bounds */
	} tab[] = {
		{ "alnum", "09AZaz" },
		{ "alpha", "AZaz" },
		{ "blank", "  \t\t" },
		{ "cntrl", "\001\037\177\177" },
		{ "digit", "09" },
		{ "graph", "!~" },
		{ "lower", "az" },
		{ "print", " ~" },
		{ "punct", "!/:@[`{~" },
		{ "space", "  \t\n\r\r" },
		{ "upper", "AZ" },
		{ "xdigit", "09AFaf" },
	};
	size_t i;
	const char *r;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) != len ||
		    memcmp(tab[i].name, name, len) != 0)
			continue;
		for (r = tab[i].ranges; *r != '\0'; r += 2)
			if (c >= (unsigned char)r[0] && c <= (unsigned char)r[1])
				return 1;
		return 0;
	}
	return -1;
}

/* s[i], or the NUL that ends wildmatch()'s copy of the pattern. */
static unsigned
at(const unsigned char *s, size_t len, size_t i)
{
	return i < len ? s[i] : 0;
}

/*
 * Parse the bracket expression at s[0] == '[' exactly as wildmatch() walks
 * it (']' first is a member, '-' ranges need a member before and after,
 * "[:" without ":]" is literal). Returns its length, or 0 when wildmatch()
 * would abort, with *warn set.
 */
static size_t
parse_class(const unsigned char *s, size_t len, unsigned char set[32],
    const char **warn)
{
	size_t i = 1, k, start;
	unsigned c, prev = 0, t;
	int neg, has;

	memset(set, 0, 32);
	c = at(s, len, i);
	neg = c == '!' || c == '^';
	if (neg)
		c = at(s, len, ++i);
	do {
		if (c == 0)
			goto open;
		if (c == '\\') {
			if ((c = at(s, len, ++i)) == 0)
				goto open;
			BIT_SET(set, c);
		} else if (c == '-' && prev != 0 && at(s, len, i + 1) != 0 &&
		    at(s, len, i + 1) != ']') {
			c = at(s, len, ++i);
			if (c == '\\' && (c = at(s, len, ++i)) == 0)
				goto open;
			for (t = prev; t <= c; t++)
				BIT_SET(set, t);
			c = 0;
		} else if (c == '[' && at(s, len, i + 1) == ':') {
			for (start = k = i + 2; at(s, len, k) != 0 && at(s, len, k) != ']'; k++)
				;
			if (at(s, len, k) == 0)
				goto open;
			if (k == start || s[k - 1] != ':') {
				BIT_SET(set, '[');	/* not a class name */
			} else {
				for (t = 1; t < 256; t++) {
					has = class_has((const char *)s + start,
					    k - start - 1, t);
					if (has < 0) {
						*warn = "unknown [:class:]";
						return 0;
					}
					if (has)
						BIT_SET(set, t);
				}
				i = k;
				c = 0;
			}
		} else
			BIT_SET(set, c);
		prev = c;
		c = at(s, len, ++i);
	} while (c != ']');
	for (k = 0; k < 32; k++)
		set[k] = neg ? (unsigned char)~set[k] : set[k];
	/* A class never matches '/' in a path; NUL is never in one. */
	set['/' >> 3] &= (unsigned char)~(1u << ('/' & 7));
	set[0] &= 0xfe;
	return i + 1;
open:
	*warn = "'[' without ']'";
	return 0;
}

/* Emit the run of '*' at s[i]; returns the index after what it consumed. */
static size_t
emit_stars(struct emit *e, const char *s, size_t len, size_t i, size_t first,
    bool anchored)
{
	size_t j = i;

	while (j < len && s[j] == '*')
		j++;
	if (anchored && j - i >= 2 && (i == first || s[i - 1] == '/')) {
		if (j == len) {
			emit_tok(e, IGNORE_TOK_STARSTAR);
			return j;
		}
		if (s[j] == '/') {
			emit_tok(e, IGNORE_TOK_DIRS);
			return j + 1;
		}
		if (s[j] == '\\' && j + 1 < len && s[j + 1] == '/') {
			emit_tok(e, IGNORE_TOK_STARSTAR);
			return j;
		}
	}
	emit_tok(e, IGNORE_TOK_STAR);
	return j;
}

/* Returns 0, or -1 with *warn when git would never match the glob. */
static int
tokenize(struct emit *e, const char *s, size_t len, bool anchored,
    const char **warn)
{
	unsigned char set[32];
	size_t i = 0, first, n;

	for (first = 0; first < len; first++)
		if (strchr("*?[\\", s[first]) != NULL && s[first] != '\0')
			break;
	while (i < len) {
		switch (s[i]) {
		case '\\':
			if (i + 1 == len) {
				*warn = "trailing '\\'";
				return -1;
			}
			emit_byte(e, (unsigned char)s[i + 1]);
			i += 2;
			break;
		case '?':
			emit_tok(e, IGNORE_TOK_ANY);
			i++;
			break;
		case '[':
			n = parse_class((const unsigned char *)s + i, len - i,
			    set, warn);
			if (n == 0)
				return -1;
			emit_class(e, set);
			i += n;
			break;
		case '*':
			i = emit_stars(e, s, len, i, first, anchored);
			break;
		default:
			emit_byte(e, (unsigned char)s[i]);
			i++;
		}
	}
	return 0;
}

int
ignore_glob_compile(struct ignore_pattern *p, const char *s, size_t len,
    bool anchored, const char *line, size_t linelen)
{
	struct emit count = { 0 }, fill = { 0 };
	const char *warn = NULL;
	char *block, *text;
	size_t off;

	if (len == 0)
		warn = "empty pattern";
	else if (tokenize(&count, s, len, anchored, &warn) < 0)
		count = (struct emit){ 0 };
	if (warn != NULL) {
		p->flags |= IGNORE_NEVER;
		p->warn = warn;
	}

	off = count.ntok * sizeof(struct ignore_tok);
	block = malloc(off + 32 * count.ncls + count.nlit + linelen + 1);
	if (block == NULL)
		return -ENOMEM;
	fill.tok = (struct ignore_tok *)(void *)block;
	fill.cls = (unsigned char *)block + off;
	fill.lit = block + off + 32 * count.ncls;
	if (warn == NULL)
		(void)tokenize(&fill, s, len, anchored, &warn);
	text = fill.lit + count.nlit;
	memcpy(text, line, linelen);
	text[linelen] = '\0';
	p->tok = fill.tok;
	p->ntok = fill.ntok;
	p->text = text;
	return 0;
}
