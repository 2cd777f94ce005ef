/* Violation events in words, pure (no I/O but the FILE it is given): the
 * line sbxctl and `sbxctl events` print for one event, and the block after
 * a run, which the daemon sends as ExitStatus.summary_lines. */
#ifndef SBX_PROTO_BLOCKED_H
#define SBX_PROTO_BLOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "proto/wire.h"

/*
 * "blocked write /etc/hosts (outside the writable paths; org policy
 * /etc/sbx/policy.d/base.json, rule fs.write) — write inside the
 * workspace, or ask the user to allow it", with " (N times)" for a group,
 * or "N more violations suppressed (rate limit); the last: blocked ...".
 * Control bytes from the daemon become '?'. Returns the length written
 * (cut to fit size).
 */
size_t blocked_text(const Sbx__ViolationEvent *ev, char *buf, size_t size);

/* Terminals and agents read what the daemon sends: control bytes in s
 * become '?'. */
void blocked_scrub(char *s);

/* The note for a failed command after which a write outside the writable
 * paths was refused: the writable paths; "" when there is none to make. */
size_t blocked_note(const Sbx__ExitStatus *es, int code, char *buf,
		    size_t size);

/* "a program tried to reach the network directly (N times: ...)" when
 * es counted such attempts, else "". */
size_t blocked_direct(const Sbx__ExitStatus *es, char *buf, size_t size);

/* "withheld from the command's environment (secrets): A, B — ...", ""
 * when nothing was. Names only: the daemon never sends values. */
size_t blocked_withheld(const Sbx__ExitStatus *es, char *buf, size_t size);

/* Whether the run's violations include a refused write or removal of an
 * existing protected file (the supervisor's "write" and "remove"): the
 * command's change failed and left the old content. Programs may report
 * that and still exit 0 (git checkout does), so `run` does not. */
bool blocked_left_unchanged(const Sbx__ExitStatus *es);

/* The exit status sbxctl exits with for es: the command's, 128 + its
 * signal, or 1 for a success after which a protected file was left as it
 * was (blocked_left_unchanged). */
int blocked_exit_code(const Sbx__ExitStatus *es);

/* The grouped violations of the run and the notes, as "sbx: " lines on
 * out; code is the exit status blocked_exit_code gives. */
void blocked_summary_text(FILE *out, const Sbx__ExitStatus *es, int code);

/* blocked_summary_text as lines without their newline: *lines (n of them)
 * to free with blocked_lines_free. 0 or -ENOMEM. */
int blocked_summary_lines(const Sbx__ExitStatus *es, char ***lines,
			  size_t *n);
void blocked_lines_free(char **lines, size_t n);

#endif
