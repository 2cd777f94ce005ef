/* Regexes for one glob language minus others, through a small automaton. */
#ifndef SBX_SEATBELT_DFA_H
#define SBX_SEATBELT_DFA_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/policy/ignore.h"
#include "daemon/seatbelt/rx.h"

/*
 * Why this exists: a gitignore re-include ("!keep") wins only at the path
 * it matches, while an excluded directory hides everything below it. A
 * Seatbelt rule sees only the path being opened, so "below a directory
 * that p matches and no later !q matches" cannot be written as p's regex
 * with (require-not q): q would be tested against the wrong prefix. It is
 * one regex for the set difference p \ q, followed by "/.+". Regexes have
 * no complement, so the difference goes through a DFA and back.
 */

/* A token list (policy/ignore.h) matched against a whole text, as a
 * language. */
struct seatbelt_dfa_lang {
	const struct ignore_tok	*tok;
	size_t			 ntok;
};

/*
 * Limits that keep a hostile ignore file from costing more than this.
 * Each call also spends from the caller's *budget (steps of work; one call
 * takes at most 50 million): a caller gives a whole profile one budget,
 * and a call finding it spent returns -E2BIG at once.
 */
#define SEATBELT_DFA_NFA_MAX	1024	/* states of all the token lists */
#define SEATBELT_DFA_DFA_MAX	256	/* subsets explored */
#define SEATBELT_DFA_ELIM_MAX	48	/* states turned back into a regex */

/*
 * The words of lang that no minus[j] matches, as an unanchored regex
 * appended to rx (parenthesised where it must be, so text can follow).
 * hit[j] (n entries, may be NULL) is set when minus[j] shares a word with
 * lang. Returns 1 when the difference is not empty, 0 when it is (rx
 * untouched), -E2BIG over a limit or when the regex does not fit (hit[]
 * then says true for all), -ENOMEM.
 */
/* 1 when a and b share a word, 0 when not, -E2BIG, -ENOMEM. */
int	seatbelt_dfa_meets(const struct seatbelt_dfa_lang *a,
	    const struct seatbelt_dfa_lang *b, long *budget);

int	seatbelt_dfa_minus(const struct seatbelt_dfa_lang *lang,
	    const struct seatbelt_dfa_lang *minus, size_t n, bool *hit,
	    struct seatbelt_rx *rx, long *budget);

#endif
