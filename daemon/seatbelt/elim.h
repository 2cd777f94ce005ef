/* A DFA back to a regex by state elimination, for seatbelt/dfa.c. */
#ifndef SBX_SEATBELT_ELIM_H
#define SBX_SEATBELT_ELIM_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/seatbelt/rx.h"

/*
 * A graph of n states: label[(i * n + j) * 32] is the byte set of the edge
 * from i to j (all zero: none), acc[i] whether i accepts. Appends a regex
 * for the words from start to an accepting state to rx, parenthesised
 * when it is an alternation. Returns 1, 0 when it matches only the empty
 * word (rx untouched), -E2BIG when it would not fit in a profile string,
 * -ENOMEM.
 */
int	seatbelt_elim(const unsigned char *label, const bool *acc, size_t n,
	    size_t start, struct seatbelt_rx *rx);

#endif
