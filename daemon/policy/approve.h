/* "Allow always": a host the user approved, written into the user's policy
 * file as an allowedDomains rule with an id, so later runs need no
 * question. Only the user layer: a workspace file can narrow what the
 * layers above allow, never widen it (merge.h), so a rule there would
 * not do what the user asked. */
#ifndef SBX_POLICY_APPROVE_H
#define SBX_POLICY_APPROVE_H

#include <stddef.h>

#define POLICY_APPROVE_MAX (1u << 20)	/* the largest file rewritten */

/*
 * Pure: text (a policy document) with {"domain": domain, "id": ID,
 * "reason": reason} appended to network.allowedDomains (made when
 * missing), as *out (malloc'd, to free) and the new rule's id in id.
 * Returns 1 and *out = NULL when a rule for domain is there already (id:
 * its id, "" if it has none), 0 when *out is the new text, -EINVAL (err
 * says why: not JSON, network is not an object, ...) or -ENOMEM.
 */
int policy_approve_add(const char *text, size_t len, const char *domain,
		       const char *reason, char **out, char *id, size_t idlen,
		       char *err, size_t errlen);

/*
 * Adds domain to the user policy file in force (--policy, else
 * ~/.config/sbx/policy.json, else ~/.srt-settings.json), as the served
 * user: read, policy_approve_add, write a temporary file beside it,
 * fsync, rename over it (the watcher then reloads it). file gets the
 * path, id the rule's id. -ENOENT when the shipped defaults are in force
 * (no file to add to), other -errno; err says why either way.
 */
int policy_approve_always(const char *domain, const char *reason,
			  char *file, size_t filelen, char *id, size_t idlen,
			  char *err, size_t errlen);

#endif
