/* Where policy comes from at run time: the layer files on disk, read and
 * cached, merged into the effective policy of one run. */
#ifndef SBX_POLICY_STORE_H
#define SBX_POLICY_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "daemon/policy/policy.h"

#define POLICY_STORE_ORG_DIR "/etc/sbx/policy.d"

struct policy_store_opts {
	const char *org_dir;       /* NULL: POLICY_STORE_ORG_DIR */
	bool org_dir_explicit;     /* --org-dir: files may be the daemon's */
	const char *user_file;     /* --policy: replaces the user lookup */
	const char *home;          /* the served user's home: "~" */
	const char *lookup_home;   /* --home: where ~/.config/sbx/policy.json
				    * and ~/.srt-settings.json are looked
				    * for (tests); NULL: home */
};

void policy_store_init(const struct policy_store_opts *o);
const struct policy_store_opts *policy_store_opts(void);

/* The effective policy for a run in workspace: builtin, org, user
 * (~/.config/sbx/policy.json, else ~/.srt-settings.json, else the shipped
 * defaults), workspace (.sbx/policy.json), then request (may be NULL).
 * A file that fails to parse keeps its last good version in force; one
 * that never parsed fails the run with its "file:line:col: message". */
int policy_store_effective(const char *workspace, const struct policy *request,
			   struct policy **out, char *err, size_t errlen);

/*
 * Merges doc (a candidate file of its layer, `sbxctl policy check`) below
 * the layers above it as they are now, for workspace; what the merge cuts
 * or refuses lands in diags as warnings located in doc. -errno with err
 * when a higher layer cannot be loaded.
 */
int policy_store_lint(const struct policy *doc, const char *workspace,
		      struct policy_diags *diags, char *err, size_t errlen);

/* The largest serial of the org layer now (0: none). */
int policy_store_org_serial(long long *serial, char *err, size_t errlen);

/* The org policy pushed to this daemon (policy/org.c), verified and
 * parsed; the store takes it over (NULL: none). New runs merge it into the
 * org layer; running sessions keep the policy they started with. */
void policy_store_set_pushed(struct policy *doc);

/*
 * Re-reads every layer file for the workspaces ws[0..n) (none: the user
 * layer alone), so the problems below describe the files as they are now,
 * not as the last run found them. Called when the files change.
 */
void policy_store_refresh(const char *const *ws, size_t n);

/* A layer changed (what: "org policy", a file name): logged, and told to
 * the callback main.c registers (events_policy_changed). */
void policy_store_changed(const char *what);
void policy_store_on_change(void (*cb)(const char *what));

/* Problems of the last loads, one line each, for `sbxctl status`. */
size_t policy_store_problems(const char *const **out);

/* Reads all of a regular file (at most max bytes) as the served user: a
 * root daemon must not read for a user what the user could not. */
int policy_store_read(const char *path, size_t max, struct stat *st,
		      char **buf);

const char *policy_store_home(void);
void policy_store_cleanup(void);

#endif
