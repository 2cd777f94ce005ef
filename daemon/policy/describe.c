/* Effective policy -> what an agent needs to know before it runs commands:
 * where it may write, what it cannot read, which hosts it reaches, what is
 * always protected, and how to ask for more. Written so a model stops
 * retrying a command the sandbox refuses. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/reqrule.h"
#include "daemon/policy/describe.h"
#include "daemon/policy/size.h"

static json_t *
strings(const struct fsplan_list *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->n; i++)
		json_array_append_new(a, json_string(l->v[i]));
	return a;
}

static json_t *
rule_values(const struct policy_rules *r)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < r->n; i++)
		json_array_append_new(a, json_string(r->v[i].value));
	return a;
}

static const char *
unknown_hosts(const struct policy *p)
{
	return p->settings[POLICY_UNKNOWN_HOSTS].value == POLICY_HOSTS_ASK ?
		       "ask" : "deny";
}

static void
list_line(FILE *f, const char *head, const char *const *v, size_t n,
	  size_t max)
{
	size_t i;

	fputs(head, f);
	for (i = 0; i < n && i < max; i++)
		fprintf(f, "%s%s", i ? ", " : " ", v[i]);
	if (n > max)
		fprintf(f, ", and %zu more", n - max);
	if (n == 0)
		fputs(" none", f);
	fputs("\n", f);
}

static void
rules_line(FILE *f, const char *head, const struct policy_rules *r,
	   size_t max)
{
	const char *v[64];
	size_t i;

	/* Globs "anywhere" (a leading slash-star-star-slash) read better
	 * without it. */
	for (i = 0; i < r->n && i < 64; i++)
		v[i] = strncmp(r->v[i].value, "/**/", 4) ? r->v[i].value :
							    r->v[i].value + 4;
	list_line(f, head, v, r->n, max);
}

static json_t *
name_array(char *const *v)
{
	json_t *a = json_array();

	while (a && v && *v)
		json_array_append_new(a, json_string(*v++));
	return a;
}

static size_t
names(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

static void
unix_line(FILE *f, const struct fsplan *fs, const struct describe_ctx *c)
{
	const struct fsplan_list *l = &fs->l[FSPLAN_UNIX_SOCKETS];

	if (!c->unix_sockets) {
		fputs("- Unix sockets: refused (this host cannot keep them to "
		      "the sandbox: it needs a network namespace and seccomp "
		      "user notification); socketpair works.\n", f);
		return;
	}
	fputs("- Unix sockets: stream and seqpacket sockets in the writable "
	      "paths, /tmp and abstract names work; datagram ones are "
	      "refused. ", f);
	if (l->n == 1 && !strcmp(l->v[0], "/"))
		fputs("Sockets outside the sandbox: all allowed "
		      "(allowAllUnixSockets).\n", f);
	else
		list_line(f, "Sockets outside the sandbox allowed:",
			  (const char *const *)l->v, l->n, 12);
}

/* Resource limits, so an agent sizes its parallel jobs to them. */
static void
limits_line(FILE *f, const struct policy *p, const struct describe_ctx *c)
{
	const struct policy_origin *o;
	char v[POLICY_NLIMITS][32];
	int i;

	if (!c->limits_enforced)
		return;
	for (i = 0; i < POLICY_NLIMITS; i++)
		policy_limit_format(i, policy_limit_resolve(p, i, &c->limits,
				    &o), v[i], sizeof(v[i]));
	fprintf(f, "- Resources: at most %s processes and threads, %s of "
		"memory (beyond it the whole sandbox is killed), CPU %s "
		"(other programs have 100): keep parallel jobs within "
		"them.\n", v[POLICY_LIMIT_PIDS], v[POLICY_LIMIT_MEMORY],
		v[POLICY_LIMIT_CPU]);
}

static json_t *
limits_json(const struct policy *p, const struct describe_ctx *c)
{
	const struct policy_origin *o;

	return json_pack("{s:b, s:I, s:I, s:I}", "enforced",
			 c->limits_enforced, "pids", (json_int_t)
			 policy_limit_resolve(p, POLICY_LIMIT_PIDS, &c->limits,
					      &o), "memory", (json_int_t)
			 policy_limit_resolve(p, POLICY_LIMIT_MEMORY,
					      &c->limits, &o), "cpu",
			 (json_int_t)policy_limit_resolve(p, POLICY_LIMIT_CPU,
							  &c->limits, &o));
}

static void
write_text(FILE *f, const struct policy *p, const struct fsplan *fs,
	   const struct describe_ctx *c)
{
	const struct fsplan_list *w = &fs->l[FSPLAN_WRITE];
	bool ask = !strcmp(unknown_hosts(p), "ask");

	fprintf(f, "Commands run inside an sbx sandbox (%s", c->backend);
	if (c->landlock_abi > 0)
		fprintf(f, ", Landlock ABI %d", c->landlock_abi);
	fprintf(f, "%s).\n", c->seccomp ? ", seccomp" : "");
	list_line(f, "- Writable:", (const char *const *)w->v, w->n, 16);
	if (fsplan_home(fs))
		fprintf(f, "- The home directory (%s) is writable as an "
			"overlay: writes there (tool caches) persist between "
			"commands of this workspace but never reach the real "
			"home; `sbxctl reset` discards them. Protected files "
			"stay read-only.\n", fsplan_home(fs));
	if (!strcmp(c->tmp, "/tmp") && c->tmp_limit) {
		char size[32];

		policy_size_format(c->tmp_limit, size, sizeof(size), 1);
		fprintf(f, "- /tmp and /var/tmp are private to this workspace "
			"and hold at most %s together (writes past it fail "
			"with \"No space left on device\"); they persist "
			"between commands and are emptied %u minutes after "
			"the workspace's last command ends; everything else "
			"is read-only.\n", size, (c->tmp_idle_s + 59) / 60);
	} else if (!strcmp(c->tmp, "/tmp"))
		fputs("- /tmp is private to this workspace and persists "
		      "between commands; everything else is read-only.\n", f);
	else
		fprintf(f, "- The temp dir is %s ($TMPDIR), private to this "
			"workspace; /tmp is the host's; everything else is "
			"read-only.\n", c->tmp);
	list_line(f, "- Unreadable (reads fail with \"Permission denied\"):",
		  (const char *const *)fs->l[FSPLAN_DENY_READ].v,
		  fs->l[FSPLAN_DENY_READ].n, 12);
	list_line(f, "- Also unreadable: files matched by",
		  (const char *const *)fs->l[FSPLAN_IGNORE].v,
		  fs->l[FSPLAN_IGNORE].n, 8);
	if (c->protect_unguarded)
		rules_line(f, "- Must not be written (this host cannot "
			   "enforce it inside the workspace; leave them "
			   "alone):", &p->lists[POLICY_PROTECT], 12);
	else
		rules_line(f, "- Always read-only, even in the workspace "
			   "(at any depth):", &p->lists[POLICY_PROTECT], 12);
	if (!c->no_link_mounts)
		fputs("- Hard links of files outside the writable paths (a "
		      "package store's, as pnpm makes node_modules) are "
		      "read-only and cannot be removed.\n", f);
	else if (!c->protect_unguarded)
		fputs("- Files with several hard links in the writable paths "
		      "cannot be written.\n", f);
	else
		fputs("- Hard links of files outside the writable paths (a "
		      "package store's) are writable here, and a write "
		      "changes the file outside too: do not write them.\n",
		      f);
	if (c->no_network) {
		fputs("- Network: none (this host can confine it neither by "
		      "a network namespace nor by Landlock TCP rules): IP "
		      "sockets fail.\n", f);
	} else {
		rules_line(f, c->captured ? "- Network: through the sandbox's "
			   "proxy, whether a program uses HTTP_PROXY/ALL_PROXY "
			   "or not (every TCP connection and name lookup is "
			   "captured; other UDP is refused). Allowed hosts:" :
			   "- Network: only through the sandbox's proxy "
			   "(HTTP_PROXY/ALL_PROXY are set; a program that "
			   "ignores them gets no network: no transparent "
			   "capture here). Allowed hosts:",
			   &p->lists[POLICY_ALLOWED_DOMAINS], 20);
		rules_line(f, "- Denied hosts:",
			   &p->lists[POLICY_DENIED_DOMAINS], 12);
		fprintf(f, "- Other hosts: %s\n", ask ?
			"the user is asked to approve; the command waits for "
			"the answer" : "refused");
		policy_reqrule_describe(f, p);
	}
	if (p->lists[POLICY_HOST_SERVICES].n > 0)
		rules_line(f, c->host_network || c->no_network ?
			   "- Host services (network.hostServices) are NOT "
			   "reachable here (no network namespace):" :
			   "- Host services reachable at the same address "
			   "(connect directly, not through the proxy):",
			   &p->lists[POLICY_HOST_SERVICES], 12);
	if (c->host_network)
		fputs("- No UDP and no listening sockets (this host gives the "
		      "sandbox no network namespace): do not start servers; "
		      "only TCP through the proxy works.\n", f);
	if (c->env_withheld && c->env_withheld[0])
		list_line(f, "- Withheld from the environment (secrets; "
			  "`sbxctl policy explain env:NAME` says why):",
			  (const char *const *)c->env_withheld,
			  names(c->env_withheld), 24);
	unix_line(f, fs, c);
	fprintf(f, "- %s; no new privileges, no mounts.\n", c->ptrace &&
		!fs->no_ptrace ? "Debuggers (ptrace) work on the sandbox's "
		"own processes, not on others" : "Debuggers: no ptrace");
	limits_line(f, p, c);
	fputs("When a command fails because of the sandbox, sbx prints a line "
	      "starting with \"sbx: blocked\" that names the rule. Do not "
	      "retry it unchanged: work inside the writable paths, or ask "
	      "the user to allow it (a policy change or an approval).\n", f);
}

int
describe_build(const struct policy *p, const struct fsplan *fs,
	       const struct describe_ctx *c, char **text, json_t **json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	if (!f)
		return -ENOMEM;
	write_text(f, p, fs, c);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	o = json_pack("{s:s, s:s, s:i, s:b, s:o, s:s, s:s?, s:o, s:o, s:o, "
		      "s:o, s:o, s:s, s:s, s:o, s:b, s:b, s:s, s:o, s:o}",
		      "workspace", c->workspace, "backend", c->backend,
		      "landlock_abi", c->landlock_abi, "seccomp", c->seccomp,
		      "writable", strings(&fs->l[FSPLAN_WRITE]),
		      "tmp", c->tmp,
		      "home_overlay", fsplan_home(fs),
		      "unreadable", strings(&fs->l[FSPLAN_DENY_READ]),
		      "ignore_files", strings(&fs->l[FSPLAN_IGNORE]),
		      "protected", rule_values(&p->lists[POLICY_PROTECT]),
		      "allowed_hosts",
		      rule_values(&p->lists[POLICY_ALLOWED_DOMAINS]),
		      "denied_hosts",
		      rule_values(&p->lists[POLICY_DENIED_DOMAINS]),
		      "unknown_hosts", unknown_hosts(p),
		      "unix_sockets", c->unix_sockets ? "sandbox" : "refused",
		      "allowed_unix_sockets",
		      c->unix_sockets ? strings(&fs->l[FSPLAN_UNIX_SOCKETS]) :
				   json_array(),
		      "ptrace", c->ptrace && !fs->no_ptrace,
		      "local_servers", !c->host_network && !c->no_network,
		      "outside_links", !c->no_link_mounts ? "read-only" :
		      !c->protect_unguarded ? "refused" : "unguarded",
		      "env_withheld", name_array(c->env_withheld),
		      "limits", limits_json(p, c));
	if (o && json_object_set_new(o, "host_services",
	    c->host_network || c->no_network ? json_array() :
	    rule_values(&p->lists[POLICY_HOST_SERVICES])) < 0) {
		json_decref(o);
		o = NULL;
	}
	if (o && (json_object_set_new(o, "tmp_limit",
	    json_integer((json_int_t)c->tmp_limit)) < 0 ||
	    json_object_set_new(o, "network_capture",
	    json_boolean(c->captured)) < 0 ||
	    (p->l7 && policy_reqrule_render(p, o) < 0))) {
		json_decref(o);
		o = NULL;
	}
	if (!o) {
		free(buf);
		return -ENOMEM;
	}
	*text = buf;
	*json = o;
	return 0;
}
