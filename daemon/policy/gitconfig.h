/* Whether a .git/config written inside a sandbox may become a repository's
 * config: only the keys `git init` and `git clone` write, in the plain
 * syntax git itself writes. Pure. Strict on purpose: a file this parser is
 * unsure of might be read differently by git (a hidden include, hook or
 * command), so it is refused rather than interpreted. */
#ifndef SBX_GITCONFIG_H
#define SBX_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Larger files are refused (git init writes about 100 bytes). */
#define GITCONFIG_MAX (64 * 1024)

struct gitconfig_error {
	unsigned line;          /* 1-based; 0: the file as a whole */
	char key[80];           /* "core.fsmonitor", or "" */
	const char *why;        /* static text */
};

/* 0 when every line of buf is accepted; -EINVAL with *err filled when
 * not (err may be NULL). */
int gitconfig_check(const char *buf, size_t len, struct gitconfig_error *err);

/* The same for a submodule's config, gitdir/config (gitdir: canonical,
 * below git, the superproject's .git): core.worktree too, relative, when
 * it names a directory inside the superproject's work tree and outside
 * git. */
int gitconfig_check_module(const char *buf, size_t len, const char *gitdir,
			   const char *git, struct gitconfig_error *err);

/* Whether section.key (sub: the subsection, NULL without one; keylen
 * bytes of key) is one whose value cannot run a program or change which
 * program git runs; case-insensitive, as git reads names. */
bool gitconfig_key_allowed(const char *section, const char *sub,
			   const char *key, size_t keylen);
/* Whether value v (vn bytes) is acceptable for that key: a URL that names
 * no remote helper, ext transport or option. */
bool gitconfig_value_ok(const char *section, const char *key, size_t keylen,
			const char *v, size_t vn);

/*
 * A rewrite of an existing repository's config (policy/gitconfig-change.c):
 * 0 when new differs from old only in entries of allowed keys with allowed
 * values; every other entry (whatever git syntax the user wrote it in,
 * includes and all) must be the same, in the same order, in both. Both
 * files are parsed as git parses them; one git would refuse, or holding a
 * NUL byte, is refused. -EINVAL with *err when not (line: in new, 0 for a
 * removed entry or the file as a whole).
 */
int gitconfig_change_check(const char *old, size_t oldlen, const char *new_,
			   size_t newlen, struct gitconfig_error *err);

#endif
