/* A command's report for the agent: text first (what a model reads), the
 * same as structuredContent for a harness that parses. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/mcp-result.h"
#include "proto/blocked.h"

/* A JSON string of s, whatever bytes it holds (the daemon's lines name
 * paths, which need not be UTF-8). */
static json_t *
text_of(const char *s)
{
	size_t len;
	char *t = mcp_utf8(s, strlen(s), &len);
	json_t *j = t ? json_stringn(t, len) : NULL;

	free(t);
	return j;
}

/* Appends "--- NAME ---\n" and the stream's text; its text is set in o. */
static int
stream(FILE *f, json_t *o, const char *name, const struct mcp_capture *c)
{
	char key[32];
	size_t len;
	char *t = mcp_capture_text(c, name, &len);

	if (!t)
		return -1;
	json_object_set_new(o, name, json_stringn(t, len));
	snprintf(key, sizeof(key), "%sCut", name);
	json_object_set_new(o, key, json_integer((json_int_t)mcp_capture_cut(c)));
	if (len) {
		fprintf(f, "--- %s ---\n", name);
		fwrite(t, 1, len, f);
		if (t[len - 1] != '\n')
			fputc('\n', f);
	}
	free(t);
	return 0;
}

/* The sandbox's summary lines of es, then our notes. */
static void
lines(FILE *f, json_t *o, const struct mcp_report *r)
{
	json_t *arr = json_array();
	char **own = NULL;
	size_t i, n = 0;
	const Sbx__ExitStatus *es = r->es;

	/* A daemon without summary-lines: rendered here the same way. */
	if (es && !es->n_summary_lines &&
	    blocked_summary_lines(es, &own, &n) == 0)
		for (i = 0; i < n; i++)
			json_array_append_new(arr, text_of(own[i]));
	for (i = 0; es && i < es->n_summary_lines; i++)
		json_array_append_new(arr, text_of(es->summary_lines[i]));
	for (i = 0; i < r->nnotes; i++)
		json_array_append_new(arr, text_of(r->notes[i]));
	blocked_lines_free(own, n);
	for (i = 0; i < json_array_size(arr); i++)
		fprintf(f, "%s\n", json_string_value(json_array_get(arr, i)));
	json_object_set_new(o, "sandbox", arr);
}

/* The state line: running, or how it ended. */
static void
state(FILE *f, json_t *o, const struct mcp_report *r)
{
	const Sbx__ExitStatus *es = r->es;

	if (r->id)
		fprintf(f, "[id %llu] ", (unsigned long long)r->id);
	if (r->pid)
		json_object_set_new(o, "pid", json_integer(r->pid));
	if (r->error) {
		fprintf(f, "sbx could not run it: %s\n", r->error);
		json_object_set_new(o, "error", text_of(r->error));
		return;
	}
	json_object_set_new(o, "running", json_boolean(!es));
	if (!es) {
		fprintf(f, "running%s\n", r->pid ? "" : " (starting)");
		return;
	}
	if (es->exec_error && es->exec_error[0]) {
		fprintf(f, "could not start: %s\n", es->exec_error);
		json_object_set_new(o, "execError", text_of(es->exec_error));
	}
	json_object_set_new(o, "exitCode", json_integer(blocked_exit_code(es)));
	if (es->exited)
		fprintf(f, "exit code %d", blocked_exit_code(es));
	else {
		fprintf(f, "killed by signal %d", es->signal);
		json_object_set_new(o, "signal", json_integer(es->signal));
	}
	if (es->timed_out)
		fputs(" (timed out)", f);
	json_object_set_new(o, "timedOut", json_boolean(es->timed_out));
	if (es->limit_hit && es->limit_hit[0])
		fprintf(f, " (limit hit: %s)", es->limit_hit);
	fputc('\n', f);
}

json_t *
mcp_result_report(const struct mcp_report *r)
{
	json_t *o = json_object(), *res;
	char *text = NULL, *clean;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool failed = r->error || (r->es && r->es->exec_error &&
				   r->es->exec_error[0]);

	if (!f || !o) {
		if (f)
			fclose(f);
		free(text);
		json_decref(o);
		return NULL;
	}
	if (r->id)
		json_object_set_new(o, "id", json_integer((json_int_t)r->id));
	state(f, o, r);
	if (stream(f, o, "stdout", r->out) < 0 ||
	    stream(f, o, "stderr", r->err) < 0) {
		fclose(f);
		free(text);
		json_decref(o);
		return NULL;
	}
	lines(f, o, r);
	if (fclose(f) != 0) {
		free(text);
		json_decref(o);
		return NULL;
	}
	clean = mcp_utf8(text, len, &len);
	free(text);
	if (!clean) {
		json_decref(o);
		return NULL;
	}
	res = json_pack("{s:[{s:s,s:s%}],s:o,s:b}", "content", "type", "text",
			"text", clean, len, "structuredContent", o, "isError",
			failed);
	free(clean);
	return res;
}
