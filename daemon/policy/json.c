/* Tracks the parser's JSON path and turns it into file:line:col diagnostics. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/json.h"

int
policy_json_init(struct policy_json *pj, const struct policy_ctx *ctx,
    struct policy_diags *diags, const char *buf, size_t len)
{
	memset(pj, 0, sizeof(*pj));
	pj->ctx = ctx;
	pj->diags = diags;
	if ((pj->ids = json_object()) == NULL)
		return -ENOMEM;
	return policy_loc_build(&pj->loc, buf, len);
}

void
policy_json_fini(struct policy_json *pj)
{
	policy_loc_free(&pj->loc);
	json_decref(pj->ids);
	pj->ids = NULL;
}

/* Past the depth limit steps are counted but not stored: pop must match. */
void
policy_json_push_key(struct policy_json *pj, const char *key)
{
	if (pj->depth < POLICY_JSON_DEPTH)
		pj->path[pj->depth] = (struct policy_loc_step){ key, 0 };
	pj->depth++;
}

void
policy_json_push_index(struct policy_json *pj, size_t index)
{
	if (pj->depth < POLICY_JSON_DEPTH)
		pj->path[pj->depth] = (struct policy_loc_step){ NULL, index };
	pj->depth++;
}

void
policy_json_pop(struct policy_json *pj)
{
	if (pj->depth > 0)
		pj->depth--;
}

void
policy_json_where(struct policy_json *pj, bool at_key, int *line, int *col)
{
	const struct policy_loc_entry *e = NULL;
	size_t d = pj->depth;

	if (d > POLICY_JSON_DEPTH)
		d = POLICY_JSON_DEPTH;
	/* Fall back to the nearest recorded ancestor, never to nothing. */
	for (; e == NULL; d--) {
		e = policy_loc_find(&pj->loc, pj->path, d);
		if (d == 0)
			break;
	}
	if (e == NULL) {
		*line = *col = 1;
	} else if (at_key) {
		*line = e->kline;
		*col = e->kcol;
	} else {
		*line = e->line;
		*col = e->col;
	}
}

/* "network.allowedDomains[2]", cut short: keys come from the file. */
static void
json_path_str(const struct policy_json *pj, char *buf, size_t len)
{
	size_t i, n = 0, d = pj->depth;
	int w;

	buf[0] = '\0';
	if (d > POLICY_JSON_DEPTH)
		d = POLICY_JSON_DEPTH;
	for (i = 0; i < d && n < len; i++) {
		if (pj->path[i].key != NULL)
			w = snprintf(buf + n, len - n, "%s%.64s",
			    i ? "." : "", pj->path[i].key);
		else
			w = snprintf(buf + n, len - n, "[%zu]",
			    pj->path[i].index);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void
policy_json_report(struct policy_json *pj, enum policy_severity sev,
    bool at_key, const char *fmt, ...)
{
	char path[256], text[512];
	va_list ap;
	int line, col, r;

	policy_json_where(pj, at_key, &line, &col);
	json_path_str(pj, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	r = policy_diag_add(pj->diags, sev, "%s:%d:%d: %s: %s%s%s",
	    pj->ctx->file, line, col, policy_diag_severity_name(sev), path,
	    path[0] ? ": " : "", text);
	if (r < 0 && pj->err == 0)
		pj->err = r;
}

const char *
policy_json_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "?";
}
