/* Random gitignore scenarios (trees, ignore files) for differential tests of the matcher. */
#ifndef SBX_IGNORE_GEN_H
#define SBX_IGNORE_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * A scenario is a tree of nodes plus ignore files (directory and text).
 * Names and pattern pieces come from small alphabets that collide, so a
 * good share of paths match; the pieces cover every gitignore feature and
 * the malformed forms. rng_state must be seeded (non-zero) by the test.
 */
#define MAXNODES	96
#define MAXFILES	5

struct node {
	char	 path[256];
	bool	 is_dir;
};

struct scenario {
	struct node	 node[MAXNODES];
	size_t		 nnode;
	char		 dir[MAXFILES][256];
	char		 text[MAXFILES][2048];
	size_t		 nfile;
};

static uint64_t rng_state;	/* xorshift64 */

static inline unsigned
rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

#define PICK(a)	((a)[rnd(sizeof(a) / sizeof((a)[0]))])

/* Names chosen to collide with the pattern pieces below. */
static const char *const names[] = {
	"a", "b", "ab", "ba", "abc", "a.c", "b.log", ".log", "foo", "Foo",
	"x y", " a", "a ", "#a", "!a", "a*", "[a]", "a\\b", "-", "]", "1",
	"a\tb", "\xc3\xa9", "a\\", ".a", "ab c", "fooab", "a.log", "b]",
};

static const char *const atoms[] = {
	"a", "b", "ab", "a", "b", "foo", ".log", ".c", "o", "c", " ", "1",
	"*", "*", "*", "?", "**", "***", "[ab]", "[!a]", "[^a]", "[a-c]",
	"[]a]", "[a-]", "[-a]", "[[:alpha:]]", "[[:space:]]", "[[:punct:]]",
	"[[:digit:]x]", "[[:foo:]]", "[[:]", "[\\]]", "[a", "[!]", "[c-a]",
	"\\*", "\\?", "\\[", "\\ ", "\\a", "\\\\", "]", "#", "!", "-",
	"\xc3\xa9", "\t", "[\xc3-\xc4]",
};

static inline void
cat(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, cap - n, "%s", s);
}

static inline void
gen_segment(char *line, size_t cap)
{
	unsigned i, n;

	if (rnd(100) < 15) {
		cat(line, cap, rnd(4) ? "**" : "***");
		return;
	}
	for (i = 0, n = 1 + rnd(3); i < n; i++)
		cat(line, cap, rnd(3) ? PICK(atoms) : PICK(names));
}

static inline void
gen_line(char *text, size_t cap)
{
	static const char *const pre[] = { "!", "!", "!", "\\!", "\\#",
	    "#", " ", "!/" };
	static const char *const post[] = { "/", "/", "/", " ", "  ", "\\ ",
	    "\\", "//", "\r", "/\r", " \r", "\\ \\ " };
	char line[256] = "";
	unsigned i, n;

	if (rnd(100) < 5) {
		cat(text, cap, "\n");
		return;
	}
	if (rnd(100) < 30)
		cat(line, sizeof(line), PICK(pre));
	if (rnd(100) < 25)
		cat(line, sizeof(line), "/");
	for (i = 0, n = 1 + rnd(3); i < n; i++) {
		if (i > 0)
			cat(line, sizeof(line), rnd(30) ? "/" : "\\/");
		gen_segment(line, sizeof(line));
	}
	if (rnd(100) < 35)
		cat(line, sizeof(line), PICK(post));
	cat(text, cap, line);
	cat(text, cap, "\n");
}

static inline bool
has_node(const struct scenario *sc, const char *path)
{
	size_t i;

	for (i = 0; i < sc->nnode; i++)
		if (strcmp(sc->node[i].path, path) == 0)
			return true;
	return false;
}

/* A random tree: every prefix of a generated path is a directory. */
static inline void
gen_tree(struct scenario *sc)
{
	char path[256];
	unsigned i, d, depth, n = 4 + rnd(30);
	size_t j;

	sc->nnode = 0;
	for (i = 0; i < n && sc->nnode + 4 < MAXNODES; i++) {
		path[0] = '\0';
		for (d = 0, depth = 1 + rnd(4); d < depth; d++) {
			if (d > 0)
				cat(path, sizeof(path), "/");
			cat(path, sizeof(path), PICK(names));
			if (has_node(sc, path))
				continue;
			snprintf(sc->node[sc->nnode].path, 256, "%s", path);
			sc->node[sc->nnode++].is_dir = d + 1 < depth ||
			    rnd(100) < 25;
		}
	}
	/* A node that got children after being made a file is a dir. */
	for (j = 0; j < sc->nnode; j++)
		for (i = 0; i < sc->nnode; i++)
			if (strncmp(sc->node[i].path, sc->node[j].path,
			    strlen(sc->node[j].path)) == 0 &&
			    sc->node[i].path[strlen(sc->node[j].path)] == '/')
				sc->node[j].is_dir = true;
	sc->nfile = 0;
	for (i = 0; i < MAXFILES; i++) {
		j = rnd((unsigned)sc->nnode + 2);
		if (i > 0 && (j >= sc->nnode || !sc->node[j].is_dir))
			continue;
		snprintf(sc->dir[sc->nfile], 256, "%s",
		    i == 0 ? "" : sc->node[j].path);
		/* git skips a UTF-8 BOM at the start of a file. */
		snprintf(sc->text[sc->nfile], 2048, "%s",
		    rnd(100) < 5 ? "\xef\xbb\xbf" : "");
		for (d = 0, n = 1 + rnd(8); d < n; d++)
			gen_line(sc->text[sc->nfile], 2048);
		if (i > 0 && strcmp(sc->dir[sc->nfile], "") != 0) {
			for (j = 0; j < sc->nfile; j++)
				if (strcmp(sc->dir[j], sc->dir[sc->nfile]) == 0)
					break;
			if (j < sc->nfile)
				continue;
		}
		sc->nfile++;
	}
}

/* Add path and its parents (as directories) to sc's nodes. */
static inline void
add_nodes(struct scenario *sc, const char *path, bool is_dir)
{
	const char *p;
	char prefix[256];

	for (p = path; (p = strchr(p, '/')) != NULL; p++) {
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(p - path), path);
		if (!has_node(sc, prefix)) {
			snprintf(sc->node[sc->nnode].path, 256, "%s", prefix);
			sc->node[sc->nnode++].is_dir = true;
		}
	}
	if (path[0] != '\0' && !has_node(sc, path)) {
		snprintf(sc->node[sc->nnode].path, 256, "%s", path);
		sc->node[sc->nnode++].is_dir = is_dir;
	}
}

#endif
