/* sbxctl status: is the daemon up, what can it enforce, what is degraded. */
#include <jansson.h>
#include <stdio.h>

#include "client/cmd.h"
#include "client/disk.h"

static const char *
mode_name(Sbx__RunMode m)
{
	return m == SBX__RUN_MODE__RUN_MODE_PRIVILEGED ? "privileged" :
	       m == SBX__RUN_MODE__RUN_MODE_LANDLOCK_ONLY ? "landlock-only" :
	       "user";
}

static void
print_json(const Sbx__HelloReply *h, const Sbx__StatusReply *s)
{
	json_t *o = json_object(), *ns = json_array(), *deg = json_array();
	size_t i;

	for (i = 0; i < h->caps->n_namespaces; i++)
		json_array_append_new(ns, json_string(h->caps->namespaces[i]));
	for (i = 0; i < h->caps->n_degraded; i++)
		json_array_append_new(deg, json_string(h->caps->degraded[i]));
	json_object_set_new(o, "version", json_string(h->daemon_version));
	json_object_set_new(o, "pid", json_integer(s->pid));
	json_object_set_new(o, "socket", json_string(s->socket));
	json_object_set_new(o, "uptime_ms", json_integer((json_int_t)s->uptime_ms));
	json_object_set_new(o, "sessions", json_integer(s->sessions));
	json_object_set_new(o, "connections", json_integer(s->connections));
	json_object_set_new(o, "backend", json_string(h->caps->backend));
	json_object_set_new(o, "run_mode", json_string(mode_name(h->caps->run_mode)));
	json_object_set_new(o, "uid", json_integer(h->caps->uid));
	json_object_set_new(o, "landlock_abi", json_integer(h->caps->landlock_abi));
	json_object_set_new(o, "seccomp", json_boolean(h->caps->seccomp));
	json_object_set_new(o, "seccomp_notify",
			    json_boolean(h->caps->seccomp_notify));
	json_object_set_new(o, "landlock_audit",
			    json_boolean(h->caps->landlock_audit));
	json_object_set_new(o, "protect_new",
			    json_boolean(h->caps->protect_new));
	json_object_set_new(o, "namespaces", ns);
	json_object_set_new(o, "templates", json_integer(s->templates));
	json_object_set_new(o, "cgroups", json_string(s->cgroups));
	json_object_set_new(o, "cgroups_off", json_string(s->cgroups_off));
	json_object_set_new(o, "limits", json_string(s->limits));
	{
		json_t *pp = json_array();

		for (i = 0; i < s->n_policy_problems; i++)
			json_array_append_new(pp,
					      json_string(s->policy_problems[i]));
		json_object_set_new(o, "policy_problems", pp);
	}
	{
		json_t *dd = json_array();

		for (i = 0; i < s->n_disks; i++) {
			const Sbx__WorkspaceDisk *d = s->disks[i];

			json_array_append_new(dd, json_pack("{s:s, s:I, s:I, "
				"s:I, s:I, s:i}", "workspace", d->workspace,
				"tmp_used", (json_int_t)d->tmp_used,
				"tmp_limit", (json_int_t)d->tmp_limit,
				"home_used", (json_int_t)d->home_used,
				"home_limit", (json_int_t)d->home_limit,
				"sessions", (int)d->sessions));
		}
		json_object_set_new(o, "disks", dd);
		json_object_set_new(o, "home_quota",
				    json_string(s->home_quota));
	}
	json_object_set_new(o, "degraded", deg);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static void
print_text(const Sbx__HelloReply *h, const Sbx__StatusReply *s)
{
	size_t i;

	printf("sbxd %s, pid %d, %s mode, serving uid %u\n", h->daemon_version,
	       s->pid, mode_name(h->caps->run_mode), h->caps->uid);
	printf("socket:     %s\n", s->socket);
	printf("uptime:     %.1f s\n", (double)s->uptime_ms / 1000.0);
	printf("sessions:   %u running, %u connections\n", s->sessions,
	       s->connections);
	printf("backend:    %s, Landlock ABI %d, seccomp %s%s\n",
	       h->caps->backend, h->caps->landlock_abi,
	       h->caps->seccomp ? "yes" : "no",
	       h->caps->seccomp_notify ? " (user notification)" : "");
	if (h->caps->run_mode != SBX__RUN_MODE__RUN_MODE_LANDLOCK_ONLY)
		printf("protected:  existing paths read-only%s\n",
		       h->caps->protect_new ?
		       "; new ones refused (supervisor)" : "");
	else
		printf("protected:  %s\n", h->caps->protect_new ?
		       "existing and new ones refused (supervisor; no "
		       "read-only mounts)" :
		       "NOT guarded inside the workspace (no supervisor)");
	printf("violations: proxy%s%s\n", h->caps->seccomp_notify ?
	       ", seccomp" : "", h->caps->landlock_audit ?
	       ", Landlock audit (filesystem, signals)" : "");
	printf("namespaces:");
	for (i = 0; i < h->caps->n_namespaces; i++)
		printf(" %s", h->caps->namespaces[i]);
	printf("%s\n", h->caps->n_namespaces ? "" : " none");
	/* Where nothing bounds them, the reason and the fix are in the
	 * degraded lines. */
	if (s->cgroups[0])
		printf("limits:     %s per sandbox, by %s\n", s->limits,
		       s->cgroups);
	else
		printf("limits:     none (no cgroups; see degraded)\n");
	for (i = 0; i < h->caps->n_degraded; i++)
		printf("degraded:   %s\n", h->caps->degraded[i]);
	printf("templates:  %u held\n", s->templates);
	for (i = 0; i < s->n_policy_problems; i++)
		printf("policy:     %s\n", s->policy_problems[i]);
	for (i = 0; i < s->n_disks; i++) {
		char tmp[32], home[32];

		disk_text(s->disks[i]->tmp_used, s->disks[i]->tmp_limit, tmp,
			  sizeof(tmp));
		disk_text(s->disks[i]->home_used, s->disks[i]->home_limit,
			  home, sizeof(home));
		printf("workspace:  %s: /tmp %s, home %s, %u session%s\n",
		       s->disks[i]->workspace, tmp, home,
		       s->disks[i]->sessions,
		       s->disks[i]->sessions == 1 ? "" : "s");
	}
	if (s->home_quota && *s->home_quota)
		printf("home quota: %s\n", s->home_quota);
}

static int
cmd_status(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__StatusRequest req = SBX__STATUS_REQUEST__INIT;
	struct client c;

	if (argc != 1) {
		client_err("usage: sbxctl %s", cmd_status_entry.usage);
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	env.msg_case = SBX__ENVELOPE__MSG_STATUS;
	env.status = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_STATUS_REPLY, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	if (ctx->json)
		print_json(c.hello->hello_reply, rep->status_reply);
	else
		print_text(c.hello->hello_reply, rep->status_reply);
	wire_envelope_free(rep);
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_status_entry = {
	.name = "status",
	.usage = "status [--json]",
	.summary = "Show the daemon: version, pid, run mode, kernel features in use, "
		   "what is degraded, policy files that fail.",
	.fn = cmd_status,
};
