/* Unit tests for policy path resolution and the path and name glob matchers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/glob.h"
#include "daemon/policy/path.h"
#include "unit.h"

static void
resolves(const char *text, const char *base, const char *want)
{
	const char *why = NULL;
	char *out = NULL;

	CHECK_INT(policy_path_resolve(text, "/home/a", base, &out, &why), 0);
	CHECK_STR(out, want);
	free(out);
}

static void
fails(const char *text, const char *base, const char *want_why)
{
	const char *why = NULL;
	char *out = NULL;

	CHECK_INT(policy_path_resolve(text, "/home/a", base, &out, &why),
	    -EINVAL);
	CHECK(out == NULL);
	CHECK_STR(why, want_why);
}

static void
test_resolve(void)
{
	char long_path[5000];

	resolves("~", NULL, "/home/a");
	resolves("~/", NULL, "/home/a");
	resolves("~/.ssh/", NULL, "/home/a/.ssh");
	resolves("/etc//hosts/.", NULL, "/etc/hosts");
	resolves("/a/b/../../..", NULL, "/");
	resolves("/../etc", NULL, "/etc");
	resolves(".", "/ws", "/ws");
	resolves("./src/", "/ws", "/ws/src");
	resolves("../other", "/ws/app", "/ws/other");
	resolves("../../../..", "/ws", "/");
	resolves("~/../b", NULL, "/home/b");
	resolves("**/*.pem", "/ws", "/ws/**/*.pem");
	fails("", "/ws", "empty path");
	fails("src", NULL, "relative path but no workspace to resolve it "
	    "against");
	fails("~bob", NULL, "~user paths are not supported (use ~/ or an "
	    "absolute path)");
	memset(long_path, 'x', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	fails(long_path, NULL, "path too long");
	CHECK(policy_path_is_anchored("~"));
	CHECK(policy_path_is_anchored("~/x"));
	CHECK(policy_path_is_anchored("/x"));
	CHECK(!policy_path_is_anchored("~x"));
	CHECK(!policy_path_is_anchored("x/y"));
}

static void
test_covers(void)
{
	CHECK(policy_path_covers("/", "/etc"));
	CHECK(policy_path_covers("/ws", "/ws"));
	CHECK(policy_path_covers("/ws", "/ws/a/b"));
	CHECK(!policy_path_covers("/ws", "/wsx"));
	CHECK(!policy_path_covers("/ws/a", "/ws"));
	CHECK(!policy_path_covers("/ws", "relative"));
}

static void
test_glob_path(void)
{
	CHECK(policy_glob_match_path("/ws/*.pem", "/ws/k.pem"));
	CHECK(!policy_glob_match_path("/ws/*.pem", "/ws/d/k.pem"));
	CHECK(policy_glob_match_path("/ws/**/*.pem", "/ws/k.pem"));
	CHECK(policy_glob_match_path("/ws/**/*.pem", "/ws/a/b/k.pem"));
	CHECK(!policy_glob_match_path("/ws/**/*.pem", "/other/k.pem"));
	CHECK(policy_glob_match_path("/**", "/"));
	CHECK(policy_glob_match_path("/**/.git/hooks", "/ws/sub/.git/hooks"));
	CHECK(!policy_glob_match_path("/**/.git/hooks",
	    "/ws/.git/hooks/pre-commit"));
	CHECK(policy_glob_covers_path("/**/.git/hooks",
	    "/ws/.git/hooks/pre-commit"));
	CHECK(policy_glob_covers_path("/**/.bashrc", "/home/a/.bashrc"));
	CHECK(!policy_glob_covers_path("/**/.bashrc", "/home/a/.bashrc.bak"));
	CHECK(policy_glob_match_path("/ws/file?.txt", "/ws/file1.txt"));
	CHECK(!policy_glob_match_path("/ws/file?.txt", "/ws/file10.txt"));
	CHECK(policy_glob_match_path("/ws/f[0-9].c", "/ws/f7.c"));
	CHECK(!policy_glob_match_path("/ws/f[!0-9].c", "/ws/f7.c"));
	CHECK(policy_glob_match_path("/ws/f[!0-9].c", "/ws/fx.c"));
	CHECK(policy_glob_match_path("/ws/[]]", "/ws/]"));
	/* An unclosed class is a literal '['. */
	CHECK(policy_glob_match_path("/ws/a[b", "/ws/a[b"));
	CHECK(policy_glob_match_path("/ws/*a*b*c*", "/ws/xxaxxbxxcxx"));
	CHECK(!policy_glob_match_path("/ws/*a*b*c*d", "/ws/xxaxxbxxcxx"));
}

/* A leading ** then literal components takes a suffix test; it must agree
 * with the component matcher, which a second ** still goes through. */
static void
test_glob_tail(void)
{
	static const char *const tails[] = { ".bashrc", ".git/config",
		".git/hooks", "a", "x/y/z" };
	static const char *const paths[] = { "/", "/.bashrc", "/ws/.bashrc",
		"/ws/.bashrc.bak", "/ws/x.bashrc", "/ws/.git/config",
		"/ws/.git/configx", "/ws/a.git/config", "/.git/config",
		"/a", "/b/a", "/ba", "/x/y/z", "/w/x/y/z", "/wx/y/z",
		"/x/y/z/w", "/ws/.git/hooks/pre-commit" };
	char p1[64], p2[64], big[POLICY_PATH_MAX + 16];
	size_t i, j;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(p1, sizeof(p1), "/**/%s", tails[i]);
		snprintf(p2, sizeof(p2), "/**/**/%s", tails[i]);
		for (j = 0; j < sizeof(paths) / sizeof(paths[0]); j++)
			CHECK(policy_glob_match_path(p1, paths[j]) ==
			    policy_glob_match_path(p2, paths[j]));
	}
	/* Rules whose last component is literal, of other shapes. */
	CHECK(policy_glob_match_path("/**/.git/worktrees/*/config",
				     "/ws/.git/worktrees/w1/config"));
	CHECK(!policy_glob_match_path("/**/.git/worktrees/*/config",
				      "/ws/.git/worktrees/w1/configx"));
	CHECK(!policy_glob_match_path("/**/.git/worktrees/*/config",
				      "/ws/.git/worktrees/w1/config/x"));
	CHECK(policy_glob_match_path("/**/.git/modules/**/hooks",
				     "/ws/.git/modules/a/b/hooks"));
	CHECK(!policy_glob_match_path("/**/.git/modules/**/hooks",
				      "/ws/.git/modules/a/b/hook"));
	CHECK(policy_glob_match_path("/ws/*/x", "/ws/a/x"));
	CHECK(!policy_glob_match_path("/ws/*/x", "/ws/a/y"));
	CHECK(policy_glob_match_path("/ws/a[b", "/ws/a[b"));
	CHECK(policy_glob_match_path("/ws/*/x", "/ws/a/x/") ==
	      policy_glob_match_path("/ws/a/x", "/ws/a/x/"));
	CHECK(policy_glob_match_path("/**/.git/config", "/.git/config"));
	CHECK(!policy_glob_match_path("/**/.git/config", "/ws/.git"));
	/* Too long never matches, as in the component matcher. */
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[sizeof(big) - 9] = '/';
	memcpy(big + sizeof(big) - 8, ".bashrc", 8);
	CHECK(!policy_glob_match_path("/**/.bashrc", big));
	CHECK(!policy_glob_match_path("/**/**/.bashrc", big));
}

static void
test_glob_name(void)
{
	CHECK(policy_glob_match_name("LC_*", "LC_ALL"));
	CHECK(policy_glob_match_name("*", ""));
	CHECK(policy_glob_match_name("*TOKEN*", "GITHUB_TOKEN"));
	CHECK(!policy_glob_match_name("*TOKEN*", "GITHUB_TOKE"));
	CHECK(policy_glob_match_name("PATH", "PATH"));
	CHECK(!policy_glob_match_name("PATH", "PATHX"));
	/* Coverage: every name LC_* matches, * matches too; not the reverse. */
	CHECK(policy_glob_match_name("*", "LC_*"));
	CHECK(!policy_glob_match_name("LC_*", "*"));
	CHECK(policy_glob_match_name("A*", "AB*"));
	CHECK(!policy_glob_match_name("AB*", "A*"));
}

int
main(void)
{
	test_resolve();
	test_covers();
	test_glob_path();
	test_glob_tail();
	test_glob_name();
	UNIT_DONE();
}
