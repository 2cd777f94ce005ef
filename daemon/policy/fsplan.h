/* The filesystem part of an effective policy, as the sandbox needs it:
 * absolute paths to make writable, read-only or unreadable, the globs and
 * ignore-file names a workspace walk resolves, and a key that names the
 * whole (a template is reused only for an identical plan). Pure. */
#ifndef SBX_FSPLAN_H
#define SBX_FSPLAN_H

#include <stddef.h>

#include "daemon/policy/policy.h"

struct fsplan_list {
	char **v;
	size_t n;
};

enum fsplan_kind {
	FSPLAN_WRITE,       /* allowWrite: writable trees */
	FSPLAN_DENY_READ,   /* denyRead paths (no globs) */
	FSPLAN_READ_ONLY,   /* denyWrite + protect paths (no globs) */
	FSPLAN_DENY_GLOBS,  /* denyRead globs, matched by the walk */
	FSPLAN_RO_GLOBS,    /* denyWrite + protect globs */
	FSPLAN_IGNORE,      /* ignore-file names (.sbxignore, ...) */
	FSPLAN_OVERLAY,     /* the home, seen through an overlay (0 or 1) */
	FSPLAN_UNIX_SOCKETS, /* allowUnixSockets: named sockets outside the
			       writable paths that may be connected to ("/":
			       allowAllUnixSockets) */
	FSPLAN_NKINDS
};

struct fsplan {
	struct fsplan_list l[FSPLAN_NKINDS];
	bool no_ptrace;     /* process.allowPtrace false: the ptrace family
			       refused (a seccomp program of its own) */
	char key[65];       /* SHA-256 hex of the canonical plan */
};

/* Always honoured, whatever the policy says (docs/architecture.md,
 * "Policy"). */
#define FSPLAN_DEFAULT_IGNORE_FILES { ".sbxignore", ".cursorignore" }

/* home: the served user's home (canonical), or NULL when the sandbox
 * cannot overlay it. The home is overlaid unless filesystem.home is
 * "read-only" or a writable tree or denyRead path covers all of it. */
int fsplan_build(const struct policy *eff, const char *workspace,
		 const char *home, struct fsplan **out);
/* The home the plan overlays, or NULL. */
const char *fsplan_home(const struct fsplan *p);
void fsplan_free(struct fsplan *p);
/* Appends a copy of s unless already there. */
int fsplan_push(struct fsplan_list *l, const char *s);
/* Appends a copy of s (no duplicate check: for long generated lists). */
int fsplan_append(struct fsplan_list *l, const char *s);
void fsplan_list_free(struct fsplan_list *l);

#endif
