/* Unit tests of the ignore matcher: a table of tricky gitignore cases, parse errors, tokens. */
#include <errno.h>

#include "daemon/policy/ignore.h"
#include "unit.h"
#include "ignore-cases.h"

static void
run_case(const struct ignore_case *c, size_t idx)
{
	const struct ignore_pattern *why = NULL;
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error err;
	size_t i;
	int r;

	CHECK_INT(ignore_set_new(&set), 0);
	for (i = 0; i < 6 && c->files[i] != NULL; i += 2) {
		r = ignore_parse(c->files[i], ".sbxignore", c->files[i + 1],
		    strlen(c->files[i + 1]), &f, &err);
		CHECK_INT(r, 0);
		if (r == 0)
			CHECK_INT(ignore_set_add(set, f), 0);
	}
	r = ignore_set_match(set, c->path, c->is_dir, &why);
	if (r != c->want || (why ? why->line : 0) != c->line)
		fprintf(stderr, "case %zu (%s): got %d line %u\n", idx,
		    c->path, r, why ? why->line : 0);
	CHECK_INT(r, c->want);
	CHECK_INT(why ? why->line : 0, c->line);
	ignore_set_free(set);
}

static struct ignore_file *
parse1(const char *text)
{
	struct ignore_file *f = NULL;
	struct ignore_error err;

	CHECK_INT(ignore_parse("", ".sbxignore", text, strlen(text), &f,
	    &err), 0);
	return f;
}

/* Kinds of p's tokens as letters: L S ? C * ^ (STARSTAR) D (DIRS). */
static const char *
shape(const struct ignore_pattern *p)
{
	static char buf[64];
	size_t i;

	for (i = 0; i < p->ntok && i + 1 < sizeof(buf); i++)
		buf[i] = "?LS?C*^D"[p->tok[i].kind];
	buf[i] = '\0';
	return buf;
}

static void
test_tokens(void)
{
	static const struct {
		const char	*line;
		const char	*shape;
		unsigned	 flags;
	} t[] = {
		{ "foo", "L", 0 },
		{ "!/a/b/", "LSL", IGNORE_NEGATE | IGNORE_ANCHORED |
		    IGNORE_DIRONLY },
		{ "**/x", "DL", IGNORE_ANCHORED },
		{ "a/**/b", "LSDL", IGNORE_ANCHORED },
		{ "a/**", "LS^", IGNORE_ANCHORED },
		{ "a**/b", "LDL", IGNORE_ANCHORED },
		{ "**\\/b", "^SL", IGNORE_ANCHORED },
		{ "a/x**/b", "LSLDL", IGNORE_ANCHORED },	/* git quirk */
		{ "a/?x**/b", "LS?L*SL", IGNORE_ANCHORED },
		{ "**", "*", 0 },
		{ "?[!a]", "?C", 0 },
		{ "\\*\\ x", "L", 0 },
		{ "x[", "", IGNORE_NEVER },
	};
	struct ignore_file *f;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if ((f = parse1(t[i].line)) == NULL)
			continue;
		CHECK_INT(f->npat, 1);
		CHECK_STR(shape(&f->pat[0]), t[i].shape);
		CHECK_INT(f->pat[0].flags, t[i].flags);
		CHECK_STR(f->pat[0].text, t[i].line);
		ignore_file_free(f);
	}
	/* Literals are unescaped; a class is a 256-bit set without '/'. */
	f = parse1("\\*\\ x\n[!a]");
	CHECK(f->pat[0].tok[0].lit.len == 3 &&
	    memcmp(f->pat[0].tok[0].lit.s, "* x", 3) == 0);
	CHECK(!(f->pat[1].tok[0].class['a' >> 3] & (1 << ('a' & 7))));
	CHECK(!(f->pat[1].tok[0].class['/' >> 3] & (1 << ('/' & 7))));
	CHECK(f->pat[1].tok[0].class['b' >> 3] & (1 << ('b' & 7)));
	CHECK(f->pat[1].file == f);
	ignore_file_free(f);
	f = parse1("[[:nope:]]\n\\");
	CHECK_STR(f->pat[0].warn, "unknown [:class:]");
	CHECK_STR(f->pat[1].warn, "trailing '\\'");
	ignore_file_free(f);
}

static void
test_errors(void)
{
	struct ignore_file *f = NULL;
	struct ignore_error err = { 0, NULL };
	char *big;
	size_t i;

	CHECK_INT(ignore_parse("a/../b", "x", "", 0, &f, &err), -EINVAL);
	CHECK_STR(err.reason, "bad directory");
	CHECK_INT(ignore_parse("/a", "x", "", 0, &f, &err), -EINVAL);
	CHECK_INT(ignore_parse("a/", "x", "", 0, &f, &err), -EINVAL);
	CHECK_INT(ignore_parse("", "a/b", "", 0, &f, &err), -EINVAL);
	CHECK_INT(ignore_parse("", "x", "a\nb\0c\n", 6, &f, &err), -EINVAL);
	CHECK_INT(err.line, 2);
	CHECK(f == NULL);

	big = malloc(IGNORE_FILE_MAX + 2);
	memset(big, 'a', IGNORE_FILE_MAX + 1);
	CHECK_INT(ignore_parse("", "x", big, IGNORE_FILE_MAX + 1, &f, &err),
	    -EFBIG);
	big[0] = '\n';
	big[IGNORE_LINE_MAX + 2] = '\n';
	CHECK_INT(ignore_parse("", "x", big, IGNORE_LINE_MAX + 3, &f, &err),
	    -EINVAL);
	CHECK_INT(err.line, 2);
	/* A long comment is fine; so is a line of exactly the maximum. */
	big[1] = '#';
	CHECK_INT(ignore_parse("", "x", big, IGNORE_LINE_MAX + 3, &f, &err),
	    0);
	ignore_file_free(f);
	for (i = 0; i < 2 * (IGNORE_PATTERNS_MAX + 1); i += 2) {
		big[i] = 'a';
		big[i + 1] = '\n';
	}
	CHECK_INT(ignore_parse("", "x", big, 2 * IGNORE_PATTERNS_MAX, &f,
	    &err), 0);
	CHECK_INT(f->npat, IGNORE_PATTERNS_MAX);
	ignore_file_free(f);
	CHECK_INT(ignore_parse("", "x", big, 2 * IGNORE_PATTERNS_MAX + 2, &f,
	    &err), -E2BIG);
	CHECK_INT(err.line, IGNORE_PATTERNS_MAX + 1);
	free(big);
}

static void
add(struct ignore_set *set, const char *dir, const char *name,
    const char *text)
{
	struct ignore_file *f;
	struct ignore_error err;

	CHECK_INT(ignore_parse(dir, name, text, strlen(text), &f, &err), 0);
	CHECK_INT(ignore_set_add(set, f), 0);
}

static void
test_set(void)
{
	const struct ignore_pattern *why = NULL;
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error err;

	CHECK_INT(ignore_set_new(&set), 0);
	add(set, "", ".cursorignore", "*.env\n");
	add(set, "", ".sbxignore", "!public.env\n");
	add(set, "a/b", ".sbxignore", "secret/\n");
	add(set, "a", ".sbxignore", "x\n");
	CHECK_INT(ignore_set_count(set), 4);
	CHECK_STR(ignore_set_file(set, 1)->name, ".sbxignore");
	CHECK_STR(ignore_set_file(set, 2)->dir, "a");
	CHECK(ignore_set_file(set, 4) == NULL);
	/* Same directory: the file added later acts as later lines. */
	CHECK_INT(ignore_set_match(set, "public.env", false, &why), 0);
	CHECK_STR(why->file->name, ".sbxignore");
	CHECK_INT(ignore_set_match(set, "a/b/.env", false, &why), 1);
	CHECK_STR(why->text, "*.env");
	CHECK_INT(ignore_set_match(set, "a/b/secret/k", false, &why), 1);
	CHECK_STR(why->file->dir, "a/b");
	/* The walk variant trusts the caller about parents. */
	CHECK_INT(ignore_set_match_child(set, "a/b/secret/k", false, &why), 0);
	CHECK(why == NULL);
	CHECK_INT(ignore_set_match_child(set, "a/b/secret", true, &why), 1);
	/* Bad paths are refused, not guessed at. */
	CHECK_INT(ignore_set_match(set, "", false, &why), -EINVAL);
	CHECK_INT(ignore_set_match(set, "/a", false, &why), -EINVAL);
	CHECK_INT(ignore_set_match(set, "a//b", false, &why), -EINVAL);
	CHECK_INT(ignore_set_match(set, "a/./b", false, &why), -EINVAL);
	CHECK_INT(ignore_set_match(set, "a/..", false, &why), -EINVAL);
	CHECK_INT(ignore_set_match(set, "a/", false, &why), -EINVAL);
	/* Replace a file: remove, then add the edited text. */
	CHECK_INT(ignore_set_remove(set, "", ".sbxignore"), 0);
	CHECK_INT(ignore_set_remove(set, "", ".sbxignore"), -ENOENT);
	CHECK_INT(ignore_set_match(set, "public.env", false, NULL), 1);
	CHECK_INT(ignore_parse("", ".cursorignore", "", 0, &f, &err), 0);
	CHECK_INT(ignore_set_add(set, f), -EEXIST);
	ignore_file_free(f);
	ignore_set_free(set);
}

static void
test_long_path(void)
{
	const struct ignore_pattern *why;
	struct ignore_set *set;
	char *path;
	size_t i;

	CHECK_INT(ignore_set_new(&set), 0);
	add(set, "", ".sbxignore", "**/z*\n");
	path = malloc(IGNORE_PATH_MAX + 2);
	for (i = 0; i < IGNORE_PATH_MAX; i += 2)
		memcpy(path + i, "a/", 2);
	memcpy(path + IGNORE_PATH_MAX - 2, "zz", 3);
	CHECK_INT(ignore_set_match(set, path, false, &why), 1);
	path[IGNORE_PATH_MAX] = 'z';
	path[IGNORE_PATH_MAX + 1] = '\0';
	CHECK_INT(ignore_set_match(set, path, false, &why), -ENAMETOOLONG);
	free(path);
	ignore_set_free(set);
}

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(ignore_cases) / sizeof(ignore_cases[0]); i++)
		run_case(&ignore_cases[i], i);
	test_tokens();
	test_errors();
	test_set();
	test_long_path();
	UNIT_DONE();
}
