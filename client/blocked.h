/* What sbxctl says about violations: one line per event an agent or a person
 * can act on, the grouped block after a run, and the same as JSON. */
#ifndef SBX_BLOCKED_H
#define SBX_BLOCKED_H

#include <jansson.h>
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

/* The event's fields as a JSON object (with "text": blocked_text()). */
json_t *blocked_json(const Sbx__ViolationEvent *ev);

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

/*
 * After `sbxctl run`: the grouped violations of the run and the note on
 * out, as "sbx: " lines, or with json one JSON object on one line (always,
 * even with nothing to report). code is the command's exit status.
 */
void blocked_summary(FILE *out, const Sbx__ExitStatus *es, int code,
		     bool json);

#endif
