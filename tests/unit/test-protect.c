/* Unit tests for daemon/policy/protect.c over the built-in rules plus a user
 * layer: coverage at any depth, git's layout (.git files, symlinks in
 * .git, worktrees and modules) and exceptions (only where git rules alone
 * cover the path), rename depths, late binds. */
#include <string.h>
#include <sys/stat.h>

#include "daemon/policy/merge.h"
#include "daemon/policy/protect.h"
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
	/* What git reads a repository's config and hooks through. */
	CHECK(protect_covered(fs, WS "/.git/commondir", NULL));
	CHECK(protect_covered(fs, WS "/r/.git/config.worktree", NULL));
	CHECK(protect_covered(fs, WS "/.git/worktrees/w/commondir", NULL));
	CHECK(protect_covered(fs, WS "/.git/worktrees/w/gitdir", NULL));
	CHECK(protect_covered(fs, WS "/.git/worktrees/w/config", NULL));
	CHECK(protect_covered(fs, WS "/.git/worktrees/w/hooks/x", NULL));
	CHECK(protect_covered(fs, WS "/.git/worktrees/w/config.worktree",
			      NULL));
	CHECK(protect_covered(fs, WS "/.git/modules/a/config", NULL));
	CHECK(protect_covered(fs, WS "/.git/modules/lib/a/config", NULL));
	CHECK(protect_covered(fs, WS "/.git/modules/a/modules/b/hooks/x",
			      NULL));
	CHECK(protect_covered(fs, WS "/.git/modules/a/commondir", NULL));
	CHECK(protect_covered(fs, WS "/.Git/Modules/a/Config", NULL));
	CHECK(!protect_covered(fs, WS "/.git/modules/a/objects/ab/cd", NULL));
	CHECK(!protect_covered(fs, WS "/.git/worktrees/w/index", NULL));
	CHECK(!protect_covered(fs, WS "/.git/worktrees/w/x/commondir", NULL));
	CHECK(!protect_covered(fs, WS "/worktrees/w/commondir", NULL));
	CHECK(!protect_covered(fs, WS "/src/config", NULL));
	CHECK(!protect_covered(fs, WS "/modules/a/config", NULL));
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
	mode_t type;
	const char *path;
	enum protect_verdict want;
} decisions[] = {
	{ PROTECT_CREATE, S_IFREG, WS "/src/x.c", PROTECT_ALLOW },
	{ PROTECT_MKDIR, S_IFDIR, WS "/a/b/c/.git/hooks", PROTECT_HOOKS_DIR },
	{ PROTECT_MKDIR, S_IFDIR, WS "/a/.Git/HOOKS", PROTECT_HOOKS_DIR },
	{ PROTECT_CREATE, S_IFREG, WS "/a/.Git/HOOKS/pre-commit", PROTECT_DENY },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/.git/hooks", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFREG, WS "/.git/hooks", PROTECT_DENY },
	{ PROTECT_MKDIR, S_IFDIR, WS "/.git/hooks/x", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/hooks/pre-commit.sample", PROTECT_DISCARD },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/hooks/pre-commit", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFREG, WS "/.git/hooks/pre-commit.sample", PROTECT_DENY },
	{ PROTECT_WRITE, S_IFREG, WS "/.git/hooks/pre-commit.sample", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFREG, WS "/n/.git/config", PROTECT_GIT_CONFIG },
	{ PROTECT_CREATE, S_IFREG, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_LINK, S_IFREG, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_WRITE, S_IFREG, WS "/n/.git/config", PROTECT_DENY },
	{ PROTECT_REMOVE, S_IFREG, WS "/n/.git/config", PROTECT_DENY },
	/* Another rule covering the place leaves git no exception. */
	{ PROTECT_RENAME, S_IFREG, WS "/.vscode/.git/config", PROTECT_DENY },
	{ PROTECT_MKDIR, S_IFDIR, WS "/vendor/.git/hooks", PROTECT_DENY },
	/* A .git that is not a directory: only a worktree's new file. */
	{ PROTECT_CREATE, S_IFREG, WS "/wt/.git", PROTECT_GIT_FILE },
	{ PROTECT_CREATE, S_IFREG, WS "/wt/.GIT", PROTECT_GIT_FILE },
	{ PROTECT_WRITE, S_IFREG, WS "/wt/.git", PROTECT_GIT_FILE },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/wt/.git", PROTECT_DENY },
	{ PROTECT_MKNOD, S_IFIFO, WS "/wt/.git", PROTECT_DENY },
	{ PROTECT_LINK, S_IFREG, WS "/wt/.git", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFREG, WS "/wt/.git", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFLNK, WS "/wt/.git", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFDIR, WS "/wt/.git", PROTECT_ALLOW },
	{ PROTECT_MKDIR, S_IFDIR, WS "/wt/.git", PROTECT_ALLOW },
	{ PROTECT_CREATE, S_IFREG, WS "/.vscode/.git", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/wt/.gitx", PROTECT_ALLOW },
	{ PROTECT_CREATE, S_IFREG, WS "/wt/.git.lock", PROTECT_ALLOW },
	/* No symlink where the names below would be other files. */
	{ PROTECT_SYMLINK, S_IFLNK, WS "/.git/worktrees", PROTECT_DENY },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/r/.git/modules/a", PROTECT_DENY },
	{ PROTECT_RENAME, S_IFLNK, WS "/r/.Git/Modules/x/y", PROTECT_DENY },
	{ PROTECT_LINK, S_IFLNK, WS "/r/.git/worktrees/x", PROTECT_DENY },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/r/.git/tXXXXXX", PROTECT_ALLOW },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/r/git/x", PROTECT_ALLOW },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/r/.gitx/x", PROTECT_ALLOW },
	{ PROTECT_CREATE, S_IFREG, WS "/r/.git/x", PROTECT_ALLOW },
	/* git worktree add's files: written by the supervisor. */
	{ PROTECT_CREATE, S_IFREG, WS "/.git/worktrees/w/gitdir",
	  PROTECT_WT_GITDIR },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/worktrees/w/commondir",
	  PROTECT_WT_COMMONDIR },
	{ PROTECT_WRITE, S_IFREG, WS "/.git/worktrees/w/gitdir",
	  PROTECT_DENY },
	{ PROTECT_RENAME, S_IFREG, WS "/.git/worktrees/w/commondir",
	  PROTECT_DENY },
	{ PROTECT_LINK, S_IFREG, WS "/.git/worktrees/w/gitdir", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/worktrees/w/HEAD", PROTECT_ALLOW },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/worktrees/w/config",
	  PROTECT_DENY },
	{ PROTECT_MKDIR, S_IFDIR, WS "/.git/worktrees/w/hooks", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/commondir", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/config.worktree", PROTECT_DENY },
	/* A submodule's worktrees: its own rules, no exception. */
	{ PROTECT_CREATE, S_IFREG, WS "/.git/modules/s/worktrees/w/commondir",
	  PROTECT_DENY },
	/* A submodule's repository: git's exceptions, as for git init's. */
	{ PROTECT_RENAME, S_IFREG, WS "/.git/modules/s/config",
	  PROTECT_GIT_CONFIG },
	{ PROTECT_MKDIR, S_IFDIR, WS "/.git/modules/s/hooks",
	  PROTECT_HOOKS_DIR },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/modules/s/hooks/x.sample",
	  PROTECT_DISCARD },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/modules/s/hooks/x", PROTECT_DENY },
	{ PROTECT_WRITE, S_IFREG, WS "/.git/modules/s/config", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.git/modules/s/HEAD", PROTECT_ALLOW },
	{ PROTECT_CREATE, S_IFREG, WS "/vendor/.git/worktrees/w/commondir",
	  PROTECT_DENY },
	/* Editor folders and .gitmodules: for the supervisor to decide by
	 * the directory holding them; only files and directories. */
	{ PROTECT_MKDIR, S_IFDIR, WS "/cl/.vscode", PROTECT_NEW_DIR },
	{ PROTECT_CREATE, S_IFREG, WS "/cl/.VSCode/tasks.json",
	  PROTECT_NEW_DIR },
	{ PROTECT_WRITE, S_IFREG, WS "/cl/.idea/a/b.xml", PROTECT_NEW_DIR },
	{ PROTECT_REMOVE, S_IFREG, WS "/cl/.gitmodules", PROTECT_NEW_DIR },
	{ PROTECT_RENAME, S_IFREG, WS "/.gitmodules", PROTECT_NEW_DIR },
	{ PROTECT_SYMLINK, S_IFLNK, WS "/cl/.vscode", PROTECT_DENY },
	{ PROTECT_LINK, S_IFREG, WS "/cl/.gitmodules", PROTECT_DENY },
	{ PROTECT_MKNOD, S_IFIFO, WS "/cl/.idea/x", PROTECT_DENY },
	{ PROTECT_MKDIR, S_IFDIR, WS "/vendor/.vscode", PROTECT_DENY },
	{ PROTECT_MKDIR, S_IFDIR, WS "/.vscode/x/.git/hooks", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/.idea/.git", PROTECT_DENY },
	{ PROTECT_CREATE, S_IFREG, WS "/cl/.vscodex", PROTECT_ALLOW },
};

static void
test_decide(const struct fsplan *fs)
{
	const char *rule = NULL;
	size_t i;

	for (i = 0; i < sizeof(decisions) / sizeof(decisions[0]); i++) {
		enum protect_verdict v = protect_decide(fs, decisions[i].op,
							decisions[i].type,
							decisions[i].path,
							NULL);

		if (v != decisions[i].want)
			fprintf(stderr, "%s %s\n",
				protect_op_name(decisions[i].op),
				decisions[i].path);
		CHECK_INT(v, decisions[i].want);
	}
	CHECK_INT(protect_decide(fs, PROTECT_CREATE, S_IFREG, WS "/.mcp.json",
				 &rule), PROTECT_DENY);
	CHECK_STR(rule, "/**/.mcp.json");
	CHECK_INT(protect_decide(fs, PROTECT_MKDIR, S_IFDIR,
				 WS "/vendor/.git/hooks", &rule), PROTECT_DENY);
	CHECK_STR(rule, WS "/vendor");
	CHECK_STR(protect_op_name(PROTECT_RENAME), "rename");
	CHECK_INT(protect_decide(fs, PROTECT_SYMLINK, S_IFLNK, WS "/x/.git",
				 &rule), PROTECT_DENY);
	CHECK_STR(rule, "/**/.git (not a directory)");
	CHECK_INT(protect_decide(fs, PROTECT_CREATE, S_IFREG,
				 WS "/.git/worktrees/w/config", &rule),
		  PROTECT_DENY);
	CHECK_STR(rule, "/**/.git/worktrees/*/config");
}

/* Where the directory holding the protected name is, from the path's. */
static void
test_holder(void)
{
	CHECK_INT(protect_holder_up(WS "/cl/.vscode"), 0);
	CHECK_INT(protect_holder_up(WS "/cl/.gitmodules"), 0);
	CHECK_INT(protect_holder_up(WS "/cl/.vscode/tasks.json"), 1);
	CHECK_INT(protect_holder_up(WS "/cl/.IDEA/a/b.xml"), 2);
	/* The first: it covers all below. */
	CHECK_INT(protect_holder_up(WS "/a/.vscode/b/.idea/c"), 3);
	CHECK_INT(protect_holder_up(WS "/a/.vscodex/c"), -1);
	CHECK_INT(protect_holder_up(WS "/a/src"), -1);
}

static void
test_git_type(void)
{
	const char *r;

	CHECK(protect_git_type(WS "/.git", S_IFREG) != NULL);
	CHECK(protect_git_type(WS "/a/.git", S_IFLNK) != NULL);
	CHECK(protect_git_type(WS "/a/.git", S_IFSOCK) != NULL);
	CHECK(protect_git_type(WS "/a/.git", S_IFDIR) == NULL);
	CHECK(protect_git_type(WS "/a/.git/modules/b/c", S_IFLNK) != NULL);
	/* Only to a sibling, below .git/modules (git init's probe). */
	r = protect_git_type(WS "/a/.git/modules/b/c", S_IFLNK);
	CHECK(protect_module_symlink(WS "/a/.git/modules/b/c", "testing", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules/b/c", "../x", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules/b/c", "..", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules/b/c", "/tmp", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules/b/c", "", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules/b/c", "x", "/**"));
	r = protect_git_type(WS "/a/.git/worktrees/w", S_IFLNK);
	CHECK(!protect_module_symlink(WS "/a/.git/worktrees/w", "x", r));
	CHECK(!protect_module_symlink(WS "/a/.git/modules", "x",
				      protect_git_type(WS "/a/.git/modules",
						       S_IFLNK)));
	CHECK(protect_git_type(WS "/a/.git/worktrees/w", S_IFLNK) != NULL);
	CHECK(protect_git_type(WS "/a/.git/b", S_IFLNK) == NULL);
	CHECK(protect_git_type(WS "/a/.git/b/c", S_IFREG) == NULL);
	CHECK(protect_git_type(WS "/a/.gitignore", S_IFREG) == NULL);
	CHECK(protect_git_type(WS "/a/x.git", S_IFREG) == NULL);
	CHECK(protect_git_type(WS "/a/.git-x/b", S_IFLNK) == NULL);
	CHECK(protect_git_type("/.git", S_IFREG) != NULL);
	CHECK(protect_worktree_admin(WS "/.git/worktrees/w"));
	CHECK(protect_worktree_admin(WS "/a/.GIT/Worktrees/w"));
	CHECK(!protect_worktree_admin(WS "/.git/worktrees"));
	CHECK(!protect_worktree_admin(WS "/.git/worktrees/w/x"));
	CHECK(!protect_worktree_admin(WS "/git/worktrees/w"));
	CHECK(!protect_worktree_admin(WS "/evil"));
}

static void
test_depth(const struct fsplan *fs)
{
	/* .claude/commands, .git/worktrees/ * /gitdir: a renamed
	 * directory's own entries can change coverage only when its path
	 * has the rule's first name; .git/modules/ ** /config: no bound
	 * then. Symlinks below may come into or leave a .git. */
	CHECK_INT(protect_rename_depth(fs, WS "/x/.claude", WS "/y"), 1);
	CHECK_INT(protect_rename_depth(fs, WS "/x", WS "/y/.Claude"), 1);
	CHECK_INT(protect_rename_depth(fs, WS "/x", WS "/.git"), -1);
	CHECK_INT(protect_rename_depth(fs, WS "/a/b/c", WS "/d"), 0);
	CHECK_INT(protect_rename_depth(fs, WS "/a/.gitx", WS "/b"), 0);
	CHECK_INT(protect_rename_depth(fs, WS "/a", WS "/r/.git/x"), -1);
	CHECK_INT(protect_rename_depth(fs, WS "/r/.git/x", WS "/a"), -1);
	CHECK_INT(protect_rename_depth(fs, WS "/r/.git/a", WS "/r/.git/b"),
		  -1);
	CHECK_INT(protect_rename_depth(fs, WS "/r/.GIT/a", WS "/b"), -1);
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
	/* Left to the supervisor, which allows them in a new directory. */
	CHECK(!protect_late_bind(WS "/.vscode"));
	CHECK(!protect_late_bind(WS "/a/.idea/x.xml"));
	CHECK(!protect_late_bind(WS "/a/.gitmodules"));
	CHECK(protect_late_bind(WS "/a/.mcp.json"));
	CHECK(protect_late_bind(WS "/.sbxignore"));
	CHECK(protect_late_bind(WS "/.git/config.lock"));
	CHECK(!protect_late_bind(WS "/.GIT/CONFIG"));
	CHECK(!protect_late_bind(WS "/.git/worktrees/w/gitdir"));
	CHECK(!protect_late_bind(WS "/.git/worktrees/w/commondir"));
	CHECK(!protect_late_bind(WS "/wt/.git"));
	CHECK(protect_late_bind(WS "/.git/worktrees/w/config"));
	/* The supervisor guards a submodule's config as a repository's. */
	CHECK(!protect_late_bind(WS "/.git/modules/a/config"));
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

/* A repository a .git leads git to: guarded by its name (git's rules) or
 * out of the command's reach; else read-only, only its config and hooks
 * when it holds writable trees. */
static void
test_git_repo(const struct fsplan *fs)
{
	static const char *const guarded[] = {
		WS "/.git", WS "/a/b/.git", WS "/a/.GIT", WS "/.git/worktrees/w",
		WS "/.git/modules/m", WS "/.git/modules/m/modules/n",
		/* Out of reach: read-only already. */
		"/srv/repo.git", WS "x/repo.git", HOME "/src/repo.git",
	};
	static const char *const whole[] = {
		WS "/repo.git", WS "/a/.git/x", WS "/.git/worktrees", WS "/.gitx",
	};
	size_t i;

	for (i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++)
		CHECK_INT(protect_git_repo(fs, guarded[i]), PROTECT_REPO_GUARDED);
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		CHECK_INT(protect_git_repo(fs, whole[i]), PROTECT_REPO_WHOLE);
	/* The workspace itself, or above it (a .git naming ".."). */
	CHECK_INT(protect_git_repo(fs, WS), PROTECT_REPO_PARTS);
	CHECK_INT(protect_git_repo(fs, "/"), PROTECT_REPO_PARTS);
}

int
main(void)
{
	struct fsplan *fs = plan(
		"{\"filesystem\": {\"allowWrite\": [\".\"],"
		" \"denyWrite\": [\"./vendor\"]}}");

	test_covered(fs);
	test_decide(fs);
	test_holder();
	test_git_type();
	test_depth(fs);
	test_late_bind();
	test_creatable(fs);
	test_git_repo(fs);
	fsplan_free(fs);
	UNIT_DONE();
}
