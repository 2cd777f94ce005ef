/* Violation events as sbxctl prints them: JSON, and the block after a run
 * (the daemon's words when it sends them, proto/blocked.c's otherwise). */
#include <stdio.h>
#include <string.h>

#include "client/blocked.h"

static const char *
str(const char *s)
{
	return s ? s : "";
}

json_t *
blocked_json(const Sbx__ViolationEvent *ev)
{
	json_t *j = json_object();
	char text[2048];

	blocked_text(ev, text, sizeof(text));
	json_object_set_new(j, "session",
			    json_integer((json_int_t)ev->session_id));
	if (ev->time_unix_ms)
		json_object_set_new(j, "time_unix_ms",
				    json_integer((json_int_t)ev->time_unix_ms));
	json_object_set_new(j, "kind", json_string(str(ev->kind)));
	json_object_set_new(j, "target", json_string(str(ev->target)));
	json_object_set_new(j, "operation", json_string(str(ev->operation)));
	json_object_set_new(j, "rule", json_string(str(ev->rule)));
	json_object_set_new(j, "rule_id", json_string(str(ev->rule_id)));
	json_object_set_new(j, "layer", json_string(str(ev->layer)));
	json_object_set_new(j, "file", json_string(str(ev->file)));
	json_object_set_new(j, "remediation",
			    json_string(str(ev->remediation)));
	json_object_set_new(j, "detail", json_string(str(ev->detail)));
	if (ev->suppressed)
		json_object_set_new(j, "suppressed",
				    json_integer(ev->suppressed));
	if (ev->count)
		json_object_set_new(j, "count", json_integer(ev->count));
	if (ev->expected)
		json_object_set_new(j, "expected", json_true());
	json_object_set_new(j, "text", json_string(text));
	return j;
}

static void
summary_json(FILE *out, const Sbx__ExitStatus *es, const char *note)
{
	json_t *j = json_object(), *groups = json_array(), *w = json_array();
	json_t *d = json_array();
	size_t i;

	for (i = 0; i < es->n_violation_groups; i++)
		json_array_append_new(groups,
				      blocked_json(es->violation_groups[i]));
	for (i = 0; i < es->n_writable; i++)
		json_array_append_new(w, json_string(es->writable[i]));
	json_object_set_new(j, "violations", json_integer(es->violations));
	json_object_set_new(j, "suppressed",
			    json_integer(es->violations_suppressed));
	json_object_set_new(j, "ungrouped",
			    json_integer(es->violations_ungrouped));
	json_object_set_new(j, "groups", groups);
	json_object_set_new(j, "fs_unobserved",
			    json_boolean(es->fs_unobserved));
	json_object_set_new(j, "writable", w);
	w = json_array();
	for (i = 0; i < es->n_env_withheld; i++)
		json_array_append_new(w, json_string(es->env_withheld[i]));
	json_object_set_new(j, "env_withheld", w);
	json_object_set_new(j, "direct_net", json_integer(es->direct_net));
	for (i = 0; i < es->n_diverted; i++)
		json_array_append_new(d, json_string(es->diverted[i]));
	json_object_set_new(j, "diverted", d);
	json_object_set_new(j, "diverted_more",
			    json_integer(es->diverted_more));
	json_object_set_new(j, "left_unchanged",
			    json_boolean(blocked_left_unchanged(es)));
	json_object_set_new(j, "note", note[0] ? json_string(note) :
						 json_null());
	json_dumpf(j, out, JSON_COMPACT);
	fputc('\n', out);
	json_decref(j);
}

void
blocked_summary(FILE *out, const Sbx__ExitStatus *es, int code, bool json)
{
	char note[2048];
	size_t i;

	if (json) {
		blocked_note(es, es->exited && es->code == 0 ? 0 : code, note,
			     sizeof(note));
		summary_json(out, es, note);
		return;
	}
	/* The daemon's lines are what every client shows. */
	if (es->n_summary_lines) {
		for (i = 0; i < es->n_summary_lines; i++) {
			const unsigned char *p;

			/* Terminals read what the daemon sends. */
			for (p = (const unsigned char *)es->summary_lines[i];
			     *p; p++)
				fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, out);
			fputc('\n', out);
		}
		fflush(out);
		return;
	}
	blocked_summary_text(out, es, code);
}
