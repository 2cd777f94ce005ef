/* The regex builders of the Seatbelt generator against regcomp(REG_EXTENDED) and the matchers they mirror. */
#include <errno.h>
#include <regex.h>
#include <stdint.h>

#include "daemon/policy/ignore.h"
#include "daemon/policy/glob.h"
#include "daemon/seatbelt/dfa.h"
#include "daemon/seatbelt/rx.h"
#include "unit.h"
#include "ignore-gen.h"

/* The last regex compiled, kept: most checks ask one regex many texts. */
static regex_t last_re;
static char last_src[SEATBELT_STR_MAX + 1];

static bool
rx_match(const struct seatbelt_rx *rx, const char *text)
{
	if (strcmp(last_src, rx->s) != 0 || last_src[0] == '\0') {
		if (last_src[0] != '\0')
			regfree(&last_re);
		last_src[0] = '\0';
		if (regcomp(&last_re, rx->s, REG_EXTENDED | REG_NOSUB) != 0) {
			fprintf(stderr, "regcomp failed: %s\n", rx->s);
			CHECK(!"regex compiles");
			return false;
		}
		snprintf(last_src, sizeof(last_src), "%s", rx->s);
	}
	return regexec(&last_re, text, 0, NULL, 0) == 0;
}

/* Every byte a path can hold, alone and folded, matches only itself. */
static void
test_literals(void)
{
	struct seatbelt_rx rx;
	char c, s[4];
	unsigned b, o;
	int fold;

	for (fold = 0; fold < 2; fold++)
		for (b = 1; b <= 0xfd; b++) {
			c = (char)b;
			seatbelt_rx_init(&rx);
			seatbelt_rx_str(&rx, "^x");
			seatbelt_rx_lit(&rx, &c, 1, fold);
			seatbelt_rx_str(&rx, "y$");
			for (o = 1; o <= 0xfd; o += 1 + (o > 0x7f) * 6) {
				snprintf(s, sizeof(s), "x%cy", (char)o);
				CHECK(rx_match(&rx, s) == (o == b || (fold &&
				    ((o | 0x20) == (b | 0x20)) &&
				    (o | 0x20) >= 'a' && (o | 0x20) <= 'z')));
			}
		}
	c = (char)0xff;
	seatbelt_rx_init(&rx);
	seatbelt_rx_lit(&rx, &c, 1, false);
	CHECK(rx.never);
}

/* Random byte sets: the class matches exactly its members (never '/'). */
static void
test_classes(void)
{
	unsigned char set[32];
	struct seatbelt_rx rx;
	char s[4];
	unsigned b, k, density;

	for (k = 0; k < 400; k++) {
		memset(set, 0, sizeof(set));
		density = 1 + rnd(100);
		for (b = 1; b < 256; b++)
			if (rnd(100) < density || (k % 7 == 0 &&
			    strchr("\\[]^-", (int)b) && b != 0))
				set[b >> 3] |= (unsigned char)(1u << (b & 7));
		seatbelt_rx_init(&rx);
		seatbelt_rx_str(&rx, "^x");
		seatbelt_rx_class(&rx, set, false);
		seatbelt_rx_str(&rx, "y$");
		if (rx.never)
			continue;
		for (b = 1; b <= 0xfd; b++) {
			snprintf(s, sizeof(s), "x%cy", (char)b);
			CHECK(rx_match(&rx, s) == (b != '/' &&
			    (set[b >> 3] >> (b & 7) & 1)));
		}
	}
}

/* Policy globs: the regex covers exactly what policy_glob covers. */
static void
test_globs(void)
{
	static const char *const globs[] = {
		"/**/.git/hooks", "/home/a/*.key", "/home/a/[abc]x/**",
		"/home/a/[!a-c]", "/x/[]a]/y", "/x/[a", "/x/a?c", "/x/**",
		"/**", "/x/[^.]*", "/x/a**b", "/var/db/*", "/tmp/[z-a]",
		"/x/(a)+$", "/x/\\*", "/**/secrets/**/*.pem",
	};
	static const char *const paths[] = {
		"/", "/x", "/x/a", "/x/abc", "/x/a/c", "/x/]/y", "/x/a/y",
		"/x/[a", "/x/(a)+$", "/x/\\*", "/x/\\x", "/home/a/k.key",
		"/home/a/.key/z", "/home/a/ax/q", "/home/a/d", "/home/a/b",
		"/home/a/.git/hooks/pre", "/.git/hooks", "/p/.git/hooks",
		"/x/.hidden", "/x/ab", "/x/aqqb", "/var/db/x", "/private/var/db/x",
		"/tmp/b", "/s/secrets/a/b.pem", "/secrets/k.pem", "/x/a.b",
	};
	struct seatbelt_rx rx;
	size_t i, j;
	bool want;

	for (i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		seatbelt_rx_init(&rx);
		seatbelt_rx_glob(&rx, globs[i], false);
		seatbelt_rx_str(&rx, "(/.*)?$");
		for (j = 0; j < sizeof(paths) / sizeof(paths[0]); j++) {
			want = policy_glob_covers_path(globs[i], paths[j]);
			/* The /private spelling of /var is the same path. */
			if (strncmp(paths[j], "/private/var/", 13) == 0)
				want = policy_glob_covers_path(globs[i],
				    paths[j] + 8);
			if (rx_match(&rx, paths[j]) != want) {
				fprintf(stderr, "glob %s on %s: regex %s\n",
				    globs[i], paths[j], rx.s);
				CHECK(!"glob regex agrees");
			}
		}
	}
}

/* An unanchored line matches its last component at any depth. */
static struct seatbelt_dfa_lang
lang(const struct ignore_pattern *p, struct ignore_tok *buf)
{
	struct seatbelt_dfa_lang l = { buf, 0 };

	if (!(p->flags & IGNORE_ANCHORED))
		buf[l.ntok++].kind = IGNORE_TOK_DIRS;
	memcpy(buf + l.ntok, p->tok, p->ntok * sizeof(*buf));
	l.ntok += p->ntok;
	return l;
}

/* Components from the generator's names, or short runs of bytes. */
static void
random_path(char *buf, size_t cap)
{
	static const char *const bytes[] = { "a", "b", "c", ".", "o", "l",
	    "g", "-", "]", "1", "\\", "*", "f" };
	unsigned i, j, n = 1 + rnd(4);

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			cat(buf, cap, "/");
		if (rnd(2))
			cat(buf, cap, PICK(names));
		else
			for (j = 1 + rnd(5); j > 0; j--)
				cat(buf, cap, PICK(bytes));
	}
}

/*
 * The difference regex against brute force: for random lines p, q...
 * and random paths T, "^D$" matches T exactly when p matches T and no q
 * does; and a q that matches some T with p is reported as a hit.
 */
static void
test_dfa(void)
{
	static struct ignore_tok tb[5][300];
	struct seatbelt_dfa_lang lp, lq[4];
	const struct ignore_pattern *p, *q[4];
	struct ignore_file *f;
	struct ignore_error err;
	struct seatbelt_rx rx;
	char text[2048], path[256];
	unsigned k, t, ok = 0, big = 0, empty = 0;
	size_t i, nq;
	bool hit[4], want, any;
	long budget;
	int r;

	for (k = 0; k < 3000; k++) {
		text[0] = '\0';
		for (i = 0, t = 2 + rnd(3); i < t; i++)
			gen_line(text, sizeof(text));
		if (ignore_parse("", "x", text, strlen(text), &f, &err) != 0)
			continue;
		for (i = nq = 0, p = NULL; i < f->npat; i++) {
			if ((f->pat[i].flags & IGNORE_NEVER) ||
			    f->pat[i].ntok > 290)
				continue;
			if (p == NULL)
				p = &f->pat[i];
			else if (nq < 4)
				q[nq++] = &f->pat[i];
		}
		if (p == NULL || nq == 0) {
			ignore_file_free(f);
			continue;
		}
		lp = lang(p, tb[0]);
		for (i = 0; i < nq; i++)
			lq[i] = lang(q[i], tb[1 + i]);
		seatbelt_rx_init(&rx);
		seatbelt_rx_str(&rx, "^");
		budget = 50000000L;
		r = seatbelt_dfa_minus(&lp, lq, nq, hit, &rx, &budget);
		seatbelt_rx_str(&rx, "$");
		CHECK(r >= 0 || r == -E2BIG);
		big += r == -E2BIG;
		empty += r == 0;
		for (t = 0; r >= 0 && t < 300; t++) {
			random_path(path, sizeof(path));
			want = ignore_pattern_match(p, path, strlen(path), true);
			for (i = 0, any = false; i < nq; i++) {
				if (!ignore_pattern_match(q[i], path,
				    strlen(path), true))
					continue;
				any = true;
				CHECK(!want || hit[i]);
			}
			want = want && !any;
			if (r == 0 ? want : rx_match(&rx, path) != want) {
				fprintf(stderr, "dfa: %s on '%s' want %d:\n%s",
				    rx.s, path, want, text);
				CHECK(!"difference regex agrees");
				break;
			}
			ok++;
		}
		ignore_file_free(f);
	}
	printf("dfa: %u paths checked, %u empty differences, %u over the "
	    "limits\n", ok, empty, big);
}

int
main(void)
{
	rng_state = 0x5eab;
	test_literals();
	test_classes();
	test_globs();
	test_dfa();
	UNIT_DONE();
}
