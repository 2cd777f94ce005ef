/* Protected-path decisions for the supervisor: coverage by the plan's
 * read-only rules, git's three exceptions, and how deep a directory rename
 * must be looked into. */
#include <string.h>
#include <strings.h>

#include "daemon/policy-glob.h"
#include "daemon/policy-path.h"
#include "daemon/protect.h"

/* The built-in rules git's exceptions belong to (policy-builtin.c). */
#define GIT_HOOKS "/**/.git/hooks"
#define GIT_CONFIG "/**/.git/config"

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

static bool
is_git_rule(const char *glob)
{
	return !strcmp(glob, GIT_HOOKS) || !strcmp(glob, GIT_CONFIG);
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

/* Whether glob may cover path (folded): a glob whose last component is a
 * plain name covers only paths with a component of that name. Most rules
 * are such ("/" "**" "/.mcp.json"): this spares the full match, which the
 * supervisor would otherwise run for every rule on every file made. */
static bool
may_cover(const char *glob, const char *path)
{
	const char *last = strrchr(glob, '/'), *p;
	size_t n;

	last = last ? last + 1 : glob;
	n = strlen(last);
	if (n == 0 || strpbrk(last, "*?[\\"))
		return true;
	for (p = path; (p = strchr(p, '/')) != NULL; p++)
		if (!strncasecmp(p + 1, last, n) &&
		    (p[1 + n] == '/' || p[1 + n] == '\0'))
			return true;
	return false;
}

/* First rule covering path; git's own rules only when with_git. */
static const char *
covering(const struct fsplan *fs, const char *path, bool with_git)
{
	const struct fsplan_list *plain = &fs->l[FSPLAN_READ_ONLY];
	const struct fsplan_list *globs = &fs->l[FSPLAN_RO_GLOBS];
	char p[POLICY_PATH_MAX], rule[POLICY_PATH_MAX];
	size_t i;

	if (!fold(p, path))
		return "(path too long to check)";
	for (i = 0; i < plain->n; i++)
		if (fold(rule, plain->v[i]) && under(p, rule))
			return plain->v[i];
	for (i = 0; i < globs->n; i++)
		if ((with_git || !is_git_rule(globs->v[i])) &&
		    may_cover(globs->v[i], p) && fold(rule, globs->v[i]) &&
		    policy_glob_covers_path(rule, p))
			return globs->v[i];
	return NULL;
}

bool
protect_covered(const struct fsplan *fs, const char *path, const char **rule)
{
	const char *r = covering(fs, path, true);

	if (r && rule)
		*rule = r;
	return r != NULL;
}

enum protect_verdict
protect_decide(const struct fsplan *fs, enum protect_op op, const char *path,
	       const char **rule)
{
	const char *r = covering(fs, path, false);
	char p[POLICY_PATH_MAX];

	if (r) {
		if (rule)
			*rule = r;
		return PROTECT_DENY;
	}
	if (!(r = covering(fs, path, true)))
		return PROTECT_ALLOW;
	if (rule)
		*rule = r;
	/* Only git's rules cover path from here on. */
	fold(p, path);
	if (op == PROTECT_MKDIR && policy_glob_match_path(GIT_HOOKS, p))
		return PROTECT_HOOKS_DIR;
	if (op == PROTECT_CREATE &&
	    policy_glob_match_path(GIT_HOOKS "/*.sample", p))
		return PROTECT_DISCARD;
	if (op == PROTECT_RENAME && policy_glob_match_path(GIT_CONFIG, p))
		return PROTECT_GIT_CONFIG;
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

/* See protect.h: a rule "/" ** "/c1/../ck" can only straddle the moved
 * root with its first k-1 components inside; a rule without ** matches
 * paths of exactly its length. */
static int
rule_depth(const char *rule, bool glob, int dmin)
{
	bool lead, inner;
	int n = rule_shape(rule, &lead, &inner);

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
	int best = 0, d;
	size_t i;

	for (i = 0; i < plain->n; i++)
		if ((d = rule_depth(plain->v[i], false, dmin)) > best)
			best = d;
	for (i = 0; i < globs->n; i++) {
		if ((d = rule_depth(globs->v[i], true, dmin)) < 0)
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

	return !fold(p, path) || (!policy_glob_covers_path(GIT_HOOKS, p) &&
				  !policy_glob_match_path(GIT_CONFIG, p));
}

bool
protect_git_rule(const char *rule)
{
	return is_git_rule(rule);
}
