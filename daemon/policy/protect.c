/* Protected-path decisions for the supervisor: coverage by the plan's
 * read-only rules, git's layout and exceptions, and how deep a directory
 * rename must be looked into. */
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "daemon/policy/glob.h"
#include "daemon/policy/path.h"
#include "daemon/policy/protect.h"

/* The built-in rules git's exceptions belong to (policy/builtin.c). */
#define GIT_HOOKS "/**/.git/hooks"
#define GIT_CONFIG "/**/.git/config"
#define WT_ADMIN "/**/.git/worktrees/*"
#define WT_GITDIR WT_ADMIN "/gitdir"
#define WT_COMMONDIR WT_ADMIN "/commondir"
#define MOD_HOOKS "/**/.git/modules/**/hooks"
#define MOD_CONFIG "/**/.git/modules/**/config"

/* What git itself writes under its rules: op on a path matching glob
 * (folded) gets v instead of a refusal. */
static const struct {
	const char *rule;
	enum protect_op op;
	const char *glob;
	enum protect_verdict v;
} exceptions[] = {
	{ GIT_HOOKS, PROTECT_MKDIR, GIT_HOOKS, PROTECT_HOOKS_DIR },
	{ GIT_HOOKS, PROTECT_CREATE, GIT_HOOKS "/*.sample", PROTECT_DISCARD },
	{ GIT_CONFIG, PROTECT_RENAME, GIT_CONFIG, PROTECT_GIT_CONFIG },
	{ WT_GITDIR, PROTECT_CREATE, WT_GITDIR, PROTECT_WT_GITDIR },
	{ WT_COMMONDIR, PROTECT_CREATE, WT_COMMONDIR, PROTECT_WT_COMMONDIR },
	/* A submodule's repository, .git/modules/NAME: as git init's. */
	{ MOD_HOOKS, PROTECT_MKDIR, MOD_HOOKS, PROTECT_HOOKS_DIR },
	{ MOD_HOOKS, PROTECT_CREATE, MOD_HOOKS "/*.sample", PROTECT_DISCARD },
	{ MOD_CONFIG, PROTECT_RENAME, MOD_CONFIG, PROTECT_GIT_CONFIG },
};
#define NEXCEPTIONS (sizeof(exceptions) / sizeof(exceptions[0]))

/* Names whose readers look for them only in the directory that holds
 * them, which an editor opens as a folder or project (.vscode, .idea), or
 * git reads at a work tree's top (.gitmodules): writable, with all below
 * them, in a directory made during the run (PROTECT_NEW_DIR). */
static const char *const new_dir_rules[] = {
	"/**/.vscode",
	"/**/.idea",
	"/**/.gitmodules",
};
#define NNEWDIR (sizeof(new_dir_rules) / sizeof(new_dir_rules[0]))

static bool
new_dir_rule(const char *glob)
{
	size_t i;

	for (i = 0; i < NNEWDIR; i++)
		if (!strcmp(glob, new_dir_rules[i]))
			return true;
	return false;
}

/* The rules of protect_git_type(), as reported. */
static const char git_file_rule[] = "/**/.git (not a directory)";
static const char git_symlink_rule[] =
	"/**/.git/{worktrees/*,modules/**} (a symlink)";

static const char *const op_names[PROTECT_NOPS] = {
	[PROTECT_CREATE] = "create",
	[PROTECT_MKDIR] = "mkdir",
	[PROTECT_MKNOD] = "mknod",
	[PROTECT_SYMLINK] = "symlink",
	[PROTECT_LINK] = "link",
	[PROTECT_RENAME] = "rename",
	[PROTECT_WRITE] = "write",
	[PROTECT_REMOVE] = "remove",
};

const char *
protect_op_name(enum protect_op op)
{
	return op < PROTECT_NOPS ? op_names[op] : "?";
}

static bool
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

bool
protect_creatable(const struct fsplan *fs, const char *path)
{
	const struct fsplan_list *w = &fs->l[FSPLAN_WRITE];
	const char *home = fsplan_home(fs);
	size_t i;

	for (i = 0; i < w->n; i++)
		if (under(path, w->v[i]))
			return true;
	return under(path, "/tmp") || under(path, "/dev/shm") ||
	       (home && under(path, home));
}

bool
protect_git_rule(const char *glob)
{
	size_t i;

	for (i = 0; i < NEXCEPTIONS; i++)
		if (!strcmp(glob, exceptions[i].rule))
			return true;
	return false;
}

/* ASCII lower case: on a case-insensitive filesystem (WSL's drvfs, vfat,
 * casefolded ext4) .GIT/Hooks is .git/hooks to the git that reads it. */
static bool
fold(char *out, const char *in)
{
	size_t i, n = strlen(in);

	if (n >= POLICY_PATH_MAX)
		return false;
	for (i = 0; i <= n; i++)
		out[i] = (char)(in[i] >= 'A' && in[i] <= 'Z' ? in[i] + 32 :
								in[i]);
	return true;
}

/* The names of a folded path, for may_cover: where each starts and how
 * long it is; n is -1 when there are more than fit (then may_cover says
 * yes to every rule, and each is matched in full). */
struct names {
	int n;
	struct {
		const char *s;
		size_t len;
	} v[64];
};

static void
names_of(const char *p, struct names *nm)
{
	size_t len;

	nm->n = 0;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return;
		if (nm->n == (int)(sizeof(nm->v) / sizeof(nm->v[0]))) {
			nm->n = -1;
			return;
		}
		len = strcspn(p, "/");
		nm->v[nm->n].s = p;
		nm->v[nm->n++].len = len;
		p += len;
	}
}

/* Whether the n bytes at folded are name's, ASCII case aside. */
static bool
same_name(const char *folded, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (folded[i] != (name[i] >= 'A' && name[i] <= 'Z' ?
					  name[i] + 32 : name[i]))
			return false;
	return true;
}

/* Whether glob may cover the path whose names are nm: a glob whose last
 * component is a plain name covers only paths with a component of that
 * name. Most rules are such ("/" "**" "/.mcp.json"): this spares the full
 * match, which the supervisor would otherwise run for every rule on every
 * file made; the path's names are found once for all the rules, and
 * compared by length first (a strncasecmp at every name of the path for
 * every rule was most of the supervisor's time in user space). */
static bool
may_cover(const char *glob, const struct names *nm)
{
	const char *last = strrchr(glob, '/');
	size_t n;
	int i;

	last = last ? last + 1 : glob;
	n = strlen(last);
	if (n == 0 || nm->n < 0 || strpbrk(last, "*?[\\"))
		return true;
	for (i = 0; i < nm->n; i++)
		if (nm->v[i].len == n && same_name(nm->v[i].s, last, n))
			return true;
	return false;
}

/* The first rule covering a path in each class, and the first of all
 * (the plain list's, else the first glob in the plan's order). */
struct cover {
	const char *plain;         /* the plain list's or a plain glob */
	const char *git;           /* one of git's built-in rules */
	const char *new_dir;       /* PROTECT_NEW_DIR's */
	const char *first;
};

/* One pass over the rules for every class: the cheap test of the last
 * name (may_cover) comes first, and only a rule that passes it is
 * classified and matched, since the supervisor runs this for every file
 * made (three passes that classified every rule first were a tenth of
 * its time in an untar). */
static void
covering(const struct fsplan *fs, const char *path, struct cover *c)
{
	const struct fsplan_list *plain = &fs->l[FSPLAN_READ_ONLY];
	const struct fsplan_list *globs = &fs->l[FSPLAN_RO_GLOBS];
	char p[POLICY_PATH_MAX], rule[POLICY_PATH_MAX];
	const char **slot;
	struct names nm;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!fold(p, path)) {
		c->plain = c->first = "(path too long to check)";
		return;
	}
	names_of(p, &nm);
	for (i = 0; i < plain->n && !c->plain; i++)
		if (fold(rule, plain->v[i]) && under(p, rule))
			c->plain = c->first = plain->v[i];
	for (i = 0; i < globs->n; i++) {
		if (!may_cover(globs->v[i], &nm) || !fold(rule, globs->v[i]) ||
		    !policy_glob_covers_path(rule, p))
			continue;
		slot = protect_git_rule(globs->v[i]) ? &c->git :
		       new_dir_rule(globs->v[i]) ? &c->new_dir : &c->plain;
		if (!*slot)
			*slot = globs->v[i];
		if (!c->first)
			c->first = globs->v[i];
		if (c->plain && c->git && c->new_dir)
			break;
	}
}

bool
protect_covered(const struct fsplan *fs, const char *path, const char **rule)
{
	struct cover c;

	covering(fs, path, &c);
	if (c.first && rule)
		*rule = c.first;
	return c.first != NULL;
}

/* Whether folded path has a component .git; before its last one only,
 * when inner. */
static bool
has_dot_git(const char *p, bool inner)
{
	const char *c;

	for (c = strstr(p, "/.git"); c; c = strstr(c + 1, "/.git"))
		if (c[5] == '/' || (!inner && c[5] == '\0'))
			return true;
	return false;
}

/* Whether folded path's last component is .git. */
static bool
ends_dot_git(const char *p)
{
	size_t n = strlen(p);

	return n >= 5 && !strcmp(p + n - 5, "/.git");
}

/* Whether folded path is a linked worktree's directory in a .git, or in
 * a submodule's: repositories whose names git's rules cover. */
static bool
in_git_admin(const char *p)
{
	return policy_glob_match_path(WT_ADMIN, p) ||
	       policy_glob_covers_path("/**/.git/modules", p);
}

const char *
protect_git_type(const char *path, mode_t type)
{
	char p[POLICY_PATH_MAX];

	if (!fold(p, path))
		return "(path too long to check)";
	if (!S_ISDIR(type) && ends_dot_git(p))
		return git_file_rule;
	/* Not anywhere in .git: git init tests symlinks with one there. */
	if (S_ISLNK(type) && (policy_glob_match_path("/**/.git/worktrees", p) ||
			      in_git_admin(p)))
		return git_symlink_rule;
	return NULL;
}

bool
protect_module_symlink(const char *path, const char *target,
		       const char *rule)
{
	char p[POLICY_PATH_MAX];

	return rule == git_symlink_rule && fold(p, path) &&
	       policy_glob_covers_path("/**/.git/modules/*", p) &&
	       !policy_glob_match_path("/**/.git/worktrees", p) &&
	       !policy_glob_covers_path(WT_ADMIN, p) && target[0] &&
	       !strchr(target, '/') && strcmp(target, ".") &&
	       strcmp(target, "..");
}

bool
protect_worktree_admin(const char *dir)
{
	char p[POLICY_PATH_MAX];

	return fold(p, dir) && policy_glob_match_path(WT_ADMIN, p);
}

enum protect_repo
protect_git_repo(const struct fsplan *fs, const char *dir)
{
	const struct fsplan_list *w = &fs->l[FSPLAN_WRITE];
	enum protect_repo v = PROTECT_REPO_GUARDED;
	char p[POLICY_PATH_MAX];
	size_t i;

	if (fold(p, dir) && (ends_dot_git(p) || in_git_admin(p)))
		return PROTECT_REPO_GUARDED;
	for (i = 0; i < w->n; i++) {
		if (under(w->v[i], dir))
			return PROTECT_REPO_PARTS;
		if (under(dir, w->v[i]))
			v = PROTECT_REPO_WHOLE;
	}
	return v;
}

enum protect_verdict
protect_decide(const struct fsplan *fs, enum protect_op op, mode_t type,
	       const char *path, const char **rule)
{
	const char *r;
	char p[POLICY_PATH_MAX];
	struct cover c;
	size_t i;

	covering(fs, path, &c);
	r = c.plain;
	if (!r && c.new_dir) {
		if (rule)
			*rule = c.new_dir;
		/* Only files and directories, and nothing of git's: its
		 * exceptions are for git's own rules alone. */
		if (op == PROTECT_MKNOD || op == PROTECT_SYMLINK ||
		    op == PROTECT_LINK || c.git ||
		    (op != PROTECT_REMOVE && protect_git_type(path, type)))
			return PROTECT_DENY;
		return PROTECT_NEW_DIR;
	}
	if (!r && op != PROTECT_REMOVE && (r = protect_git_type(path, type))) {
		if (rule)
			*rule = r;
		/* A new file: a linked worktree's or a submodule's,
		 * perhaps; a write: git submodule's rewrite of one. */
		return (op == PROTECT_CREATE || op == PROTECT_WRITE) &&
				       r == git_file_rule ?
			       PROTECT_GIT_FILE : PROTECT_DENY;
	}
	if (r) {
		if (rule)
			*rule = r;
		return PROTECT_DENY;
	}
	if (!(r = c.git))
		return PROTECT_ALLOW;
	if (rule)
		*rule = r;
	/* Only git's rules cover path from here on. */
	fold(p, path);
	for (i = 0; i < NEXCEPTIONS; i++)
		if (op == exceptions[i].op &&
		    policy_glob_match_path(exceptions[i].glob, p))
			return exceptions[i].v;
	return PROTECT_DENY;
}

static int
depth(const char *path)
{
	int n = 0;

	for (; *path; path++)
		if (path[0] != '/' && (path[1] == '/' || path[1] == '\0'))
			n++;
	return n;
}

/* Components of rule, and whether one after the first is **. */
static int
rule_shape(const char *rule, bool *lead_any, bool *inner_any)
{
	const char *p = rule, *end;
	int n = 0;

	*lead_any = *inner_any = false;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		if (end - p == 2 && p[0] == '*' && p[1] == '*') {
			if (n == 0)
				*lead_any = true;
			else
				*inner_any = true;
		}
		n++;
		p = end;
	}
	return n;
}

/* Whether folded path has a component equal to the one at c (up to a
 * slash). */
static bool
has_component(const char *path, const char *c)
{
	size_t n = strcspn(c, "/");
	const char *p;

	for (p = path; (p = strchr(p, '/')) != NULL; p++)
		if (!strncmp(p + 1, c, n) && (p[1 + n] == '/' || !p[1 + n]))
			return true;
	return false;
}

/* A rule "/" ** "/c1/..." whose c1 is a plain name that neither side of
 * the rename has: every match below lies wholly within the moved tree,
 * so it matches alike on both sides, whatever ** follows. */
static bool
apart(const char *rule, const char *from, const char *to)
{
	char r[POLICY_PATH_MAX], f[POLICY_PATH_MAX], t[POLICY_PATH_MAX];
	const char *c1;

	if (strncmp(rule, "/**/", 4) || !fold(r, rule) || !fold(f, from) ||
	    !fold(t, to))
		return false;
	c1 = r + 4;
	if (strcspn(c1, "*?[\\") < strcspn(c1, "/"))
		return false;
	return !has_component(f, c1) && !has_component(t, c1);
}

/* See protect.h: a rule "/" ** "/c1/../ck" can only straddle the moved
 * root with its first k-1 components inside, and with c1 in from or to;
 * a rule without ** matches paths of exactly its length. */
static int
rule_depth(const char *rule, bool glob, int dmin, const char *from,
	   const char *to)
{
	bool lead, inner;
	int n = rule_shape(rule, &lead, &inner);

	if (glob && lead && apart(rule, from, to))
		return 0;
	if (glob && inner)
		return -1;
	if (glob && lead)
		return n >= 2 ? n - 2 : 0;
	return n - dmin > 0 ? n - dmin : 0;
}

int
protect_rename_depth(const struct fsplan *fs, const char *from, const char *to)
{
	const struct fsplan_list *plain = &fs->l[FSPLAN_READ_ONLY];
	const struct fsplan_list *globs = &fs->l[FSPLAN_RO_GLOBS];
	int df = depth(from), dt = depth(to), dmin = df < dt ? df : dt;
	char f[POLICY_PATH_MAX], t[POLICY_PATH_MAX];
	int best = 0, d;
	size_t i;

	/* Symlinks anywhere below would come into a .git or leave one. */
	if (!fold(f, from) || !fold(t, to) ||
	    has_dot_git(f, false) != has_dot_git(t, false))
		return -1;
	for (i = 0; i < plain->n; i++)
		if ((d = rule_depth(plain->v[i], false, dmin, from, to)) > best)
			best = d;
	for (i = 0; i < globs->n; i++) {
		if ((d = rule_depth(globs->v[i], true, dmin, from, to)) < 0)
			return -1;
		if (d > best)
			best = d;
	}
	return best;
}

bool
protect_late_bind(const char *path)
{
	char p[POLICY_PATH_MAX];
	size_t i;

	if (!fold(p, path))
		return true;
	if (ends_dot_git(p))
		return false;
	for (i = 0; i < NEXCEPTIONS; i++)
		if (policy_glob_covers_path(exceptions[i].rule, p))
			return false;
	for (i = 0; i < NNEWDIR; i++)
		if (policy_glob_covers_path(new_dir_rules[i], p))
			return false;
	return true;
}

int
protect_holder_up(const char *path)
{
	char p[POLICY_PATH_MAX];
	const char *c, *holder = NULL;
	size_t i, n;
	int up = 0;

	if (!fold(p, path))
		return -1;
	/* The first component with one of the names: it covers all
	 * below it. */
	for (c = p; !holder && (c = strchr(c, '/')) != NULL; c++)
		for (i = 0; i < NNEWDIR; i++) {
			n = strlen(new_dir_rules[i]) - 3;
			if (!strncmp(c, new_dir_rules[i] + 3, n) &&
			    (c[n] == '/' || c[n] == '\0')) {
				holder = c;
				break;
			}
		}
	if (!holder)
		return -1;
	for (c = holder + 1; (c = strchr(c, '/')) != NULL; c++)
		up++;
	return up;
}

