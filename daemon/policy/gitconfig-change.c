/* Whether a rewrite of an existing repository's .git/config (git config
 * user.email, git remote add, git push -u) changes only keys that cannot
 * run a program: both files are parsed as git's config.c parses them
 * (quotes, escapes, continuation lines, comments, [section.sub] and
 * [section "sub"] headers, a key and its value on a header's line), and
 * the entries of every other key must be the same, in the same order,
 * before and after. The user's own config may hold anything; only what
 * changes is judged. Pure. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/gitconfig.h"

/* One `name = value` as git sees it: name is git's full variable name
 * (section and key lower case, a subsection as written), value NULL for
 * a key without '=' (boolean true). */
struct entry {
	char *name;
	char *value;
	size_t vlen;
	unsigned line;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

struct src {
	const char *p, *end;
	unsigned line;
	bool eof;
};

static void
entries_free(struct entries *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->v[i].name);
		free(e->v[i].value);
	}
	free(e->v);
}

/* git's get_next_char: CR LF is LF; the end of the file reads as LF. */
static int
next(struct src *s)
{
	int c;

	if (s->p >= s->end) {
		s->eof = true;
		return '\n';
	}
	c = (unsigned char)*s->p++;
	if (c == '\r' && s->p < s->end && *s->p == '\n')
		c = *s->p++;
	if (c == '\n')
		s->line++;
	return c;
}

/* A growable byte string. */
struct buf {
	char *p;
	size_t n, cap;
};

static int
put(struct buf *b, char c)
{
	char *np;

	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		if (!(np = realloc(b->p, b->cap)))
			return -ENOMEM;
		b->p = np;
	}
	b->p[b->n++] = c;
	b->p[b->n] = '\0';
	return 0;
}

/* git's isspace (sane-ctype.h): not C's, which takes \v and \f too, that
 * git keeps in a value (a hooksPath "\v/usr/hooks" is a directory in the
 * work tree) and refuses elsewhere. */
static bool
gitspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
keychar(int c)
{
	return isalnum(c) || c == '-';
}

/* git's parse_value: -EINVAL where git refuses the file. */
static int
value(struct src *s, struct buf *v)
{
	bool quote = false, comment = false;
	size_t trim = 0; /* where trailing blanks start, 0: none */
	int c;

	if (put(v, '\0') < 0)
		return -ENOMEM;
	v->n = 0;
	for (;;) {
		c = next(s);
		if (c == '\n') {
			if (trim)
				v->p[v->n = trim] = '\0';
			return quote ? -EINVAL : 0;
		}
		if (comment)
			continue;
		/* Kept as they are, a trailing run dropped: older git made
		 * each a space, newer keeps them (a tab stays a tab), so a
		 * change of one for another is a change. */
		if (gitspace(c) && !quote) {
			if (v->n && !trim)
				trim = v->n;
			if (v->n && put(v, (char)c) < 0)
				return -ENOMEM;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		trim = 0;
		if (c == '\\') {
			c = next(s);
			switch (c) {
			case '\n':
				continue;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return -EINVAL;
			}
		} else if (c == '"') {
			quote = !quote;
			continue;
		}
		if (put(v, (char)c) < 0)
			return -ENOMEM;
	}
}

/* git's get_base_var and get_extended_base_var, after the '['. */
static int
header(struct src *s, struct buf *name)
{
	int c;

	for (;;) {
		c = next(s);
		if (s->eof)
			return -EINVAL;
		if (c == ']')
			return name->n ? 0 : -EINVAL;
		if (gitspace(c))
			break;
		if (!keychar(c) && c != '.')
			return -EINVAL;
		if (put(name, (char)tolower(c)) < 0)
			return -ENOMEM;
	}
	do {
		if (c == '\n')
			return -EINVAL;
		c = next(s);
	} while (gitspace(c));
	if (c != '"' || put(name, '.') < 0)
		return -EINVAL;
	for (;;) {
		c = next(s);
		if (c == '\n')
			return -EINVAL;
		if (c == '"')
			break;
		if (c == '\\' && (c = next(s)) == '\n')
			return -EINVAL;
		if (put(name, (char)c) < 0)
			return -ENOMEM;
	}
	return next(s) == ']' && name->n ? 0 : -EINVAL;
}

static int
add(struct entries *e, const struct buf *name, const struct buf *v,
    bool has_value, unsigned line)
{
	struct entry *x, *nv;

	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 16;
		if (!(nv = realloc(e->v, e->cap * sizeof(*nv))))
			return -ENOMEM;
		e->v = nv;
	}
	x = &e->v[e->n];
	memset(x, 0, sizeof(*x));
	x->line = line;
	if (!(x->name = strdup(name->p)))
		return -ENOMEM;
	e->n++;
	if (has_value) {
		if (!(x->value = malloc(v->n + 1)))
			return -ENOMEM;
		memcpy(x->value, v->p ? v->p : "", v->n);
		x->value[v->n] = '\0';
		x->vlen = v->n;
	}
	return 0;
}

/* A key and its value, the key's first letter c already read; name holds
 * the section ("core.") or nothing (a key before any section, which git
 * reads as no variable at all: refused). */
static int
key(struct src *s, struct entries *e, struct buf *name, size_t base, int c,
    struct buf *v)
{
	unsigned line = s->line + 1;
	int r;

	if (base == 0)
		return -EINVAL;
	name->n = base;
	name->p[base] = '\0';
	if ((r = put(name, (char)tolower(c))) < 0)
		return r;
	for (;;) {
		c = next(s);
		if (s->eof || !keychar(c))
			break;
		if ((r = put(name, (char)tolower(c))) < 0)
			return r;
	}
	while (c == ' ' || c == '\t')
		c = next(s);
	if (c == '\n')
		return add(e, name, v, false, line);
	if (c != '=' || (r = value(s, v)) < 0)
		return r < 0 ? r : -EINVAL;
	return add(e, name, v, true, line);
}

/* git's git_parse_source: every entry of the file, in order. */
static int
parse(const char *buf, size_t len, struct entries *e, unsigned *bad_line)
{
	static const char bom[] = "\xef\xbb\xbf";
	struct src s = { buf, buf + len, 0, false };
	struct buf name = { 0 }, v = { 0 };
	bool comment = false;
	size_t base = 0;
	int c, r = 0;

	if (memchr(buf, '\0', len))
		r = -EINVAL; /* git would read the value only up to it */
	if (len >= 3 && !memcmp(buf, bom, 3))
		s.p += 3;
	while (r == 0) {
		c = next(&s);
		if (c == '\n') {
			if (s.eof)
				break;
			comment = false;
			continue;
		}
		if (comment || gitspace(c))
			continue;
		if (c == '#' || c == ';') {
			comment = true;
			continue;
		}
		if (c == '[') {
			name.n = 0;
			if ((r = put(&name, '\0')) == 0) {
				name.n = 0;
				r = header(&s, &name);
			}
			if (r == 0 && (r = put(&name, '.')) == 0)
				base = name.n;
			continue;
		}
		r = isalpha(c) ? key(&s, e, &name, base, c, &v) : -EINVAL;
	}
	if (r < 0 && bad_line)
		*bad_line = s.line + 1;
	free(name.p);
	free(v.p);
	return r;
}

/* Splits git's name "section.sub.key" (sub may hold dots) and asks the
 * table; a subsection is compared as written, sections and keys were
 * lowered by the parser. */
static bool
allowed(const char *name, const char *value, size_t vlen, bool url_locked)
{
	const char *dot = strchr(name, '.'), *last = strrchr(name, '.');
	char section[64];
	size_t sn;

	if (!dot || (sn = (size_t)(dot - name)) >= sizeof(section))
		return false;
	memcpy(section, name, sn);
	section[sn] = '\0';
	if (!gitconfig_key_allowed(section, dot == last ? NULL : dot + 1,
				   last + 1, strlen(last + 1)))
		return false;
	if (url_locked && !strcmp(section, "remote"))
		return false;
	return !value || gitconfig_value_ok(section, last + 1,
					    strlen(last + 1), value, vlen);
}

/* An includeIf "hasconfig:remote.*.url:..." makes a remote URL decide
 * which file git includes: then URLs are not changed either. */
static bool
url_decides(const struct entries *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (!strncmp(e->v[i].name, "includeif.hasconfig:", 20))
			return true;
	return false;
}

static bool
same(const struct entry *a, const struct entry *b)
{
	return !strcmp(a->name, b->name) && !a->value == !b->value &&
	       (!a->value || (a->vlen == b->vlen &&
			      !memcmp(a->value, b->value, a->vlen)));
}

/* Why a key may not change, by what it is. */
static const char *
why(const char *name)
{
	static const struct {
		const char *prefix, *why;
	} reasons[] = {
		{ "core.hookspath", "git runs the hooks it names" },
		{ "core.fsmonitor", "git runs the program it names" },
		{ "core.sshcommand", "git runs the program it names" },
		{ "core.editor", "git runs the program it names" },
		{ "core.pager", "git runs the program it names" },
		{ "core.askpass", "git runs the program it names" },
		{ "core.worktree", "it moves the work tree git acts on" },
		{ "alias.", "an alias can run a shell command" },
		{ "include.", "it makes git read another file's config" },
		{ "includeif.", "it makes git read another file's config" },
		{ "filter.", "git runs a filter's programs on file content" },
		{ "diff.", "git runs diff drivers' programs" },
		{ "merge.", "git runs merge drivers' programs" },
		{ "gpg.", "git runs the signing program it names" },
		{ "credential.", "git runs credential helpers" },
		{ "remote.", "a remote's programs, helpers and transports run "
			     "on fetch and push" },
		{ "submodule.", "a submodule's update command runs on update" },
		{ "extensions.worktreeconfig",
		  "git would read config.worktree, which is not protected" },
	};
	size_t i;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strncmp(name, reasons[i].prefix,
			     strlen(reasons[i].prefix)))
			return reasons[i].why;
	return "not a key sbx lets a sandbox change: it could run a program "
	       "or change what git runs";
}

static int
refuse(struct gitconfig_error *err, const struct entry *x, unsigned line,
       const char *text)
{
	if (err) {
		err->line = line;
		snprintf(err->key, sizeof(err->key), "%s", x ? x->name : "");
		err->why = text ? text : why(x->name);
	}
	return -EINVAL;
}

/* Next entry at or after *i that may not change, or NULL. */
static const struct entry *
next_fixed(const struct entries *e, size_t *i, bool url_locked)
{
	for (; *i < e->n; (*i)++)
		if (!allowed(e->v[*i].name, NULL, 0, url_locked))
			return &e->v[(*i)++];
	return NULL;
}

static int
compare(const struct entries *o, const struct entries *n,
	struct gitconfig_error *err)
{
	bool locked = url_decides(o) || url_decides(n);
	const struct entry *a, *b;
	size_t i = 0, j = 0, k;

	/* Allowed keys may take any allowed value. */
	for (k = 0; k < n->n; k++)
		if (allowed(n->v[k].name, NULL, 0, locked) &&
		    !allowed(n->v[k].name, n->v[k].value, n->v[k].vlen, locked))
			return refuse(err, &n->v[k], n->v[k].line,
				      "remote helper, option or ext transport "
				      "in url");
	for (;;) {
		a = next_fixed(o, &i, locked);
		b = next_fixed(n, &j, locked);
		if (!a && !b)
			return 0;
		if (!a)
			return refuse(err, b, b->line, NULL);
		if (!b)
			return refuse(err, a, 0, NULL);
		if (!same(a, b))
			return refuse(err, strcmp(a->name, b->name) ? b : a,
				      b->line, NULL);
	}
}

int
gitconfig_change_check(const char *old, size_t oldlen, const char *new_,
		       size_t newlen, struct gitconfig_error *err)
{
	struct entries o = { 0 }, n = { 0 };
	unsigned line = 0;
	int r;

	if (oldlen > GITCONFIG_MAX || newlen > GITCONFIG_MAX)
		return refuse(err, NULL, 0, "file too large");
	if ((r = parse(old, oldlen, &o, NULL)) < 0)
		r = refuse(err, NULL, 0, r == -ENOMEM ? "out of memory" :
			   "the repository's config has syntax git refuses");
	else if ((r = parse(new_, newlen, &n, &line)) < 0)
		r = refuse(err, NULL, line, r == -ENOMEM ? "out of memory" :
			   "syntax git refuses");
	else
		r = compare(&o, &n, err);
	entries_free(&o);
	entries_free(&n);
	return r;
}
