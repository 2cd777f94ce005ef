/* Collects policy diagnostics for the caller to log once. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/policy/diag.h"

int
policy_diag_vadd(struct policy_diags *d, enum policy_severity sev,
    const char *fmt, va_list ap)
{
	struct policy_diag *nv;
	va_list ap2;
	char *msg;
	size_t cap;
	int len;

	if (sev == POLICY_ERROR)
		d->errors++;
	else if (sev == POLICY_WARNING)
		d->warnings++;
	if (d->n >= POLICY_DIAG_MAX)
		return 0;
	if (d->n == d->cap) {
		cap = d->cap ? d->cap * 2 : 8;
		nv = realloc(d->v, cap * sizeof(*nv));
		if (nv == NULL)
			return -ENOMEM;
		d->v = nv;
		d->cap = cap;
	}
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0 || (msg = malloc((size_t)len + 1)) == NULL)
		return -ENOMEM;
	vsnprintf(msg, (size_t)len + 1, fmt, ap);
	d->v[d->n].severity = sev;
	d->v[d->n].msg = msg;
	d->n++;
	return 0;
}

int
policy_diag_add(struct policy_diags *d, enum policy_severity sev,
    const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = policy_diag_vadd(d, sev, fmt, ap);
	va_end(ap);
	return r;
}

const char *
policy_diag_severity_name(enum policy_severity sev)
{
	switch (sev) {
	case POLICY_NOTE:
		return "note";
	case POLICY_WARNING:
		return "warning";
	case POLICY_ERROR:
		return "error";
	}
	return "?";
}

const char *
policy_diag_first_error(const struct policy_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == POLICY_ERROR)
			return d->v[i].msg;
	return NULL;
}

void
policy_diag_free(struct policy_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = d->errors = d->warnings = 0;
}
