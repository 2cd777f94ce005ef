/* The global options of sbxctl, found wherever the user typed them: before
 * the verb or among its own arguments. Pure: no output, no syscalls. */
#ifndef SBX_ARGS_H
#define SBX_ARGS_H

#include <getopt.h>
#include <stdbool.h>

#include "client/client.h"

#define ARGS_HELP 0x1    /* --help or -h was given */
#define ARGS_VERSION 0x2 /* --version was given */
#define ARGS_SHORT 0x4   /* flag: -s PATH and -j are --socket and --json
			  * (only before the verb: verbs have their own) */

/* Takes the global options (--json, --socket PATH, --no-autostart,
 * --connect-timeout SEC, --help, -h, --version) out of argv[1..*argc),
 * compacting argv and *argc. opts and shortopts are the verb's own
 * getopt_long table and string (either may be NULL): they tell which words
 * are values of the verb's options, never taken as globals, and a '+'
 * first in shortopts says the verb's first operand ends its options (run:
 * the command's flags are the command's). "--" always ends the search and
 * stays. Options the search does not know stay for the verb's getopt.
 * Returns ARGS_HELP|ARGS_VERSION bits found (>= 0), or -EINVAL with *bad
 * naming the word at fault (a global without its value, a bad timeout). */
int args_take_globals(int *argc, char **argv, const struct option *opts,
		      const char *shortopts, unsigned flags,
		      struct cmd_ctx *ctx, const char **bad);

/* Seconds (fractions allowed, at most a day) to milliseconds, 0 meaning
 * "no deadline". -EINVAL when s is not such a number. */
int args_timeout(const char *s, unsigned *ms);

#endif
