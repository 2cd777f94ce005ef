/* sbxctl ps: the daemon's running sessions. */
#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "client/cmd.h"
#include "client/disk.h"

static void
print_json(const Sbx__SessionList *l)
{
	json_t *arr = json_array();
	size_t i, j;

	for (i = 0; i < l->n_sessions; i++) {
		const Sbx__SessionInfo *s = l->sessions[i];
		json_t *o = json_object(), *argv = json_array();

		for (j = 0; j < s->n_argv; j++)
			json_array_append_new(argv, json_string(s->argv[j]));
		json_object_set_new(o, "id", json_integer((json_int_t)s->id));
		json_object_set_new(o, "pid", json_integer(s->pid));
		json_object_set_new(o, "argv", argv);
		json_object_set_new(o, "workspace", json_string(s->workspace));
		json_object_set_new(o, "started_unix_ms",
				    json_integer((json_int_t)s->started_unix_ms));
		json_object_set_new(o, "tty", json_boolean(s->tty));
		json_object_set_new(o, "tmp_used",
				    json_integer((json_int_t)s->tmp_used));
		json_object_set_new(o, "tmp_limit",
				    json_integer((json_int_t)s->tmp_limit));
		json_object_set_new(o, "home_used",
				    json_integer((json_int_t)s->home_used));
		json_object_set_new(o, "home_limit",
				    json_integer((json_int_t)s->home_limit));
		if (s->measured) {
			json_object_set_new(o, "mem_peak_bytes", json_integer(
				(json_int_t)s->mem_peak_bytes));
			json_object_set_new(o, "cpu_us", json_integer(
				(json_int_t)s->cpu_us));
			json_object_set_new(o, "limits",
					    json_string(s->limits));
			json_object_set_new(o, "limit_hit",
					    json_string(s->limit_hit));
		}
		json_object_set_new(o, "sandbox",
				    json_integer((json_int_t)s->sandbox_id));
		json_object_set_new(o, "io", json_string(
			s->io_mode == SBX__IO_MODE__IO_MODE_STREAMING ?
			"streaming" : "fd-passing"));
		json_array_append_new(arr, o);
	}
	json_dumpf(arr, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(arr);
}

static void
print_text(const Sbx__SessionList *l)
{
	time_t now = time(NULL);
	char mem[16], cpu[16];
	size_t i, j;

	printf("%-6s %-8s %-6s %-4s %-8s %-8s %-12s %-12s %-30s %s\n", "ID",
	       "PID", "AGE", "TTY", "MEMPEAK", "CPU", "TMP", "HOME",
	       "WORKSPACE", "COMMAND");
	for (i = 0; i < l->n_sessions; i++) {
		const Sbx__SessionInfo *s = l->sessions[i];
		long age = (long)now - (long)(s->started_unix_ms / 1000);
		char tmp[32], home[32];

		disk_text(s->tmp_used, s->tmp_limit, tmp, sizeof(tmp));
		disk_text(s->home_used, s->home_limit, home, sizeof(home));
		snprintf(mem, sizeof(mem), "-");
		snprintf(cpu, sizeof(cpu), "-");
		if (s->measured) {
			snprintf(mem, sizeof(mem), "%.1fM",
				 (double)s->mem_peak_bytes / 1048576.0);
			snprintf(cpu, sizeof(cpu), "%.2fs",
				 (double)s->cpu_us / 1e6);
		}
		printf("%-6llu %-8d %-6ld %-4s %-8s %-8s %-12s %-12s %-30s",
		       (unsigned long long)s->id, s->pid, age < 0 ? 0 : age,
		       s->tty ? "yes" : "no", mem, cpu, tmp, home,
		       s->workspace);
		for (j = 0; j < s->n_argv; j++)
			printf(" %s", s->argv[j]);
		putchar('\n');
		if (s->limits[0])
			printf("       limits: %s\n", s->limits);
		if (s->limit_hit[0])
			printf("       hit: %s\n", s->limit_hit);
	}
}

static int
cmd_ps(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__ListSessions req = SBX__LIST_SESSIONS__INIT;
	struct client c;

	if (argc != 1) {
		client_err("usage: sbxctl %s", cmd_ps_entry.usage);
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	env.msg_case = SBX__ENVELOPE__MSG_LIST_SESSIONS;
	env.list_sessions = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_SESSION_LIST, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	if (ctx->json)
		print_json(rep->session_list);
	else
		print_text(rep->session_list);
	wire_envelope_free(rep);
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_ps_entry = {
	.name = "ps",
	.usage = "ps [--json]",
	.summary = "List the running sessions: id, pid, age, terminal, the "
		   "workspace's /tmp and home layer (used/limit), workspace, "
		   "command.",
	.fn = cmd_ps,
};
