/* A workspace's ignore files as Seatbelt deny rules. */
#ifndef SBX_SEATBELT_IGNORE_H
#define SBX_SEATBELT_IGNORE_H

#include "daemon/policy/ignore.h"
#include "daemon/seatbelt/out.h"

/*
 * Writes two rules: one denying every access to what ignore_set_match()
 * excludes below workspace (an absolute, resolved path), and one denying
 * renames of the directories a rename could move an excluded path out
 * from under its rule (those holding ignore files, and the directories an
 * anchored pattern names). Semantics, exactly:
 *
 * A path X is excluded when some prefix P of it (X itself, or a parent
 * directory) is decided "excluded": the deciding line for P is the last
 * matching line of the deepest ignore file with one, and it is not a
 * "!" line. So for each exclude line p, with Q the "!" lines that decide
 * after it (later in its file, later files of its directory, files below):
 *
 *   X itself: (require-all p (require-not q)...) - a q here is tested
 *	against X, which is the P both are about, so this is exact;
 *	directory-only lines add (vnode-type DIRECTORY).
 *   below P: one regex for the language p \ Q, then "/.+". It cannot be
 *	(require-not q) on X: q would be tested on X, not on P, and
 *	"build/" + "!build/keep" would re-open build/keep/x, which git and
 *	the Linux mounts keep hidden. seatbelt/dfa.c computes the
 *	difference; a "!" line that shares no path with p is left out of
 *	both.
 *
 * Where exactness would cost too much (a line with more than 64 later "!"
 * lines, an automaton over its limits, a regex longer than a profile
 * string) the rule errs towards denying: the re-includes are dropped for
 * that line, or an over-long line denies its whole directory. Each such
 * case is a warning in o->diags ("DIR/NAME:LINE: warning: ...").
 *
 * Returns 0 or o->err (-ENOMEM, -ENAMETOOLONG when the workspace path
 * itself does not fit in a profile string).
 */
int	seatbelt_ignore_rules(struct seatbelt_out *o,
	    const struct ignore_set *set, const char *workspace);

#endif
