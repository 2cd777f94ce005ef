/* The parser's walk state: where in the document it is, how to report. */
#ifndef SBX_POLICY_JSON_H
#define SBX_POLICY_JSON_H

#include <stdbool.h>
#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/loc.h"

/* Paths deeper than this are never reported on (the format is shallow). */
#define POLICY_JSON_DEPTH 8

struct policy_json {
	const struct policy_ctx *ctx;
	struct policy_diags *diags;
	struct policy_loc loc;
	struct policy_loc_step path[POLICY_JSON_DEPTH];
	size_t depth;
	json_t *ids;		/* rule ids seen so far: id -> [line, col] */
	int err;		/* first -ENOMEM met while reporting */
};

int policy_json_init(struct policy_json *pj, const struct policy_ctx *ctx,
    struct policy_diags *diags, const char *buf, size_t len);
void policy_json_fini(struct policy_json *pj);

/* The key must outlive the push (jansson's key strings do). */
void policy_json_push_key(struct policy_json *pj, const char *key);
void policy_json_push_index(struct policy_json *pj, size_t index);
void policy_json_pop(struct policy_json *pj);

/* Position of the current value, or of its member name when at_key. */
void policy_json_where(struct policy_json *pj, bool at_key, int *line,
    int *col);
/* Reports at the current path, prefixed "file:line:col: sev: a.b[2]: ". */
void policy_json_report(struct policy_json *pj, enum policy_severity sev,
    bool at_key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *policy_json_type(const json_t *v);

#endif
