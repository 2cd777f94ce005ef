/* Diagnostics the pure policy modules hand back instead of logging. */
#ifndef SBX_POLICY_DIAG_H
#define SBX_POLICY_DIAG_H

#include <stdarg.h>
#include <stddef.h>

enum policy_severity {
	POLICY_NOTE,
	POLICY_WARNING,
	POLICY_ERROR
};

/* One finished message, "file:line:col: severity: text"; msg is owned. */
struct policy_diag {
	enum policy_severity severity;
	char *msg;
};

/*
 * An accumulator the caller owns and frees with policy_diag_free(); start it
 * zeroed. Only the first POLICY_DIAG_MAX messages are kept (a hostile file
 * must not make us allocate without bound) but every error is counted.
 */
#define POLICY_DIAG_MAX 200
struct policy_diags {
	struct policy_diag *v;
	size_t n, cap;
	size_t errors;
	size_t warnings;
};

int policy_diag_add(struct policy_diags *d, enum policy_severity sev,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int policy_diag_vadd(struct policy_diags *d, enum policy_severity sev,
    const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
const char *policy_diag_severity_name(enum policy_severity sev);
/* The first error kept, or NULL (none, or only counted past the cap). */
const char *policy_diag_first_error(const struct policy_diags *d);
void policy_diag_free(struct policy_diags *d);

#endif
