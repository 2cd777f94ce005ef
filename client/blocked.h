/* What sbxctl says about violations: one line per event an agent or a person
 * can act on, the grouped block after a run, and the same as JSON. */
#ifndef SBX_BLOCKED_H
#define SBX_BLOCKED_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "proto/blocked.h"

/* The event's fields as a JSON object (with "text": blocked_text()). */
json_t *blocked_json(const Sbx__ViolationEvent *ev);

/*
 * After `sbxctl run`: the daemon's ExitStatus.summary_lines on out (or,
 * from a daemon that sends none, blocked_summary_text's), or with json
 * one JSON object on one line (always, even with nothing to report). code
 * is the command's exit status.
 */
void blocked_summary(FILE *out, const Sbx__ExitStatus *es, int code,
		     bool json);

#endif
