/* Writing SBPL text: string quoting, and rules that vanish when they would have no filter. */
#ifndef SBX_SEATBELT_OUT_H
#define SBX_SEATBELT_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "daemon/policy/diag.h"
#include "daemon/seatbelt/rx.h"

/*
 * The generator's output state. A rule is written into rule first and
 * copied to f at seatbelt_out_end() only if it got a filter: "(allow
 * file-write*)" without one would allow every write. err keeps the first
 * error; every writer is a no-op after it.
 */
struct seatbelt_out {
	FILE			*f;
	FILE			*rule;
	char			*rule_buf;
	size_t			 rule_len;
	const char		*head;
	bool			 tag;
	unsigned		 nfilt;
	int			 err;
	struct policy_diags	*diags;
};

/*
 * s[0..n) as an SBPL string literal: '"' and '\' escaped, newline, tab and
 * CR as \n \t \r, every other byte as it is (TinyScheme reads raw bytes;
 * its \x escapes are not in every macOS release).
 */
void	seatbelt_out_quote(FILE *f, const char *s, size_t n);

/* Starts "(head" (e.g. "deny file-read*"); tag adds the session message. */
void	seatbelt_out_begin(struct seatbelt_out *o, const char *head, bool tag);
void	seatbelt_out_end(struct seatbelt_out *o);
/* A line of filter text at depth (1: a filter of the rule). */
void	seatbelt_out_line(struct seatbelt_out *o, int depth, const char *text);
/* Text on the current line ("))" closing what line() opened). */
void	seatbelt_out_text(struct seatbelt_out *o, const char *text);
/*
 * (regex "...") on a new line at depth, or after a space on the current
 * line for depth 0; a regex that did not fit is an error.
 */
void	seatbelt_out_regex(struct seatbelt_out *o, int depth,
	    const struct seatbelt_rx *rx);
/*
 * (FILTER "path") and the same for its /private alias, as filters; inside
 * (WRAP ...) when wrap is not NULL ("remote unix-socket").
 */
void	seatbelt_out_path(struct seatbelt_out *o, const char *wrap,
	    const char *filter, const char *path);
/* Counts one filter of the open rule (the writer of depth-1 text does). */
void	seatbelt_out_filter(struct seatbelt_out *o);
/* A comment line; text is the generator's own, never from a policy. */
void	seatbelt_out_comment(struct seatbelt_out *o, const char *text);

#endif
