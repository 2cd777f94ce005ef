/* Whether a .git/config written inside a sandbox may become a repository's
 * config: only the keys `git init` and `git clone` write, in the plain
 * syntax git itself writes. Pure. Strict on purpose: a file this parser is
 * unsure of might be read differently by git (a hidden include, hook or
 * command), so it is refused rather than interpreted. */
#ifndef SBX_GITCONFIG_H
#define SBX_GITCONFIG_H

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

#endif
