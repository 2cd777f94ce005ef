/* Re-includes against one exclude line: whether they meet it, and what is left of it below. */
#ifndef SBX_SEATBELT_REINC_H
#define SBX_SEATBELT_REINC_H

#include <stddef.h>

#include "daemon/policy/ignore.h"
#include "daemon/seatbelt/rx.h"

/*
 * Lines are languages over paths relative to p's directory (an unanchored
 * line matches its last component at any depth; a line of a deeper file
 * starts with that file's directory). budget is a profile's
 * (seatbelt/dfa.h).
 */

/* 1 when some path matches both p and the "!" line q, 0 when none does,
 * -E2BIG when that was too costly to tell, -ENOMEM. */
int	seatbelt_reinc_meets(const struct ignore_pattern *p,
	    const struct ignore_pattern *q, long *budget);

/*
 * Appends to desc (which holds "^WORKSPACE/DIR") "/" and a regex for the
 * paths p matches and no q[0..nq) does (at most 64). Returns 1, 0 when
 * nothing is left, -E2BIG (then the caller denies all p matches),
 * -ENOMEM.
 */
int	seatbelt_reinc_difference(const struct ignore_pattern *p,
	    const struct ignore_pattern **q, size_t nq,
	    struct seatbelt_rx *desc, long *budget);

#endif
