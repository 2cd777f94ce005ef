/* Glob matching for policy rules: path globs with **, env-name globs. */
#ifndef SBX_POLICY_GLOB_H
#define SBX_POLICY_GLOB_H

#include <stdbool.h>

/*
 * Path globs as in gitignore: * and ? never match '/', [...] is a class
 * ([!...] negates), a component that is exactly ** matches any number of
 * components. Both arguments are absolute and normalised. covers is true
 * when the pattern matches path or one of its ancestors: a denied directory
 * denies what is inside it. Paths longer than POLICY_PATH_MAX never match.
 */
bool policy_glob_match_path(const char *pattern, const char *path);
bool policy_glob_covers_path(const char *pattern, const char *path);

/*
 * Environment-name globs: only '*' is special. Since names cannot contain
 * '*', matching pattern b as if it were a name tells whether every name b
 * matches is matched by a: policy_glob_match_name(a, b) is the coverage test
 * the merge uses for env.pass.
 */
bool policy_glob_match_name(const char *pattern, const char *name);

#endif
