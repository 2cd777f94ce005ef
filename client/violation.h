/* Violation events on sbxctl's stderr: one line an agent or a person can act on. */
#ifndef SBX_VIOLATION_H
#define SBX_VIOLATION_H

#include <stddef.h>

#include "proto/wire.h"

/*
 * "sbx: blocked network HOST:PORT (RULE, LAYER policy FILE: WHY) —
 * REMEDIATION". Returns the length written to buf (cut to fit).
 */
size_t violation_format(const Sbx__ViolationEvent *ev, char *buf,
			size_t size);
/* Writes that line to stderr. */
void violation_print(const Sbx__ViolationEvent *ev);

#endif
