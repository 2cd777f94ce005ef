/* Agreement of the Seatbelt ignore rules with the Linux matcher: the same table, both verdicts. */
#include <stdint.h>
#include <time.h>

#include "daemon/policy/ignore.h"
#include "daemon/policy/merge.h"
#include "daemon/seatbelt/seatbelt.h"
#include "unit.h"
#include "ignore-cases.h"
#include "ignore-gen.h"
#include "sbpl.h"

/*
 * Each case and each node of each generated scenario (ignore-gen.h, the
 * trees test-ignore-git checks against git) is decided twice: by
 * ignore_set_match(), which the Linux mounts use, and by reading the
 * generated profile back (sexp.h) and evaluating its rules on the full
 * path with regexec(REG_EXTENDED) (sbpl.h), in both readings of
 * Seatbelt's rule order. They must agree exactly; a profile that had to
 * err towards denying (a warning) may deny more, never less.
 * SBX_SEATBELT_SEED and SBX_SEATBELT_SCENARIOS override the defaults.
 */
#define SCENARIOS	1500

static struct policy *pol;
static size_t nagree, ndenied, nwidened, nwarned;

/* Workspaces whose paths a regex or a string could get wrong. */
static const char *const workspaces[] = {
	"/ws",
	"/private/tmp/w (a)[b]{c}|d^$.*+?\\e\"f\ng",
	"/var/folders/zz/x-T/.sbx ws",
};

static struct ignore_set *
set_from(const char *const *files, size_t n)
{
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error err;
	size_t i;

	CHECK_INT(ignore_set_new(&set), 0);
	for (i = 0; i + 1 < n && files[i] != NULL; i += 2) {
		if (ignore_parse(files[i], ".sbxignore", files[i + 1],
		    strlen(files[i + 1]), &f, &err) != 0)
			continue;
		if (ignore_set_add(set, f) != 0)
			ignore_file_free(f);
	}
	return set;
}

/* The profile for set below ws, parsed and checked; NULL on failure. */
static struct sx *
profile(const struct ignore_set *set, const char *ws, size_t *warnings)
{
	struct seatbelt_input in = { pol, set, ws, "/tmpdir", NULL, 0, 0 };
	struct policy_diags d = { 0 };
	char *text = NULL, err[160] = "";
	const char *why;
	struct sx *top;
	size_t len;

	CHECK_INT(seatbelt_profile(&in, &text, &len, &d), 0);
	*warnings = d.warnings;
	policy_diag_free(&d);
	if (text == NULL)
		return NULL;
	top = sx_parse(text, len, err, sizeof(err));
	CHECK(top != NULL);
	if (top != NULL && (why = sbpl_check(top)) != NULL) {
		fprintf(stderr, "profile structure: %s\n", why);
		CHECK(!"profile structure");
	}
	if (top == NULL)
		fprintf(stderr, "profile does not parse: %s\n%s\n", err, text);
	free(text);
	return top;
}

/* 1 when the profile denies reading ws/rel, checking both rule orders. */
static int
mac_denies(struct sx *top, const char *ws, const char *rel, bool is_dir)
{
	char path[8192];
	struct sbpl_q q = { "file-read-data", path, is_dir, NULL, NULL };
	bool a, b;

	snprintf(path, sizeof(path), "%s/%s", ws, rel);
	a = sbpl_allows(top, &q, false);
	b = sbpl_allows(top, &q, true);
	CHECK(a == b);
	return !a;
}

static bool
agree(struct sx *top, const struct ignore_set *set, const char *ws,
    const char *rel, bool is_dir, bool warned)
{
	int linux_r = ignore_set_match(set, rel, is_dir, NULL);
	int mac_r = mac_denies(top, ws, rel, is_dir);

	if (linux_r < 0)
		return true;
	nagree++;
	ndenied += mac_r;
	if (warned && mac_r && !linux_r) {
		nwidened++;
		return true;
	}
	return linux_r == mac_r;
}

static void
test_table(void)
{
	const struct ignore_case *c;
	struct ignore_set *set;
	struct sx *top;
	size_t i, w, warn;

	for (w = 0; w < sizeof(workspaces) / sizeof(workspaces[0]); w++) {
		for (i = 0; i < sizeof(ignore_cases) /
		    sizeof(ignore_cases[0]); i++) {
			c = &ignore_cases[i];
			set = set_from(c->files, 6);
			if ((top = profile(set, workspaces[w], &warn)) != NULL &&
			    !agree(top, set, workspaces[w], c->path, c->is_dir,
			    warn > 0)) {
				fprintf(stderr, "table case %zu (%s) disagrees "
				    "in %s\n", i, c->path, workspaces[w]);
				CHECK(!"table case agrees");
			}
			sx_free(top);
			ignore_set_free(set);
		}
	}
}

static void
dump(const struct scenario *sc, const struct node *nd)
{
	size_t i;

	fprintf(stderr, "scenario disagrees on %s%s\n", nd->path,
	    nd->is_dir ? "/" : "");
	for (i = 0; i < sc->nfile; i++)
		fprintf(stderr, "  --- %s/.sbxignore\n%s", sc->dir[i],
		    sc->text[i]);
}

static void
test_scenarios(void)
{
	const char *env = getenv("SBX_SEATBELT_SCENARIOS");
	const char *files[2 * MAXFILES];
	static struct scenario sc;
	struct ignore_set *set;
	unsigned long n = env ? strtoul(env, NULL, 10) : SCENARIOS, k;
	struct sx *top;
	size_t i, warn, bad = 0;
	const char *ws;

	for (k = 0; k < n; k++) {
		gen_tree(&sc);
		for (i = 0; i < sc.nfile; i++) {
			files[2 * i] = sc.dir[i];
			files[2 * i + 1] = sc.text[i];
		}
		set = set_from(files, 2 * sc.nfile);
		ws = workspaces[k % 3];
		if ((top = profile(set, ws, &warn)) != NULL) {
			nwarned += warn > 0;
			for (i = 0; i < sc.nnode; i++) {
				if (agree(top, set, ws, sc.node[i].path,
				    sc.node[i].is_dir, warn > 0))
					continue;
				CHECK(!"scenario node agrees");
				if (bad++ < 5)
					dump(&sc, &sc.node[i]);
			}
		}
		sx_free(top);
		ignore_set_free(set);
	}
}

/*
 * A file made to be expensive (every exclude line meets 60 later "!"
 * lines): the profile must come quickly, say it erred, and deny at least
 * what the Linux matcher excludes.
 */
static void
test_expensive(void)
{
	static const char *const pre[] = { "*.log", "build", "/out",
	    "docs/", "**/tmp", "src/**/gen" };
	static const char *const post[] = { "", "/", "", "/*.md", "", ".c" };
	static const char *const paths[] = { "a.log3", "keep7.log3",
	    "keep7x", "build4/keep1", "out2", "docs/5/keep2.md", "x/tmp7",
	    "src/a/gen9.c", "keep59/a.log1" };
	char *text = malloc(64 * 1100), line[64];
	const char *files[2] = { "", text };
	struct ignore_set *set;
	struct sx *top;
	size_t i, warn;
	clock_t t0 = clock();

	text[0] = '\0';
	for (i = 0; i < 1000; i++) {
		snprintf(line, sizeof(line), "%s%d%s", pre[i % 6],
		    (int)(i % 10), post[i % 6]);
		strcat(strcat(text, line), "\n");
	}
	for (i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "!keep%zu*\n", i);
		strcat(text, line);
	}
	set = set_from(files, 2);
	top = profile(set, "/ws", &warn);
	CHECK(warn > 0);
	CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 20);
	for (i = 0; top != NULL && i < sizeof(paths) / sizeof(paths[0]); i++)
		CHECK(ignore_set_match(set, paths[i], false, NULL) <=
		    mac_denies(top, "/ws", paths[i], false));
	sx_free(top);
	ignore_set_free(set);
	free(text);
}

/*
 * More lines than a profile holds: a file that starts past the cap has
 * its top-level directory denied whole, and nothing excluded is readable.
 */
static void
test_huge(void)
{
	char *text = malloc(16 * 9000), line[32];
	const char *files[6] = { "", text, "b/c", text, "d", "x\n" };
	struct ignore_set *set;
	struct sx *top;
	size_t i, warn;

	text[0] = '\0';
	for (i = 0; i < 9000; i++) {
		snprintf(line, sizeof(line), "f%zu.tmp\n", i);
		strcat(text, line);
	}
	set = set_from(files, 6);
	top = profile(set, "/ws", &warn);
	CHECK(warn > 0);
	if (top != NULL) {
		CHECK(mac_denies(top, "/ws", "f17.tmp", false));
		CHECK(mac_denies(top, "/ws", "b/c/f8999.tmp", false));
		CHECK(!mac_denies(top, "/ws", "b/other", false));
		CHECK(mac_denies(top, "/ws", "d/x", false));
		CHECK(mac_denies(top, "/ws", "d/y", false));
		CHECK(!mac_denies(top, "/ws", "e/f", false));
	}
	sx_free(top);
	ignore_set_free(set);
	free(text);
}

int
main(void)
{
	const char *seed = getenv("SBX_SEATBELT_SEED");
	struct policy_diags d = { 0 };

	rng_state = seed ? strtoull(seed, NULL, 0) : 0x5eabe17ULL;
	CHECK_INT(policy_merge(NULL, 0, "/home/u", &pol, &d), 0);
	policy_diag_free(&d);
	test_table();
	test_scenarios();
	test_expensive();
	test_huge();
	printf("agreement: %zu paths (%zu denied), %zu profiles erred "
	    "towards denying, %zu paths over-denied there\n", nagree,
	    ndenied, nwarned, nwidened);
	policy_free(pol);
	UNIT_DONE();
}
