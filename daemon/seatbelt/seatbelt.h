/* Seatbelt (SBPL) profiles for macOS, generated from the effective policy. */
#ifndef SBX_SEATBELT_H
#define SBX_SEATBELT_H

#include <stddef.h>

#include "daemon/policy/ignore.h"
#include "daemon/policy/policy.h"

/*
 * The session tag is a profile parameter, not text: every deny carries
 * (with message (param "SBX_SESSION")), and sandbox-exec -D SBX_SESSION=TAG
 * fills it in. One profile (and one cache entry) then serves every session
 * of a workspace while each violation line still names its session.
 */
#define SEATBELT_PARAM_SESSION	"SBX_SESSION"
/* Changes whenever the generator's output does: part of the cache key. */
#define SEATBELT_GENERATOR	"sbx-seatbelt-1"

/* Everything a profile is made of. Strings are borrowed, absolute and
 * resolved (macOS /var, /tmp and /etc links are handled either way). */
struct seatbelt_input {
	const struct policy	*policy;	/* effective (policy_merge) */
	const struct ignore_set	*ignores;	/* the workspace's, or NULL */
	const char		*workspace;
	const char		*tmpdir;	/* per-workspace temp dir */
	const char *const	*hidden;	/* daemon state: no access at
						   all; NULL-terminated, or
						   NULL */
	unsigned		 http_port;	/* proxy on localhost; 0: none */
	unsigned		 socks_port;
};

/*
 * The profile, as NUL-terminated text in *text (malloc'd, *len bytes).
 * The rules, in the order Seatbelt needs (a later match wins, and a deny
 * on one operation beats an allow of its whole family):
 *
 *   (deny default), (import "system.sb"), processes, sysctls and mach
 *   services a developer tool needs; the network only to the proxy's
 *   localhost ports (none when the policy can reach no host), Unix
 *   sockets per allowUnixSockets / allowAllUnixSockets, localhost
 *   listening per allowLocalBinding; reads everywhere, writes to
 *   allowWrite and the temp dir; then only denies: denyRead per layer
 *   minus that layer's allowRead (reads, writes and hard links), the
 *   daemon's state, ignore-file matches (seatbelt/ignore.h), denyWrite
 *   and protect as regexes that match whether or not the path exists and
 *   in any ASCII case (a new ".ZSHRC" is ".zshrc" on a case-insensitive
 *   volume), and no renaming of the directories above any of those.
 *
 * Warnings (an ignore line that had to deny more than it says) are added
 * to diags. Returns 0, -EINVAL (a path not absolute), -ENAMETOOLONG (a
 * path longer than a profile string may be), -ENOMEM.
 */
int	seatbelt_profile(const struct seatbelt_input *in, char **text,
	    size_t *len, struct policy_diags *diags);

#endif
