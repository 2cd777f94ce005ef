/* The filesystem part of a Seatbelt profile: allow, then deny, from the policy. */
#ifndef SBX_SEATBELT_FS_H
#define SBX_SEATBELT_FS_H

#include "daemon/seatbelt/seatbelt.h"
#include "daemon/seatbelt/out.h"

/*
 * Writes, in this order: reads allowed everywhere; writes allowed to
 * allowWrite, the temp dir and a few devices; then denies only (so their
 * order does not matter): denyRead per layer, the hidden paths, protect
 * and denyWrite (case-folded regexes), and renames of the directories
 * above all of those. Returns 0 or o->err.
 */
int	seatbelt_fs_rules(struct seatbelt_out *o,
	    const struct seatbelt_input *in);

#endif
