/* Ignore files: splitting one file's text into gitignore patterns, and what one pattern matches. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/ignore.h"

bool
ignore_path_valid(const char *path, size_t len, bool empty_ok)
{
	size_t i, seg = 0;

	if (len == 0)
		return empty_ok;
	if (len > IGNORE_PATH_MAX)
		return false;
	/* Components are non-empty, not "." or "..", and hold no NUL. */
	for (i = 0; i <= len; i++) {
		if (i < len && path[i] == '\0')
			return false;
		if (i < len && path[i] != '/')
			continue;
		if (i == seg || (i - seg == 1 && path[seg] == '.') ||
		    (i - seg == 2 && path[seg] == '.' && path[seg + 1] == '.'))
			return false;
		seg = i + 1;
	}
	return true;
}

/* git's trim_trailing_spaces(): unescaped trailing ' ' go, tabs stay. */
static size_t
trim_trailing_spaces(const char *s, size_t n)
{
	size_t i, end = n;
	bool in_space = false;

	for (i = 0; i < n; i++) {
		if (s[i] == ' ') {
			if (!in_space)
				end = i;
			in_space = true;
			continue;
		}
		in_space = false;
		/* An escaped byte is never trimmed; a final '\' keeps all. */
		if (s[i] == '\\' && ++i == n)
			return n;
	}
	return in_space ? end : n;
}

static int
grow(struct ignore_file *f, size_t *cap)
{
	struct ignore_pattern *pat;
	size_t ncap = *cap ? *cap * 2 : 16;

	if ((pat = realloc(f->pat, ncap * sizeof(*pat))) == NULL)
		return -ENOMEM;
	f->pat = pat;
	*cap = ncap;
	return 0;
}

/*
 * One line, without its '\n'. The order of checks is git's: an empty line
 * or a '#' line is skipped before a final CR is dropped, so "\r" alone
 * becomes an empty pattern (which we drop, as it matches nothing).
 */
static int
parse_line(struct ignore_file *f, size_t *cap, const char *s, size_t n,
    unsigned lineno, struct ignore_error *err)
{
	struct ignore_pattern *p;
	const char *body;
	size_t blen;
	bool anchored;
	int r;

	if (n == 0 || s[0] == '#')
		return 0;
	if (s[n - 1] == '\r')
		n--;
	err->line = lineno;
	if (memchr(s, '\0', n) != NULL) {
		err->reason = "NUL byte in a pattern";
		return -EINVAL;
	}
	if (n > IGNORE_LINE_MAX) {
		err->reason = "pattern longer than 4096 bytes";
		return -EINVAL;
	}
	if ((n = trim_trailing_spaces(s, n)) == 0)
		return 0;
	if (f->npat == IGNORE_PATTERNS_MAX) {
		err->reason = "more than 10000 patterns";
		return -E2BIG;
	}
	if (f->npat == *cap && (r = grow(f, cap)) < 0)
		return r;

	p = &f->pat[f->npat];
	memset(p, 0, sizeof(*p));
	p->file = f;
	p->line = lineno;
	body = s;
	blen = n;
	if (body[0] == '!') {
		p->flags |= IGNORE_NEGATE;
		body++;
		blen--;
	}
	if (blen > 0 && body[blen - 1] == '/') {
		p->flags |= IGNORE_DIRONLY;
		blen--;
	}
	/* Any '/' left, even escaped or in brackets, anchors (dir.c). */
	anchored = memchr(body, '/', blen) != NULL;
	if (anchored) {
		p->flags |= IGNORE_ANCHORED;
		if (body[0] == '/') {
			body++;
			blen--;
		}
	}
	if ((r = ignore_glob_compile(p, body, blen, anchored, s, n)) < 0)
		return r;
	f->npat++;
	return 0;
}

void
ignore_file_free(struct ignore_file *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->npat; i++)
		free((void *)f->pat[i].tok);
	free(f->pat);
	free(f->dir);
	free(f->name);
	free(f);
}

static int
file_new(const char *dir, const char *name, struct ignore_file **out)
{
	struct ignore_file *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -ENOMEM;
	f->dir = strdup(dir);
	f->name = strdup(name);
	if (f->dir == NULL || f->name == NULL) {
		ignore_file_free(f);
		return -ENOMEM;
	}
	*out = f;
	return 0;
}

int
ignore_parse(const char *dir, const char *name, const char *text, size_t len,
    struct ignore_file **out, struct ignore_error *err)
{
	struct ignore_file *f;
	struct ignore_error e = { 0, NULL };
	const char *nl;
	size_t pos = 0, end, cap = 0;
	unsigned lineno;
	int r;

	if (!ignore_path_valid(dir, strlen(dir), true)) {
		e.reason = "bad directory";
		r = -EINVAL;
		goto fail;
	}
	if (name[0] == '\0' || strchr(name, '/') != NULL ||
	    !ignore_path_valid(name, strlen(name), false)) {
		e.reason = "bad file name";
		r = -EINVAL;
		goto fail;
	}
	if (len > IGNORE_FILE_MAX) {
		e.reason = "file larger than 1 MiB";
		r = -EFBIG;
		goto fail;
	}
	if ((r = file_new(dir, name, &f)) < 0)
		return r;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	for (lineno = 1; pos < len; lineno++, pos = end + 1) {
		nl = memchr(text + pos, '\n', len - pos);
		end = nl != NULL ? (size_t)(nl - text) : len;
		r = parse_line(f, &cap, text + pos, end - pos, lineno, &e);
		if (r < 0) {
			ignore_file_free(f);
			goto fail;
		}
	}
	*out = f;
	return 0;
fail:
	if (r != -ENOMEM && err != NULL)
		*err = e;
	return r;
}

/*
 * Matching keeps, before each token, the set of text offsets where it may
 * start (a bitset over 0..len). Each token maps that set to the next in one
 * pass, so time is O(tokens * len) whatever the pattern: no backtracking a
 * hostile pattern could make exponential.
 */
#define BIT_HAS(set, c)	((set)[(unsigned char)(c) >> 3] & (1u << ((c) & 7)))
#define WORDS	(IGNORE_PATH_MAX / 64 + 1)

struct offsets {
	uint64_t	 w[WORDS];
};

#define OFF_SET(o, i)	((o)->w[(i) >> 6] |= UINT64_C(1) << ((i) & 63))
#define OFF_HAS(o, i)	(((o)->w[(i) >> 6] >> ((i) & 63)) & 1)

/* Lowest offset in o, or SIZE_MAX when empty. */
static size_t
off_min(const struct offsets *o, size_t nw)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (o->w[i] != 0)
			return i * 64 + (size_t)__builtin_ctzll(o->w[i]);
	return SIZE_MAX;
}

/* Offsets reachable after tok from any offset in in. */
static void
step(const struct ignore_tok *tok, const char *text, size_t len,
    const struct offsets *in, struct offsets *out, size_t nw)
{
	size_t w, p, q, next = 0, lo;
	uint64_t bits;

	memset(out->w, 0, nw * sizeof(out->w[0]));
	if (tok->kind == IGNORE_TOK_STARSTAR || tok->kind == IGNORE_TOK_DIRS) {
		if ((lo = off_min(in, nw)) == SIZE_MAX)
			return;
		for (q = lo; q <= len; q++)
			if (tok->kind == IGNORE_TOK_STARSTAR ||
			    OFF_HAS(in, q) || (q > lo && text[q - 1] == '/'))
				OFF_SET(out, q);
		return;
	}
	for (w = 0; w < nw; w++) {
		for (bits = in->w[w]; bits != 0; bits &= bits - 1) {
			p = w * 64 + (size_t)__builtin_ctzll(bits);
			switch (tok->kind) {
			case IGNORE_TOK_LIT:
				if (len - p >= tok->lit.len &&
				    memcmp(text + p, tok->lit.s,
				    tok->lit.len) == 0)
					OFF_SET(out, p + tok->lit.len);
				break;
			case IGNORE_TOK_SLASH:
				if (p < len && text[p] == '/')
					OFF_SET(out, p + 1);
				break;
			case IGNORE_TOK_ANY:
				if (p < len && text[p] != '/')
					OFF_SET(out, p + 1);
				break;
			case IGNORE_TOK_CLASS:
				if (p < len && BIT_HAS(tok->class, text[p]))
					OFF_SET(out, p + 1);
				break;
			case IGNORE_TOK_STAR:
				/* An earlier start already covered p's run. */
				if (p < next)
					break;
				for (q = p; OFF_SET(out, q), q < len &&
				    text[q] != '/'; q++)
					;
				next = q + 1;
				break;
			default:
				break;
			}
		}
	}
}

static bool
tokens_match(const struct ignore_tok *tok, size_t ntok,
    const char *text, size_t len)
{
	struct offsets a, b, *in = &a, *out = &b, *t;
	const struct ignore_tok *last;
	size_t i, nw;

	if (len > IGNORE_PATH_MAX)
		return false;
	/*
	 * Most patterns start or end with a literal (".env.*", "*.log"), so
	 * most mismatches show without running the sets.
	 */
	if (ntok > 0 && (last = &tok[ntok - 1])->kind == IGNORE_TOK_LIT &&
	    (len < last->lit.len || memcmp(text + len - last->lit.len,
	    last->lit.s, last->lit.len) != 0))
		return false;
	if (ntok > 0 && tok[0].kind == IGNORE_TOK_LIT &&
	    (len < tok[0].lit.len ||
	    memcmp(text, tok[0].lit.s, tok[0].lit.len) != 0))
		return false;
	if (ntok == 1 && tok[0].kind == IGNORE_TOK_LIT)
		return len == tok[0].lit.len;
	nw = len / 64 + 1;
	memset(in->w, 0, nw * sizeof(in->w[0]));
	OFF_SET(in, 0);
	for (i = 0; i < ntok; i++) {
		step(&tok[i], text, len, in, out, nw);
		t = in;
		in = out;
		out = t;
		if (off_min(in, nw) == SIZE_MAX)
			return false;
	}
	return OFF_HAS(in, len) != 0;
}

bool
ignore_pattern_match(const struct ignore_pattern *p, const char *rel,
    size_t len, bool is_dir)
{
	size_t i;

	if ((p->flags & IGNORE_NEVER) ||
	    ((p->flags & IGNORE_DIRONLY) && !is_dir))
		return false;
	if (!(p->flags & IGNORE_ANCHORED)) {
		/* Unanchored: the last component, at any depth. */
		for (i = len; i > 0 && rel[i - 1] != '/'; i--)
			;
		rel += i;
		len -= i;
	}
	return tokens_match(p->tok, p->ntok, rel, len);
}
