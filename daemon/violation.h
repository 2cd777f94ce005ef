/* Violation events: one denial described for a person or an agent, the
 * per-session rate limit on sending them, and the per-session summary kept
 * for the end of the run. Pure: no syscalls; time is passed in. */
#ifndef SBX_VIOLATION_H
#define SBX_VIOLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

enum violation_kind {
	VIOLATION_FS_READ,
	VIOLATION_FS_WRITE,
	VIOLATION_FS_CREATE,
	VIOLATION_NETWORK,
	VIOLATION_SYSCALL,
	VIOLATION_IPC,
	VIOLATION_SIGNAL,
	VIOLATION_LIMIT,	/* a resource limit was hit (limits.*) */
	VIOLATION_NKINDS
};

/* No policy layer: one of sbx's own checks denied. */
#define VIOLATION_NO_LAYER (-1)

/*
 * One denial as a source describes it. Strings are borrowed; NULL means
 * empty. reason is the denying rule's "reason" (the remediation line);
 * NULL gives the kind's default.
 */
struct violation {
	enum violation_kind kind;
	const char *target;	/* path, "host:port", "name(args)" */
	const char *operation;	/* "write_file", "connect", "socket", ... */
	const char *rule;	/* what denied, in words */
	const char *rule_id;
	int layer;		/* enum policy_layer, or VIOLATION_NO_LAYER */
	const char *file;	/* where the rule is written */
	const char *reason;
	const char *detail;	/* why, when the rule alone does not say */
	bool expected;		/* a probe programs expect refused (libc's
				   nscd socket): data, not a line to print */
};

/* "fs-read", "network", ...; NULL for an out-of-range kind. */
const char *violation_kind_name(enum violation_kind kind);
/* The remediation line: v->reason, else the default for v->kind. */
const char *violation_remediation(const struct violation *v);

/* Fills ev (initialised by the caller) from v; pointers are borrowed from
 * v and from static strings. */
void violation_event(const struct violation *v, uint64_t session_id,
		     uint64_t time_unix_ms, Sbx__ViolationEvent *ev);

/*
 * Rate limit, a token bucket per session: VIOLATION_BURST events at once,
 * then VIOLATION_RATE per second. Memory is bounded: at most
 * VIOLATION_GROUPS_MAX summary groups and one held event, each string cut
 * to VIOLATION_TEXT_MAX bytes, whatever the number of denials.
 */
#define VIOLATION_BURST 32
#define VIOLATION_RATE 10
#define VIOLATION_GROUPS_MAX 32
#define VIOLATION_TEXT_MAX 512

struct violation_log;

struct violation_log *violation_log_new(uint64_t now_ms);
void violation_log_free(struct violation_log *l);

/* What violation_log_add() asks the caller to send, in this order. */
#define VIOLATION_SEND_HELD 0x1	/* *held: "N more suppressed" */
#define VIOLATION_SEND_THIS 0x2	/* the violation itself */

/*
 * Counts v into the summary and spends a token on it. Returns a mask of
 * VIOLATION_SEND_*: with SEND_HELD, *held describes the denials held back
 * since the last send (its suppressed field says how many; pointers
 * valid until the next call on l; time_unix_ms is for the caller to set).
 * 0: v was held back. Never fails: without memory a denial is still
 * counted, only not grouped.
 */
int violation_log_add(struct violation_log *l, const struct violation *v,
		      uint64_t session_id, uint64_t now_ms,
		      Sbx__ViolationEvent *held);

/* At the end of the session: true and *held set when denials are still
 * held back (pointers valid until l changes). */
bool violation_log_flush(struct violation_log *l, Sbx__ViolationEvent *held);

/* Sets es's violation fields (12-15) from l; the groups are borrowed from
 * l, valid until it changes. */
void violation_log_summary(const struct violation_log *l,
			   Sbx__ExitStatus *es);

/* Denials recorded so far. */
uint32_t violation_log_total(const struct violation_log *l);

#endif
