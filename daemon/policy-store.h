/* Where policy comes from at run time: the layer files on disk, read and
 * cached, merged into the effective policy of one run. */
#ifndef SBX_POLICY_STORE_H
#define SBX_POLICY_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/policy.h"

#define POLICY_STORE_ORG_DIR "/etc/sbx/policy.d"

struct policy_store_opts {
	const char *org_dir;       /* NULL: POLICY_STORE_ORG_DIR */
	bool org_dir_explicit;     /* --org-dir: files may be the daemon's */
	const char *user_file;     /* --policy: replaces the user lookup */
	const char *home;          /* the served user's home */
};

void policy_store_init(const struct policy_store_opts *o);

/* The effective policy for a run in workspace: builtin, org, user
 * (~/.config/sbx/policy.json, else ~/.srt-settings.json, else the shipped
 * defaults), workspace (.sbx/policy.json), then request (may be NULL).
 * A file that fails to parse keeps its last good version in force; one
 * that never parsed fails the run with its "file:line:col: message". */
int policy_store_effective(const char *workspace, const struct policy *request,
			   struct policy **out, char *err, size_t errlen);

/* Parses the --policy file once (start-up check). */
int policy_store_check(char *err, size_t errlen);

/* Problems of the last loads, one line each, for `sbxctl status`. */
size_t policy_store_problems(const char *const **out);

const char *policy_store_home(void);
void policy_store_cleanup(void);

#endif
