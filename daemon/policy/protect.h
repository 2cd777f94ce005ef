/* Which changes to protected paths a sandbox's file operations may make:
 * the decision the Linux supervisor (linux/supervise.c) takes for each
 * creation, write, rename, link and removal it performs for the command,
 * including the three things git needs to create a repository. Pure. */
#ifndef SBX_PROTECT_H
#define SBX_PROTECT_H

#include <stdbool.h>
#include <sys/types.h>

#include "daemon/policy/fsplan.h"

/* What an operation does to the path it is checked on. */
enum protect_op {
	PROTECT_CREATE,     /* a new regular file (open with O_CREAT) */
	PROTECT_MKDIR,
	PROTECT_MKNOD,
	PROTECT_SYMLINK,
	PROTECT_LINK,       /* a new name for an existing file */
	PROTECT_RENAME,     /* a file or tree renamed onto path */
	PROTECT_WRITE,      /* an existing file opened to write, truncated */
	PROTECT_REMOVE,     /* unlink, rmdir, or renamed away from path */
	PROTECT_NOPS
};

enum protect_verdict {
	PROTECT_ALLOW,
	PROTECT_DENY,
	/* git init's .git/hooks: an empty directory is harmless, and only
	 * sample hooks (PROTECT_DISCARD) may be created in it. */
	PROTECT_HOOKS_DIR,
	/* A sample hook git init copies: the open succeeds on an anonymous
	 * file, so nothing is written into the repository. */
	PROTECT_DISCARD,
	/* git's config.lock renamed onto .git/config: allowed only when the
	 * content passes gitconfig_check(), copied into a new file. */
	PROTECT_GIT_CONFIG,
	/* A linked worktree's .git/worktrees/ID/gitdir: the open succeeds
	 * on an anonymous file, whose content only tells which worktree's
	 * .git file git makes next (PROTECT_GIT_FILE). */
	PROTECT_WT_GITDIR,
	/* A linked worktree's .git/worktrees/ID/commondir: the supervisor
	 * writes "../.." (git's only content), git writes an anonymous
	 * file. */
	PROTECT_WT_COMMONDIR,
	/* A new file named .git: only a linked worktree's, whose gitdir
	 * git just wrote, the supervisor writing both; or a submodule's
	 * (also a write of one), checked when git has written it
	 * (linux/gitlink.c). */
	PROTECT_GIT_FILE,
	/* Under .vscode, .idea or .gitmodules (a new file, directory or a
	 * write, rename or removal): allowed only when the directory
	 * holding that name was made during this run
	 * (protect_holder_up). */
	PROTECT_NEW_DIR,
};

/*
 * True when a read-only rule of fs (denyWrite or protect, path or glob)
 * covers path (absolute, normalised) or one of its ancestors; *rule (may
 * be NULL) gets the first such rule. ASCII letters match either case (a
 * case-insensitive filesystem makes .GIT/Hooks git's .git/hooks). A path
 * too long to match is covered: what cannot be checked is refused.
 */
bool protect_covered(const struct fsplan *fs, const char *path,
		     const char **rule);

/*
 * git's own layout, whatever the policy says: a .git that is not a
 * directory (git reads a file as "gitdir: PATH", a symlink as the
 * repository, under another name) and a symlink at .git/worktrees,
 * .git/worktrees/ID or in .git/modules (the protected names below it
 * would then be other files). The rule
 * refusing an object of type (S_IFMT bits) at path, or NULL.
 */
const char *protect_git_type(const char *path, mode_t type);

/* The decision for op making an object of type (S_IFMT bits: the
 * source's for a rename or link) at path. Only the built-in git rules
 * have exceptions, and only when no other rule covers the path; *rule
 * as above, for a refusal. */
enum protect_verdict protect_decide(const struct fsplan *fs,
				    enum protect_op op, mode_t type,
				    const char *path, const char **rule);

/* Whether a symlink refused by protect_git_type() (rule) at path in a
 * submodule's repository, below .git/modules/, may be made with target:
 * a plain name, a sibling, so that everything reached through it is
 * still under .git/modules where the rules cover config and hooks by
 * name (git init's probe of symlink support makes one, "testing"). */
bool protect_module_symlink(const char *path, const char *target,
			    const char *rule);

/* Whether dir (absolute, canonical) is a linked worktree's directory in
 * a repository, .git/worktrees/ID: what a .git file may name. */
bool protect_worktree_admin(const char *dir);

/*
 * A directory renamed from `from` to `to`, neither of them covered: the
 * depth N such that only entries at depth 1..N below it can be covered at
 * their old path and not at their new one, or the reverse (deeper ones
 * match every rule alike on both sides, or inherit their coverage from
 * an entry within N). 0: no entry needs a look; -1: no bound (a rule has
 * a ** that is not its first component and the rename may straddle it,
 * or the tree moves into or out of a .git directory: protect_git_type).
 */
int protect_rename_depth(const struct fsplan *fs, const char *from,
			 const char *to);

/* What a repository git reaches through a .git needs (dir: canonical;
 * the one a symlink or "gitdir:" file names, or a commondir): nothing
 * when its name is one the git rules cover (a .git directory, a linked
 * worktree's or a submodule's directory in one) or no allowWrite tree of
 * fs reaches into it; else to be read-only as a whole, or, when it holds
 * an allowWrite tree (it is the workspace or above it), only its config,
 * config.worktree, hooks and commondir. */
enum protect_repo {
	PROTECT_REPO_GUARDED,
	PROTECT_REPO_WHOLE,
	PROTECT_REPO_PARTS,
};
enum protect_repo protect_git_repo(const struct fsplan *fs, const char *dir);

/* Whether the template should make a protected path that appeared after
 * its build read-only by a bind mount. Not for the git paths above (nor a
 * .git file): the supervisor guards those, a bind would break git init
 * mid-way, and removing one is harmless (it cannot be put back with
 * content of the command's choosing). */
bool protect_late_bind(const char *path);

const char *protect_op_name(enum protect_op op);

/* For a path PROTECT_NEW_DIR covers: how many levels up from the path's
 * directory the directory holding the protected name is (0: the path is
 * the name itself, "/ws/x/.vscode"); -1 when none. */
int protect_holder_up(const char *path);

/* Whether rule (as protect_decide gives it) is one of git's own built-in
 * rules, .git/hooks or .git/config: then no other rule covers the path. */
bool protect_git_rule(const char *rule);

/* Whether the command's Landlock rules let it create path (absolute,
 * normalised): under an allowWrite tree of fs, /tmp, /dev/shm or the
 * overlaid home
 * (linux_landlock_ruleset's trees). A creation refused with EACCES
 * elsewhere is Landlock's refusal, reported as such. */
bool protect_creatable(const struct fsplan *fs, const char *path);

#endif
