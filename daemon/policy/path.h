/* Lexical path work for policies: resolve ~ and relative, normalise. */
#ifndef SBX_POLICY_PATH_H
#define SBX_POLICY_PATH_H

#include <stdbool.h>

/* Longest resolved path, as the kernel's PATH_MAX (with the NUL). */
#define POLICY_PATH_MAX 4096

/*
 * Resolves text to an absolute normalised path: "~" and "~/x" against home,
 * "/x" as is, anything else against base (NULL: an error). "." and empty
 * components go, ".." removes the previous one (never above "/"), a trailing
 * slash goes. Purely lexical: symlinks are the enforcer's business. On
 * success *out is malloc'd; on -EINVAL *why says what is wrong.
 */
int policy_path_resolve(const char *text, const char *home, const char *base,
    char **out, const char **why);
/* True if inner is outer or below it (both absolute and normalised). */
bool policy_path_covers(const char *outer, const char *inner);
/* True if text has glob metacharacters (* ? [). */
bool policy_path_is_glob(const char *text);
/* True for "~", "~/..." and absolute paths: those need no workspace. */
bool policy_path_is_anchored(const char *text);

#endif
