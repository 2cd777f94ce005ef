/* Scans policy JSON once to index where each shallow value begins. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/loc.h"

/* jansson refuses nesting deeper than this; the scan gives up there too. */
#define SCAN_MAX_STACK 2048

struct frame {
	int entry;		/* recorded entry of this container, or -1 */
	bool obj;
	bool want_key;
	size_t next;		/* index of the next array element */
	char *key;		/* pending member name */
	int kline, kcol;
};

struct scan {
	const char *buf;
	size_t len, pos;
	int line, col;
	struct frame *stack;
	size_t depth;
	struct policy_loc *loc;
};

/* Columns count characters, as jansson's do, so both kinds of error agree. */
static void
scan_advance(struct scan *s)
{
	unsigned char c = (unsigned char)s->buf[s->pos++];

	if (c == '\n') {
		s->line++;
		s->col = 1;
	} else if ((c & 0xc0) != 0x80) {
		s->col++;
	}
}

static void
scan_skip_string(struct scan *s)
{
	char c;

	scan_advance(s);
	while (s->pos < s->len) {
		c = s->buf[s->pos];
		scan_advance(s);
		if (c == '"')
			return;
		if (c == '\\' && s->pos < s->len)
			scan_advance(s);
	}
}

static void
scan_skip_scalar(struct scan *s)
{
	do
		scan_advance(s);
	while (s->pos < s->len &&
	    strchr(",]}:\" \t\r\n", s->buf[s->pos]) == NULL);
}

static int
hex4(const char *p, size_t n)
{
	int v = 0, i, d;

	if (n < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		d = p[i];
		if (d >= '0' && d <= '9')
			d -= '0';
		else if ((d | 0x20) >= 'a' && (d | 0x20) <= 'f')
			d = (d | 0x20) - 'a' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static char *
utf8_put(char *o, long cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* Decodes a member name so it compares equal to jansson's key. */
static char *
scan_decode(const char *p, size_t n)
{
	char *out, *o;
	size_t i = 0;
	long cp, lo;

	if ((out = malloc(n + 1)) == NULL)
		return NULL;
	o = out;
	while (i < n) {
		if (p[i] != '\\' || i + 1 >= n) {
			*o++ = p[i++];
			continue;
		}
		i += 2;
		switch (p[i - 1]) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if ((cp = hex4(p + i, n - i)) < 0)
				break;
			i += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && i + 6 <= n &&
			    p[i] == '\\' && p[i + 1] == 'u' &&
			    (lo = hex4(p + i + 2, n - i - 2)) >= 0xdc00 &&
			    lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 6;
			}
			o = utf8_put(o, cp);
			break;
		default:
			*o++ = p[i - 1];
		}
	}
	*o = '\0';
	return out;
}

static int
scan_key(struct scan *s, struct frame *top)
{
	size_t start = s->pos;

	top->kline = s->line;
	top->kcol = s->col;
	top->want_key = false;
	scan_skip_string(s);
	if (top->entry < 0 || s->depth > POLICY_LOC_DEPTH)
		return 0;
	free(top->key);
	top->key = scan_decode(s->buf + start + 1, s->pos - start - 2);
	return top->key ? 0 : -ENOMEM;
}

static int
scan_value(struct scan *s, int *entry)
{
	struct frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
	struct policy_loc *loc = s->loc;
	struct policy_loc_entry *e, *nv;
	int kline = s->line, kcol = s->col;
	size_t index = 0, cap;
	char *key = NULL;

	*entry = -1;
	if (top != NULL && top->obj) {
		key = top->key;
		top->key = NULL;
		kline = top->kline;
		kcol = top->kcol;
	} else if (top != NULL) {
		index = top->next++;
	}
	if (s->depth > POLICY_LOC_DEPTH || (top != NULL &&
	    (top->entry < 0 || (top->obj && key == NULL)))) {
		free(key);
		return 0;
	}
	if (loc->n == loc->cap) {
		cap = loc->cap ? loc->cap * 2 : 32;
		if ((nv = realloc(loc->v, cap * sizeof(*nv))) == NULL) {
			free(key);
			return -ENOMEM;
		}
		loc->v = nv;
		loc->cap = cap;
	}
	e = &loc->v[loc->n];
	e->parent = top ? top->entry : -1;
	e->index = index;
	e->key = key;
	e->line = s->line;
	e->col = s->col;
	e->kline = kline;
	e->kcol = kcol;
	*entry = (int)loc->n++;
	return 0;
}

static int
scan_step(struct scan *s)
{
	struct frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
	char c = s->buf[s->pos];
	int entry, r;

	switch (c) {
	case ' ': case '\t': case '\n': case '\r': case ':':
		scan_advance(s);
		return 0;
	case ',':
		if (top != NULL && top->obj)
			top->want_key = true;
		scan_advance(s);
		return 0;
	case '{': case '[':
		if (s->depth == SCAN_MAX_STACK)
			return 1;
		r = scan_value(s, &entry);
		s->stack[s->depth++] = (struct frame){ .entry = entry,
		    .obj = c == '{', .want_key = c == '{' };
		scan_advance(s);
		return r;
	case '}': case ']':
		if (top != NULL) {
			free(top->key);
			s->depth--;
		}
		scan_advance(s);
		return 0;
	case '"':
		if (top != NULL && top->obj && top->want_key)
			return scan_key(s, top);
		r = scan_value(s, &entry);
		scan_skip_string(s);
		return r;
	default:
		r = scan_value(s, &entry);
		scan_skip_scalar(s);
		return r;
	}
}

int
policy_loc_build(struct policy_loc *loc, const char *buf, size_t len)
{
	struct scan s = { .buf = buf, .len = len, .line = 1, .col = 1,
	    .loc = loc };
	int r = 0;

	memset(loc, 0, sizeof(*loc));
	if ((s.stack = calloc(SCAN_MAX_STACK, sizeof(*s.stack))) == NULL)
		return -ENOMEM;
	while (s.pos < len && r == 0)
		r = scan_step(&s);
	while (s.depth > 0)
		free(s.stack[--s.depth].key);
	free(s.stack);
	if (r < 0) {
		policy_loc_free(loc);
		return r;
	}
	return 0;
}

void
policy_loc_free(struct policy_loc *loc)
{
	size_t i;

	for (i = 0; i < loc->n; i++)
		free(loc->v[i].key);
	free(loc->v);
	memset(loc, 0, sizeof(*loc));
}

static bool
loc_match(const struct policy_loc *loc, size_t i,
    const struct policy_loc_step *path, size_t depth)
{
	const struct policy_loc_entry *en;
	const struct policy_loc_step *st;
	int e = (int)i;

	for (; depth > 0; depth--) {
		if (e < 0)
			return false;
		en = &loc->v[e];
		st = &path[depth - 1];
		if (st->key != NULL ? en->key == NULL ||
		    strcmp(st->key, en->key) != 0 :
		    en->key != NULL || en->index != st->index)
			return false;
		e = en->parent;
	}
	return e >= 0 && loc->v[e].parent < 0;
}

const struct policy_loc_entry *
policy_loc_find(struct policy_loc *loc, const struct policy_loc_step *path,
    size_t depth)
{
	size_t k, i;

	for (k = 0; k < loc->n; k++) {
		i = (loc->cursor + k) % loc->n;
		if (loc_match(loc, i, path, depth)) {
			loc->cursor = i;
			return &loc->v[i];
		}
	}
	return NULL;
}
