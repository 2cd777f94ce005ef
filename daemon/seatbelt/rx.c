/* Builds the regexes of Seatbelt rules: escaped literals, byte classes, ignore tokens and policy globs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/seatbelt/rx.h"

#define HAS(set, c)	((set)[(unsigned char)(c) >> 3] & (1u << ((c) & 7)))
#define ADD(set, c)	((set)[(unsigned char)(c) >> 3] |= \
			    (unsigned char)(1u << ((c) & 7)))
#define DEL(set, c)	((set)[(unsigned char)(c) >> 3] &= \
			    (unsigned char)~(1u << ((c) & 7)))

/* Bytes a path on macOS can hold: not NUL, and 0xfe/0xff are never UTF-8. */
#define BYTE_MIN	0x01
#define BYTE_MAX	0xfd

void
seatbelt_rx_init(struct seatbelt_rx *rx)
{
	rx->len = rx->qlen = 0;
	rx->s[0] = '\0';
	rx->over = rx->never = false;
}

/* Bytes the SBPL string quoting writes as two. */
static size_t
quoted_len(unsigned char c)
{
	return c == '\\' || c == '"' || c == '\n' || c == '\t' ||
	    c == '\r' ? 2 : 1;
}

void
seatbelt_rx_raw(struct seatbelt_rx *rx, const char *s, size_t n)
{
	size_t i, q = 0;

	for (i = 0; i < n; i++)
		q += quoted_len((unsigned char)s[i]);
	if (rx->over || rx->qlen + q > SEATBELT_STR_MAX) {
		rx->over = true;
		return;
	}
	memcpy(rx->s + rx->len, s, n);
	rx->len += n;
	rx->qlen += q;
	rx->s[rx->len] = '\0';
}

void
seatbelt_rx_str(struct seatbelt_rx *rx, const char *s)
{
	seatbelt_rx_raw(rx, s, strlen(s));
}

void
seatbelt_rx_cat(struct seatbelt_rx *rx, const struct seatbelt_rx *o)
{
	seatbelt_rx_raw(rx, o->s, o->len);
	rx->over |= o->over;
	rx->never |= o->never;
}

static bool
is_alpha(unsigned c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

void
seatbelt_rx_lit(struct seatbelt_rx *rx, const char *s, size_t n, bool fold)
{
	char buf[5];
	size_t i;
	unsigned c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c < BYTE_MIN || c > BYTE_MAX) {
			rx->never = true;
		} else if (fold && is_alpha(c)) {
			snprintf(buf, sizeof(buf), "[%c%c]", c & ~0x20u,
			    c | 0x20);
			seatbelt_rx_raw(rx, buf, 4);
		} else if (strchr(".[\\()*+?{|^$", (int)c) != NULL) {
			buf[0] = '\\';
			buf[1] = (char)c;
			seatbelt_rx_raw(rx, buf, 2);
		} else {
			buf[0] = (char)c;
			seatbelt_rx_raw(rx, buf, 1);
		}
	}
}

/* Inside brackets these mean something to one engine or another. */
static bool
bracket_safe(unsigned c)
{
	return strchr("\\[]^-", (int)c) == NULL;
}

/* Members of set from lo on, as bracket items ("a", "ab", "a-z"). */
static void
bracket_items(struct seatbelt_rx *rx, const unsigned char set[32])
{
	unsigned c, end;
	char buf[3];

	for (c = BYTE_MIN; c <= BYTE_MAX; c = end + 1) {
		if (!HAS(set, c) || !bracket_safe(c)) {
			end = c;
			continue;
		}
		for (end = c; end + 1 <= BYTE_MAX && HAS(set, end + 1) &&
		    bracket_safe(end + 1); end++)
			;
		buf[0] = (char)c;
		buf[1] = (char)(end - c >= 2 ? '-' : end);
		buf[2] = (char)end;
		if (end == c)
			seatbelt_rx_raw(rx, buf, 1);
		else if (end - c == 1)
			seatbelt_rx_raw(rx, buf, 2);
		else
			seatbelt_rx_raw(rx, buf, 3);
	}
}

/*
 * A class as "[...]", "[^...]" when its complement is short and plain,
 * or "([...]|\\[|-)" when members cannot stand inside brackets.
 */
static void
emit_class(struct seatbelt_rx *rx, const unsigned char set[32],
    unsigned count)
{
	unsigned char comp[32];
	unsigned c, ncomp = 0, nalt = 0, nbr = 0;
	bool plain = true, first = true, group;
	char ch;

	memset(comp, 0, sizeof(comp));
	for (c = BYTE_MIN; c <= BYTE_MAX; c++) {
		if (!HAS(set, c)) {
			ADD(comp, c);
			ncomp++;
			plain = plain && bracket_safe(c);
		} else if (bracket_safe(c)) {
			nbr++;
		} else {
			nalt++;
		}
	}
	if (ncomp == 0) {
		seatbelt_rx_str(rx, ".");
		return;
	}
	if (plain && ncomp <= 16 && ncomp < count) {
		seatbelt_rx_str(rx, "[^");
		bracket_items(rx, comp);
		seatbelt_rx_str(rx, "]");
		return;
	}
	group = nalt > 0 && (nbr > 0 || nalt > 1);
	if (group)
		seatbelt_rx_str(rx, "(");
	if (nbr > 0) {
		seatbelt_rx_str(rx, "[");
		bracket_items(rx, set);
		seatbelt_rx_str(rx, "]");
		first = false;
	}
	for (c = BYTE_MIN; c <= BYTE_MAX; c++) {
		if (!HAS(set, c) || bracket_safe(c))
			continue;
		if (!first)
			seatbelt_rx_str(rx, "|");
		first = false;
		ch = (char)c;
		seatbelt_rx_lit(rx, &ch, 1, false);
	}
	if (group)
		seatbelt_rx_str(rx, ")");
}

void
seatbelt_rx_set(struct seatbelt_rx *rx, const unsigned char set[32])
{
	unsigned c, count = 0, last = 0;
	char ch;

	for (c = BYTE_MIN; c <= BYTE_MAX; c++)
		if (HAS(set, c))
			count++, last = c;
	if (count == 0) {
		rx->never = true;
		return;
	}
	ch = (char)last;
	if (count == 1)
		seatbelt_rx_lit(rx, &ch, 1, false);
	else
		emit_class(rx, set, count);
}

void
seatbelt_rx_class(struct seatbelt_rx *rx, const unsigned char in[32],
    bool fold)
{
	unsigned char set[32];
	unsigned c;

	memcpy(set, in, sizeof(set));
	DEL(set, '/');
	for (c = 'A'; fold && c <= 'Z'; c++)
		if (HAS(set, c) || HAS(set, c | 0x20)) {
			ADD(set, c);
			ADD(set, c | 0x20);
		}
	seatbelt_rx_set(rx, set);
}

void
seatbelt_rx_toks(struct seatbelt_rx *rx, const struct ignore_tok *tok,
    size_t ntok, bool fold)
{
	size_t i;

	for (i = 0; i < ntok; i++) {
		switch (tok[i].kind) {
		case IGNORE_TOK_LIT:
			seatbelt_rx_lit(rx, tok[i].lit.s, tok[i].lit.len, fold);
			break;
		case IGNORE_TOK_SLASH:
			seatbelt_rx_str(rx, "/");
			break;
		case IGNORE_TOK_ANY:
			seatbelt_rx_str(rx, "[^/]");
			break;
		case IGNORE_TOK_CLASS:
			seatbelt_rx_class(rx, tok[i].class, fold);
			break;
		case IGNORE_TOK_STAR:
			seatbelt_rx_str(rx, "[^/]*");
			break;
		case IGNORE_TOK_STARSTAR:
			seatbelt_rx_str(rx, ".*");
			break;
		case IGNORE_TOK_DIRS:
			seatbelt_rx_str(rx, "(.*/)?");
			break;
		}
	}
}

/* Length of the /private/ link prefix path starts with ("/var"), or 0. */
static size_t
link_prefix(const char *path, bool *private)
{
	static const char *const dirs[] = { "/var", "/tmp", "/etc" };
	size_t i, n;

	*private = strncmp(path, "/private/", 9) == 0;
	if (*private)
		path += 8;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		n = strlen(dirs[i]);
		if (strncmp(path, dirs[i], n) == 0 &&
		    (path[n] == '/' || path[n] == '\0'))
			return n;
	}
	return 0;
}

int
seatbelt_rx_alias(const char *path, char *out, size_t len)
{
	bool private;
	int n;

	if (link_prefix(path, &private) == 0)
		return 0;
	n = snprintf(out, len, "%s%s", private ? "" : "/private",
	    path + (private ? 8 : 0));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 1;
}

void
seatbelt_rx_anchor(struct seatbelt_rx *rx, const char *path, bool fold)
{
	bool private;

	seatbelt_rx_str(rx, "^");
	if (link_prefix(path, &private) > 0) {
		seatbelt_rx_str(rx, "(/private)?");
		path += private ? 8 : 0;
	}
	seatbelt_rx_lit(rx, path, strlen(path), fold);
}

/*
 * One component of a policy glob, read exactly as policy/glob.c's
 * elem_match() reads it: "[" without a later "]" is a literal, a "]"
 * right after "[" or "[!" is a member, "a-c" is a range.
 */
static void
glob_component(struct seatbelt_rx *rx, const char *p, size_t n, bool fold)
{
	unsigned char set[32];
	const char *end;
	size_t i = 0, q, c;
	bool neg;

	while (i < n) {
		if (p[i] == '*') {
			while (i < n && p[i] == '*')
				i++;
			seatbelt_rx_str(rx, "[^/]*");
			continue;
		}
		if (p[i] == '?') {
			seatbelt_rx_str(rx, "[^/]");
			i++;
			continue;
		}
		q = i + 1;
		neg = q < n && (p[q] == '!' || p[q] == '^');
		q += neg;
		end = p[i] == '[' && q < n ?
		    memchr(p + q + 1, ']', n - q - 1) : NULL;
		if (end == NULL) {
			seatbelt_rx_lit(rx, p + i, 1, fold);
			i++;
			continue;
		}
		memset(set, 0, sizeof(set));
		for (; p + q < end; q++) {
			if (p + q + 2 < end && p[q + 1] == '-') {
				for (c = (unsigned char)p[q];
				    c <= (unsigned char)p[q + 2]; c++)
					ADD(set, c);
				q += 2;
			} else {
				ADD(set, (unsigned char)p[q]);
			}
		}
		for (c = 0; neg && c < 32; c++)
			set[c] = (unsigned char)~set[c];
		seatbelt_rx_class(rx, set, fold);
		i = (size_t)(end - p) + 1;
	}
}

void
seatbelt_rx_glob(struct seatbelt_rx *rx, const char *glob, bool fold)
{
	const char *p = glob, *end, *lit_end = glob;
	char prefix[SEATBELT_STR_MAX + 1];
	size_t n;

	/* The components before the first glob one are a plain path. */
	while (*p == '/') {
		end = p + 1 + strcspn(p + 1, "/");
		if (memchr(p + 1, '*', (size_t)(end - p - 1)) ||
		    memchr(p + 1, '?', (size_t)(end - p - 1)) ||
		    memchr(p + 1, '[', (size_t)(end - p - 1)))
			break;
		p = lit_end = end;
	}
	n = (size_t)(lit_end - glob);
	if (n >= sizeof(prefix)) {
		rx->over = true;
		return;
	}
	memcpy(prefix, glob, n);
	prefix[n] = '\0';
	seatbelt_rx_anchor(rx, prefix, fold);
	while (*p == '/') {
		p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '*' && p[1] == '*') {
			/* Trailing ones add nothing to what a glob covers. */
			if (p[n] != '\0')
				seatbelt_rx_str(rx, "(/.*)?");
		} else {
			seatbelt_rx_str(rx, "/");
			glob_component(rx, p, n, fold);
		}
		p += n;
	}
}
