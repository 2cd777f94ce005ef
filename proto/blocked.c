/* Violation events in words: the line for one, and the block after a run
 * with its honest note on what sbx cannot see. Pure: the daemon renders
 * the block into ExitStatus.summary_lines, so every client shows the same
 * text, and sbxctl renders it itself for a daemon that does not. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/blocked.h"

static const char *
str(const char *s)
{
	return s ? s : "";
}

void
blocked_scrub(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Landlock's filesystem rights as words (the path is the directory for
 * creations and removals). */
static const char *
fs_verb(const char *op)
{
	static const char *const map[][2] = {
		{ "make_reg", "create file in" },
		{ "make_dir", "create directory in" },
		{ "make_sym", "create symlink in" },
		{ "make_sock", "create socket in" },
		{ "make_fifo", "create fifo in" },
		{ "make_char", "create device in" },
		{ "make_block", "create device in" },
		{ "remove_file", "remove file in" },
		{ "remove_dir", "remove directory in" },
		{ "refer", "move or link into" },
		{ "truncate", "truncate" },
		{ "ioctl_dev", "ioctl on" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(op, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The verb of "blocked VERB TARGET". */
static const char *
verb(const char *kind, const char *op)
{
	const char *fs = strncmp(kind, "fs-", 3) ? NULL : fs_verb(op);

	if (fs)
		return fs;
	static const char *const map[][2] = {
		{ "fs-read", "read" },     { "fs-write", "write" },
		{ "fs-create", "create" }, { "network", "network" },
		{ "syscall", "syscall" },  { "ipc", "ipc" },
		{ "signal", "signal" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(kind, map[i][0]))
			return map[i][1];
	return kind[0] ? kind : "access";
}

struct out {
	char *buf;
	size_t size, n;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(o->buf + o->n, o->n < o->size ? o->size - o->n : 0, fmt,
		      ap);
	va_end(ap);
	o->n += w > 0 ? (size_t)w : 0;
}

/* The line put so far, cut to the buffer, ended and scrubbed; its
 * length. */
static size_t
done(struct out *o)
{
	if (o->n >= o->size)
		o->n = o->size - 1;
	o->buf[o->n] = '\0';
	blocked_scrub(o->buf);
	return o->n;
}

/* "(WHY; LAYER policy FILE, rule ID)": what denied and where it is
 * written; sbx's own checks and builtin rules name themselves. */
static void
origin(struct out *o, const Sbx__ViolationEvent *ev)
{
	const char *layer = str(ev->layer), *file = str(ev->file);
	const char *rule = str(ev->rule), *id = str(ev->rule_id);

	put(o, " (");
	if (ev->detail && ev->detail[0])
		put(o, "%s; ", ev->detail);
	if (layer[0] && (file[0] || strcmp(layer, "builtin")))
		put(o, "%s policy%s%s, rule %s", layer, file[0] ? " " : "",
		    file, id[0] ? id : rule);
	else
		put(o, "%s%s%s", rule[0] ? rule : "sbx",
		    id[0] ? ", rule " : "", id);
	put(o, ")");
}

size_t
blocked_text(const Sbx__ViolationEvent *ev, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (size == 0)
		return 0;
	if (ev->suppressed)
		put(&o, "%u more violation%s suppressed (rate limit); the "
		    "last: ", ev->suppressed, ev->suppressed == 1 ? "" : "s");
	put(&o, "blocked %s %s", verb(str(ev->kind), str(ev->operation)),
	    str(ev->target));
	origin(&o, ev);
	if (ev->remediation && ev->remediation[0])
		put(&o, " \u2014 %s", ev->remediation);
	if (ev->count > 1)
		put(&o, " (%u times)", ev->count);
	/* The event stream shows it; the summary after a run leaves it
	 * out. */
	if (ev->expected)
		put(&o, " [expected: a probe the program goes on without]");
	return done(&o);
}

/* A write outside the writable paths was refused (and seen). */
static bool
write_refused(const Sbx__ExitStatus *es)
{
	size_t i;

	for (i = 0; i < es->n_violation_groups; i++) {
		const Sbx__ViolationEvent *g = es->violation_groups[i];

		if (!strncmp(str(g->kind), "fs-", 3) &&
		    strcmp(str(g->kind), "fs-read") &&
		    !strcmp(str(g->rule), "filesystem.allowWrite"))
			return true;
	}
	return false;
}

size_t
blocked_note(const Sbx__ExitStatus *es, int code, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	size_t i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	/* Said only of a refusal that happened, never as a guess. */
	if (code == 0 || (es->exec_error && es->exec_error[0]) ||
	    !write_refused(es))
		return 0;
	put(&o, "the command failed (exit %d) after a write outside the "
	    "writable paths was refused; they are:", code);
	for (i = 0; i < es->n_writable; i++)
		put(&o, "%s %s", i ? "," : "", es->writable[i]);
	return done(&o);
}

size_t
blocked_direct(const Sbx__ExitStatus *es, char *buf, size_t size)
{
	int n;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (!es->direct_net)
		return 0;
	n = snprintf(buf, size, "a program tried to reach the network "
		     "directly (%u time%s: a name lookup or a connection), and "
		     "the sandbox has no direct network: programs must use "
		     "the proxy (HTTP_PROXY and HTTPS_PROXY are set in the "
		     "sandbox); some ignore them (Node's built-in fetch, ssh)",
		     es->direct_net, es->direct_net == 1 ? "" : "s");
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t
blocked_withheld(const Sbx__ExitStatus *es, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	size_t i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (!es->n_env_withheld)
		return 0;
	put(&o, "withheld from the command's environment (secrets):");
	for (i = 0; i < es->n_env_withheld; i++)
		put(&o, "%s %s", i ? "," : "", es->env_withheld[i]);
	put(&o, " \u2014 `sbxctl policy explain env:NAME` says why; the user "
	    "passes one with env.pass or `sbxctl run -e NAME=value`");
	return done(&o);
}

/* Where UDP is refused (no network namespace), getaddrinfo's UDP sockets:
 * one per address it sorts, which it goes on without, and the resolver's
 * (SOCK_NONBLOCK), whose refusal may be why a command failed. After a
 * command that succeeded such a group is noise that would teach readers
 * to skip these lines. (It stays in the JSON and the event stream.) */
static bool
probe_only(const Sbx__ViolationEvent *g)
{
	const char *t = str(g->target);

	return !strcmp(str(g->rule_id), "seccomp.ip-socket") &&
	       !strncmp(t, "socket(AF_INET", 14) && strstr(t, "SOCK_DGRAM");
}

bool
blocked_left_unchanged(const Sbx__ExitStatus *es)
{
	const Sbx__ViolationEvent *g;
	size_t i;

	for (i = 0; i < es->n_violation_groups; i++) {
		g = es->violation_groups[i];
		if (!strcmp(str(g->kind), "fs-write") &&
		    (!strcmp(str(g->operation), "write") ||
		     !strcmp(str(g->operation), "remove")))
			return true;
	}
	return false;
}

void
blocked_summary_text(FILE *out, const Sbx__ExitStatus *es, int code)
{
	char line[2048], note[2048];
	size_t i;

	/* The note is about the command's failure, not the one run adds. */
	blocked_note(es, es->exited && es->code == 0 ? 0 : code, note,
		     sizeof(note));
	for (i = 0; i < es->n_violation_groups; i++) {
		/* Expected refusals (libc's nscd probe) explain nothing. */
		if (es->violation_groups[i]->expected ||
		    (code == 0 && probe_only(es->violation_groups[i])))
			continue;
		blocked_text(es->violation_groups[i], line, sizeof(line));
		fprintf(out, "sbx: %s\n", line);
	}
	if (es->violations_ungrouped) {
		fprintf(out, "sbx: and %u more violation%s (not listed)\n",
			es->violations_ungrouped,
			es->violations_ungrouped == 1 ? "" : "s");
	}
	if (note[0])
		fprintf(out, "sbx: %s\n", note);
	/* Node's fetch, ssh and the like resolve names themselves and fail
	 * with "Temporary failure in name resolution" (EAI_AGAIN) and no
	 * word of the proxy. */
	if (code != 0 && es->direct_net) {
		blocked_direct(es, line, sizeof(line));
		fprintf(out, "sbx: %s\n", line);
	}
	/* A missing variable can explain a failure; a success needs no
	 * word about it. */
	if (code != 0 && es->n_env_withheld) {
		blocked_withheld(es, line, sizeof(line));
		fprintf(out, "sbx: %s\n", line);
	}
	if (es->n_diverted) {
		fprintf(out, "sbx: written to the workspace's home layer, not "
			"to the home (sbxctl reset discards them):");
		for (i = 0; i < es->n_diverted; i++) {
			snprintf(line, sizeof(line), "%s", es->diverted[i]);
			blocked_scrub(line);
			fprintf(out, "%s %s", i ? "," : "", line);
		}
		if (es->diverted_more)
			fprintf(out, " and %u more", es->diverted_more);
		fputc('\n', out);
	}
	if (es->exited && es->code == 0 && code != 0)
		fprintf(out, "sbx: the command exited 0, but a write it made "
			"to a protected file was refused and left the file "
			"as it was: exit status %d\n", code);
	fflush(out);
}

int
blocked_exit_code(const Sbx__ExitStatus *es)
{
	/* Success would hide a change the sandbox refused. */
	if (es->exited && es->code == 0 && blocked_left_unchanged(es))
		return 1;
	if (es->exited)
		return es->code;
	return 128 + es->signal;
}

int
blocked_summary_lines(const Sbx__ExitStatus *es, char ***linesp,
		      size_t *np)
{
	char *text = NULL, **lines = NULL, *p, *nl;
	size_t len = 0, n = 0, cap = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		return -ENOMEM;
	blocked_summary_text(f, es, blocked_exit_code(es));
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	for (p = text; *p; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
		if (n == cap) {
			char **g = realloc(lines, (cap = cap ? 2 * cap : 4) *
					   sizeof(*lines));

			if (g == NULL)
				goto nomem;
			lines = g;
		}
		if ((lines[n] = strdup(p)) == NULL)
			goto nomem;
		n++;
	}
	free(text);
	*linesp = lines;
	*np = n;
	return 0;
nomem:
	blocked_lines_free(lines, n);
	free(text);
	return -ENOMEM;
}

void
blocked_lines_free(char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}
