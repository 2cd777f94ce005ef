/* Matches path globs component by component and environment names by '*'. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "daemon/policy/glob.h"
#include "daemon/policy/path.h"

#define MAX_COMPONENTS (POLICY_PATH_MAX / 2 + 1)

/* Offsets, not pointers: two of these live on the stack. */
struct comps {
	unsigned short off[MAX_COMPONENTS];
	unsigned short len[MAX_COMPONENTS];
	size_t n;
};

static bool
split(const char *path, struct comps *c)
{
	const char *p = path, *end;

	c->n = 0;
	if (strlen(path) >= POLICY_PATH_MAX)
		return false;
	while (*p != '\0') {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		end = p + strcspn(p, "/");
		c->off[c->n] = (unsigned short)(p - path);
		c->len[c->n++] = (unsigned short)(end - p);
		p = end;
	}
	return true;
}

/* One pattern element (a char, ?, or a [class]) against ch. */
static bool
elem_match(const char **next, const char *p, const char *pend,
    unsigned char ch)
{
	const char *q, *end = NULL;
	bool neg, hit = false;

	if (*p != '[') {
		*next = p + 1;
		return *p == '?' || (unsigned char)*p == ch;
	}
	q = p + 1;
	neg = q < pend && (*q == '!' || *q == '^');
	if (neg)
		q++;
	/* A ']' right after '[' is a member, so the search starts one on. */
	if (q < pend)
		end = memchr(q + 1, ']', (size_t)(pend - q - 1));
	if (end == NULL) {
		*next = p + 1;
		return ch == '[';
	}
	for (; q < end; q++) {
		if (q + 2 < end && q[1] == '-') {
			hit |= (unsigned char)q[0] <= ch &&
			    ch <= (unsigned char)q[2];
			q += 2;
		} else {
			hit |= (unsigned char)*q == ch;
		}
	}
	*next = end + 1;
	return hit != neg;
}

/* Star matching with one backtrack point: no exponential cases. */
static bool
comp_match(const char *p, size_t pn, const char *s, size_t sn)
{
	const char *pend = p + pn, *send = s + sn;
	const char *star = NULL, *resume = NULL, *next;

	while (s < send) {
		if (p < pend && *p == '*') {
			star = ++p;
			resume = s;
			continue;
		}
		if (p < pend && elem_match(&next, p, pend,
		    (unsigned char)*s)) {
			p = next;
			s++;
			continue;
		}
		if (star == NULL)
			return false;
		p = star;
		s = ++resume;
	}
	while (p < pend && *p == '*')
		p++;
	return p == pend;
}

/*
 * Row j says whether the pattern components seen so far match the first j
 * path components; one row is kept, so the cost is components squared and
 * the memory fixed. The last row answers for the whole path, or for any
 * ancestor when prefix is set.
 */
static bool
glob_table(const char *pattern, const char *path, bool prefix)
{
	struct comps pc, sc;
	bool row[MAX_COMPONENTS + 1], any;
	size_t i, j;

	if (!split(pattern, &pc) || !split(path, &sc))
		return false;
	memset(row, 0, sizeof(row));
	row[0] = true;
	for (i = 0; i < pc.n; i++) {
		if (pc.len[i] == 2 &&
		    memcmp(pattern + pc.off[i], "**", 2) == 0) {
			any = false;
			for (j = 0; j <= sc.n; j++) {
				any = any || row[j];
				row[j] = any;
			}
			continue;
		}
		for (j = sc.n; j > 0; j--)
			row[j] = row[j - 1] && comp_match(pattern + pc.off[i],
			    pc.len[i], path + sc.off[j - 1], sc.len[j - 1]);
		row[0] = false;
	}
	if (!prefix)
		return row[sc.n];
	for (j = 0; j <= sc.n; j++)
		if (row[j])
			return true;
	return false;
}

/*
 * A leading ** component then literal components (no * ? [): the shape of
 * most rules (protected names at any depth). Whether path ends in those
 * components is a suffix test, and a workspace walk asks it of every
 * entry. The literal part, or NULL when pattern has another shape.
 */
static const char *
literal_tail(const char *pattern)
{
	const char *t = pattern + 4;

	if (strncmp(pattern, "/**/", 4) != 0 || *t == '\0' ||
	    strpbrk(t, "*?[") != NULL || strstr(t, "//") != NULL ||
	    t[strlen(t) - 1] == '/')
		return NULL;
	return t;
}

/* A pattern whose last component is literal matches only paths whose
 * last component is that: a test of the ends, before the full match, for
 * the rules of other shapes a walk asks about every entry
 * (.git/worktrees/WILD/config, .git/modules/DEEP/hooks, ...). */
static bool
last_differs(const char *pattern, const char *path)
{
	const char *lp = strrchr(pattern, '/'), *ls = strrchr(path, '/');

	if (!lp || !lp[1] || strpbrk(lp + 1, "*?[") || !ls || !ls[1])
		return false; /* (a trailing '/': the full match decides) */
	return strcmp(lp + 1, ls + 1) != 0;
}

bool
policy_glob_match_path(const char *pattern, const char *path)
{
	const char *tail = literal_tail(pattern);
	size_t n, k;

	if (tail == NULL)
		return !last_differs(pattern, path) &&
		       glob_table(pattern, path, false);
	n = strlen(path);
	k = strlen(tail);
	return n < POLICY_PATH_MAX && n > k && path[n - k - 1] == '/' &&
	    memcmp(path + n - k, tail, k) == 0;
}

bool
policy_glob_covers_path(const char *pattern, const char *path)
{
	return glob_table(pattern, path, true);
}

bool
policy_glob_match_name(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*p == '*') {
			star = ++p;
			resume = s;
		} else if (*p == *s) {
			p++;
			s++;
		} else if (star != NULL) {
			p = star;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}
