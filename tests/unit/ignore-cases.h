/* The hand-written table of tricky gitignore cases, shared by the ignore tests. */
#ifndef SBX_IGNORE_CASES_H
#define SBX_IGNORE_CASES_H

#include <stdbool.h>

/*
 * Each case: up to three ignore files ("dir" then text), one path, and the
 * expected verdict with the deciding line (0: no line matched).
 * test-ignore runs them through the set, test-ignore-git through git, and
 * a Seatbelt regex generator can run them through its regexes.
 */
struct ignore_case {
	const char	*files[6];
	const char	*path;
	bool		 is_dir;
	int		 want;
	unsigned	 line;
};

#define F(t)		{ "", t }
#define D		true

static const struct ignore_case ignore_cases[] = {
	/* basename patterns match at any depth, files and dirs */
	{ F("foo"), "foo", 0, 1, 1 },
	{ F("foo"), "a/b/foo", D, 1, 1 },
	{ F("foo"), "foobar", 0, 0, 0 },
	{ F("*.log"), "x/.log", 0, 1, 1 },
	{ F("*.log"), "a.log/b", 0, 1, 1 },	/* parent dir excluded */
	/* a slash at the start or in the middle anchors */
	{ F("/foo"), "a/foo", 0, 0, 0 },
	{ F("/foo"), "foo", 0, 1, 1 },
	{ F("a/foo"), "x/a/foo", 0, 0, 0 },
	{ F("doc/*.txt"), "doc/x/a.txt", 0, 0, 0 },
	{ F("doc/*.txt"), "doc/a.txt", 0, 1, 1 },
	/* directory-only */
	{ F("build/"), "build", 0, 0, 0 },
	{ F("build/"), "src/build", D, 1, 1 },
	{ F("build/"), "build/x/y.c", 0, 1, 1 },
	{ F("a/b/"), "a/b", D, 1, 1 },
	{ F("a/b/"), "x/a/b", D, 0, 0 },
	/* ** in leading, trailing and middle positions */
	{ F("**/foo"), "foo", 0, 1, 1 },
	{ F("**/foo"), "x/y/foo", 0, 1, 1 },
	{ F("**/x/foo"), "a/x/foo", 0, 1, 1 },
	{ F("abc/**"), "abc", D, 0, 0 },
	{ F("abc/**"), "abc/x/y", 0, 1, 1 },
	{ F("a/**/b"), "a/b", 0, 1, 1 },
	{ F("a/**/b"), "a/x/y/b", 0, 1, 1 },
	{ F("a/**/b"), "ab", 0, 0, 0 },
	{ F("a/**b"), "a/x/b", 0, 0, 0 },	/* not after '/': a '*' */
	{ F("a/**b"), "a/xb", 0, 1, 1 },
	/* git quirks: ** after the literal prefix, and before "\/" */
	{ F("a**/b"), "ab", 0, 1, 1 },
	{ F("a**/b"), "ax/y/b", 0, 1, 1 },
	{ F("x/a?**/b"), "x/ax/y/b", 0, 0, 0 },
	{ F("**\\/foo"), "foo", 0, 0, 0 },
	{ F("**\\/foo"), "x/foo", 0, 1, 1 },
	{ F("a/b**"), "a/bx/y", 0, 1, 1 },
	/* ?, classes, ranges, negated classes, named classes */
	{ F("a?c"), "abc", 0, 1, 1 },
	{ F("a?c"), "ac", 0, 0, 0 },
	{ F("x/a?c"), "x/a/c", 0, 0, 0 },
	{ F("[a-c]x"), "bx", 0, 1, 1 },
	{ F("[!a-c]x"), "bx", 0, 0, 0 },
	{ F("[^a-c]x"), "dx", 0, 1, 1 },
	{ F("[]a]"), "]", 0, 1, 1 },
	{ F("[a-]"), "-", 0, 1, 1 },
	{ F("[c-a]"), "b", 0, 0, 0 },
	{ F("[[:digit:]]x"), "7x", 0, 1, 1 },
	{ F("[[:space:]]"), "\v", 0, 0, 0 },	/* git's isspace */
	{ F("a[[:]"), "a:", 0, 1, 1 },
	{ F("[[:foo:]]\n*"), "x", 0, 1, 2 },
	{ F("[[:foo:]]"), "f", 0, 0, 0 },	/* never matches */
	{ F("[ab"), "[ab", 0, 0, 0 },
	{ F("x/[/]y"), "x/ /y", 0, 0, 0 },
	/* escapes, comments, trailing spaces */
	{ F("#foo"), "#foo", 0, 0, 0 },
	{ F("\\#foo"), "#foo", 0, 1, 1 },
	{ F("\\!foo"), "!foo", 0, 1, 1 },
	{ F("foo  "), "foo", 0, 1, 1 },
	{ F("foo\\ "), "foo ", 0, 1, 1 },
	{ F("foo\\  "), "foo ", 0, 1, 1 },
	{ F(" foo"), "foo", 0, 0, 0 },
	{ F("foo\t"), "foo\t", 0, 1, 1 },
	{ F("foo\\"), "foo", 0, 0, 0 },
	{ F("f\\oo"), "foo", 0, 1, 1 },
	/* line handling: CRLF, BOM, blank lines keep numbering */
	{ F("\n\nfoo\r\n"), "foo", 0, 1, 3 },
	{ F("\xef\xbb\xbf#c\nfoo"), "foo", 0, 1, 2 },
	{ F("foo\r \n"), "foo\r", 0, 1, 1 },
	/* negation: later lines win */
	{ F("*.log\n!keep.log"), "keep.log", 0, 0, 2 },
	{ F("!keep.log\n*.log"), "keep.log", 0, 1, 2 },
	{ F("*\n!*/\n!*.c"), "x/y/a.c", 0, 0, 3 },
	{ F("*\n!*/\n!*.c"), "x/y/a.h", 0, 1, 1 },
	/* no re-inclusion below an excluded directory */
	{ F("build/\n!build/keep"), "build/keep", 0, 1, 1 },
	{ F("build/*\n!build/keep"), "build/keep", 0, 0, 2 },
	{ F("build/*\n!build/keep"), "build/keep/x", 0, 0, 0 },
	{ F("build/*\n!build/keep"), "build/other", 0, 1, 1 },
	/* deeper files win, and apply only below their directory */
	{ { "", "*.txt", "sub", "!a.txt" }, "sub/a.txt", 0, 0, 1 },
	{ { "", "*.txt", "sub", "!a.txt" }, "a.txt", 0, 1, 1 },
	{ { "", "!x", "sub", "x" }, "sub/x", 0, 1, 1 },
	{ { "sub", "/x" }, "sub/x", 0, 1, 1 },
	{ { "sub", "/x" }, "sub/y/x", 0, 0, 0 },
	{ { "sub", "x" }, "x", 0, 0, 0 },
	{ { "sub", "y/x" }, "sub/y/x", 0, 1, 1 },
	{ { "", "sub/", "sub", "!x" }, "sub/x", 0, 1, 1 },
	{ { "a/b", "*", "a", "!b" }, "a/b", D, 0, 1 },
	{ { "a", "c", "a/b", "!c" }, "a/b/c", 0, 0, 1 },
	/* empty and degenerate lines match nothing */
	{ F("!\n/\n!/\n \n"), "x", 0, 0, 0 },
	{ F("foo//"), "foo", D, 0, 0 },
};

#undef F
#undef D

#endif
