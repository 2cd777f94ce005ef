/* Unit tests for daemon/protect.c over the built-in rules plus a user
 * layer: coverage at any depth, git's three exceptions (and only where git
 * rules alone cover the path), rename depths, late binds. */
#include <string.h>

#include "daemon/policy-merge.h"
#include "daemon/protect.h"
#include "policy-unit.h"
#include "unit.h"

static struct fsplan *
plan(const char *user_json)
{
	struct policy_diags d = { 0 };
	struct policy *doc = NULL, *eff = NULL;
	struct fsplan *fs = NULL;

	CHECK_INT(parse_as(user_json, POLICY_LAYER_USER, &doc, &d), 0);
	CHECK_INT(policy_merge((const struct policy *const *)&doc, 1, HOME,
			       &eff, &d), 0);
	CHECK_INT(fsplan_build(eff, WS, NULL, &fs), 0);
	policy_free(doc);
	policy_free(eff);
	policy_diag_free(&d);
	return fs;
}

static void
test_covered(const struct fsplan *fs)
{
	const char *rule = NULL;

	CHECK(protect_covered(fs, WS "/.mcp.json", &rule));
	CHECK_STR(rule, "/**/.mcp.json");
	CHECK(protect_covered(fs, WS "/a/b/c/d/.vscode", NULL));
	CHECK(protect_covered(fs, WS "/a/.vscode/settings.json", NULL));
	CHECK(protect_covered(fs, WS "/x/.git/hooks", NULL));
	CHECK(protect_covered(fs, WS "/x/.git/hooks/pre-commit", NULL));
	CHECK(protect_covered(fs, WS "/.git/config", NULL));
	CHECK(protect_covered(fs, WS "/deep/er/.sbxignore", NULL));
	CHECK(protect_covered(fs, WS "/.cursorignore", NULL));
	CHECK(protect_covered(fs, WS "/.sbx/policy.json", NULL));
	CHECK(protect_covered(fs, WS "/.bashrc", NULL));
	CHECK(protect_covered(fs, WS "/vendor/lib.c", NULL)); /* denyWrite */
	CHECK(protect_covered(fs, HOME "/.config/git/config", NULL));
	CHECK(protect_covered(fs, WS "/x/.GIT/Hooks/pre-commit", NULL));
	CHECK(protect_covered(fs, WS "/.VSCode", NULL));
	CHECK(protect_covered(fs, WS "/VENDOR/x", NULL));
	CHECK(!protect_covered(fs, WS "/.git", NULL));
	CHECK(!protect_covered(fs, WS "/.git/index.lock", NULL));
	CHECK(!protect_covered(fs, WS "/.git/config.lock", NULL));
	CHECK(!protect_covered(fs, WS "/.git/objects/ab/cdef", NULL));
	CHECK(!protect_covered(fs, WS "/.git/worktrees/w/HEAD", NULL));
	CHECK(!protect_covered(fs, WS "/src/main.c", NULL));
	CHECK(!protect_covered(fs, WS "/.vscodex", NULL));
	CHECK(!protect_covered(fs, WS "/hooks/pre-commit", NULL));
	{
		/* What cannot be matched is refused. */
		static char longp[5000];

		memset(longp, 'a', sizeof(longp) - 1);
		longp[0] = '/';
		CHECK(protect_covered(fs, longp, NULL));
	}
}

static const struct {
	enum protect_op op;
	const char *path;
	enum protect_verdict want;
} decisions[] = {
	{ PROTECT_CREATE, WS "/src/x.c", PROTECT_ALLOW },
	{ PROTECT_MKDIR, WS "/a/b/c/.git/hooks", PROTECT_HOOKS_DIR },
	{ PROTECT_MKDIR, WS "/a/.Git/HOOKS", PROTECT_HOOKS_DIR },
	{ PROTECT_CREATE, WS "/a/.Git/HOOKS/pre-commit", PROTECT_DENY },
	{ PROTECT_SYMLINK, WS "/.git/hooks", PROTECT_DENY },
	{ PROTECT_RENAME, WS "/.git/hooks", PROTECT_DENY },
	{ PROTECT_MKDIR, WS "/.git/hooks/x", PROTECT_DENY },
	{ PROTECT_CREATE, WS "/.git/hooks/pre-commit.sample", PROTECT_DISCARD },
	{ PROTECT_CREATE, WS "/.git/hooks/pre-commit", PROTECT_DENY },
	{ PROTECT_RENAME, WS "/.git/hooks/pre-commit.sample", PROTECT_DENY },
	{ PROTECT_WRITE, WS "/.git/hooks/pre-commit.sample", PROTECT_DENY },
	{ PROTECT_RENAME, WS "/n/.git/config", PROTECT_GIT_CONFIG },
	{ PROTECT_CREATE, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_LINK, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_WRITE, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_REMOVE, WS "/n/.git/config", PROTECT_DENY },
	/* Another rule covering the place leaves git no exception. */
	{ PROTECT_RENAME, WS "/.vscode/.git/config", PROTECT_DENY },
	{ PROTECT_MKDIR, WS "/vendor/.git/hooks", PROTECT_DENY },
};

static void
test_decide(const struct fsplan *fs)
{
	const char *rule = NULL;
	size_t i;

	for (i = 0; i < sizeof(decisions) / sizeof(decisions[0]); i++) {
		enum protect_verdict v = protect_decide(fs, decisions[i].op,
							decisions[i].path,
							NULL);

		if (v != decisions[i].want)
			fprintf(stderr, "%s %s\n",
				protect_op_name(decisions[i].op),
				decisions[i].path);
		CHECK_INT(v, decisions[i].want);
	}
	CHECK_INT(protect_decide(fs, PROTECT_CREATE, WS "/.mcp.json", &rule),
		  PROTECT_DENY);
	CHECK_STR(rule, "/**/.mcp.json");
	CHECK_INT(protect_decide(fs, PROTECT_MKDIR, WS "/vendor/.git/hooks",
				 &rule), PROTECT_DENY);
	CHECK_STR(rule, WS "/vendor");
	CHECK_STR(protect_op_name(PROTECT_RENAME), "rename");
}

static void
test_depth(const struct fsplan *fs)
{
	/* .git/hooks, .git/config, .claude/commands: two components, so a
	 * renamed directory's own entries can change coverage. */
	CHECK_INT(protect_rename_depth(fs, WS "/x", WS "/.git"), 1);
	CHECK_INT(protect_rename_depth(fs, WS "/a/b/c", WS "/d"), 1);
	{
		struct fsplan *inner = plan(
			"{\"filesystem\": {\"allowWrite\": [\".\"],"
			" \"denyWrite\": [\"" WS "/**/secret\"]}}");

		CHECK_INT(protect_rename_depth(inner, WS "/a", WS "/b"), -1);
		CHECK(protect_covered(inner, WS "/x/y/secret/z", NULL));
		CHECK(protect_covered(inner, WS "/x/SECRET", NULL));
		CHECK(!protect_covered(inner, WS "/x/secrets", NULL));
		fsplan_free(inner);
		inner = plan("{\"filesystem\": {\"allowWrite\": [\".\"],"
			     " \"denyWrite\": [\"" WS "/**/*.pem\"]}}");
		CHECK(protect_covered(inner, WS "/k/a.pem", NULL));
		CHECK(protect_covered(inner, WS "/k/A.PEM/x", NULL));
		CHECK(!protect_covered(inner, WS "/k/a.pe", NULL));
		fsplan_free(inner);
	}
}

static void
test_late_bind(void)
{
	CHECK(!protect_late_bind(WS "/.git/config"));
	CHECK(!protect_late_bind(WS "/r/.git/hooks"));
	CHECK(!protect_late_bind(WS "/r/.git/hooks/pre-commit.sample"));
	CHECK(protect_late_bind(WS "/.vscode"));
	CHECK(protect_late_bind(WS "/.sbxignore"));
	CHECK(protect_late_bind(WS "/.git/config.lock"));
	CHECK(!protect_late_bind(WS "/.GIT/CONFIG"));
}

/* Where Landlock lets the command create: the workspace (allowWrite .),
 * /tmp, the overlaid home; not beside them. */
static void
test_creatable(const struct fsplan *fs)
{
	CHECK(protect_creatable(fs, WS "/new"));
	CHECK(protect_creatable(fs, WS "/a/b"));
	CHECK(protect_creatable(fs, "/tmp/x"));
	CHECK(!protect_creatable(fs, WS "x/new"));
	CHECK(protect_creatable(fs, "/dev/shm/f"));
	CHECK(!protect_creatable(fs, "/dev/f"));
	CHECK(!protect_creatable(fs, "/proc/f"));
	CHECK(!protect_creatable(fs, "/tmpx"));
	CHECK(!protect_creatable(fs, HOME "/.cache/x"));
}

int
main(void)
{
	struct fsplan *fs = plan(
		"{\"filesystem\": {\"allowWrite\": [\".\"],"
		" \"denyWrite\": [\"./vendor\"]}}");

	test_covered(fs);
	test_decide(fs);
	test_depth(fs);
	test_late_bind();
	test_creatable(fs);
	fsplan_free(fs);
	UNIT_DONE();
}
