/* sbxctl doctor: what this host and its sbxd can enforce, each as ok, warn
 * or fail with the fix, proved by a throwaway sandbox whose write outside
 * its workspace must not reach the host (doctor-proof.c). Exit 0 only when
 * nothing failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/cmd.h"
#include "client/doctor.h"

/* Hello and Status: who answers, in which mode, with what. */
static void
daemon_info(const struct cmd_ctx *ctx, struct client *c,
	    struct doctor_daemon *dd)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__StatusRequest req = SBX__STATUS_REQUEST__INIT;
	const Sbx__HelloReply *h;
	const Sbx__Capabilities *caps;
	size_t i;

	if (client_open_err(ctx, c, dd->error, sizeof(dd->error)) < 0)
		return;
	h = c->hello->hello_reply;
	caps = h->caps;
	dd->up = true;
	snprintf(dd->version, sizeof(dd->version), "%s", h->daemon_version);
	if (caps) {
		dd->privileged = caps->run_mode ==
				 SBX__RUN_MODE__RUN_MODE_PRIVILEGED;
		dd->landlock_only = caps->run_mode ==
				    SBX__RUN_MODE__RUN_MODE_LANDLOCK_ONLY;
		for (i = 0; i < caps->n_namespaces; i++)
			if (!strcmp(caps->namespaces[i], "user"))
				dd->userns = true;
		dd->landlock_abi = caps->landlock_abi;
		dd->seccomp = caps->seccomp;
		dd->seccomp_notify = caps->seccomp_notify;
		dd->landlock_audit = caps->landlock_audit;
		snprintf(dd->audit_off, sizeof(dd->audit_off), "%s",
			 caps->landlock_audit_off);
		snprintf(dd->cgroups, sizeof(dd->cgroups), "%s",
			 caps->cgroups);
		snprintf(dd->cgroups_off, sizeof(dd->cgroups_off), "%s",
			 caps->cgroups_off);
		snprintf(dd->limits, sizeof(dd->limits), "%s", caps->limits);
	}
	env.msg_case = SBX__ENVELOPE__MSG_STATUS;
	env.status = &req;
	if (client_call(c, &env, SBX__ENVELOPE__MSG_STATUS_REPLY, &rep) == 0) {
		dd->pid = rep->status_reply->pid;
		snprintf(dd->home_quota, sizeof(dd->home_quota), "%s",
			 rep->status_reply->home_quota);
	}
	wire_envelope_free(rep);
}

/* sbxd's start-up message spans lines; a check is one. */
static void
one_line(struct doctor_check *k)
{
	char *s;
	size_t n;

	if (!k)
		return;
	for (s = k->detail; (s = strchr(s, '\n'));)
		*s = ' ';
	n = strlen(k->detail);
	while (n && k->detail[n - 1] == ' ')
		k->detail[--n] = '\0';
}

static void
check_daemon(struct doctor *d, const struct cmd_ctx *ctx,
	     const struct client *c, const struct doctor_daemon *dd)
{
	struct doctor_check *k;

	if (!dd->up) {
		k = doctor_add(d, DOCTOR_FAIL, "daemon", "%s", dd->error[0] ?
			       dd->error : "sbxd answered, but not the Hello "
			       "(the message above says why)");
		one_line(k);
		if (ctx->no_autostart)
			doctor_fix(k, "start sbxd (systemctl --user start "
				   "sbxd.socket), or leave out --no-autostart "
				   "and sbxctl starts it");
		else
			doctor_fix(k, "fix the failed checks above; sbxd "
				   "--foreground says why it does not start");
		return;
	}
	k = doctor_add(d, strcmp(dd->version, SBX_VERSION) ||
		       dd->landlock_only ? DOCTOR_WARN : DOCTOR_OK, "daemon",
		       "sbxd %s (pid %d, %s mode) answers on %s", dd->version,
		       dd->pid, dd->privileged ? "privileged" :
		       dd->landlock_only ? "landlock-only" : "user", c->socket);
	if (k && dd->landlock_only)
		doctor_fix(k, "Landlock-only mode has no namespaces (no mount "
			   "masks, no private /tmp, no network; `sbxctl "
			   "status` lists the losses): make user namespaces "
			   "work (the userns check), or run sbxd in "
			   "privileged mode");
	if (k && strcmp(dd->version, SBX_VERSION))
		doctor_fix(k, "this sbxctl is %s: restart sbxd (stop pid %d; "
			   "the next sbxctl starts the installed one)",
			   SBX_VERSION, dd->pid);
}

/* Scratch space the sandbox can see: not /tmp or /var/tmp, which each
 * sandbox replaces with its own; base (--scratch), else $HOME. dir gets
 * its real path (PATH_MAX bytes). */
static int
scratch_dir(const char *base, char *dir)
{
	const char *home = getenv("HOME");
	char tmp[PATH_MAX];

	if (!base && (!home || !*home))
		return -ENOENT;
	if (snprintf(tmp, sizeof(tmp), "%s/%ssbx-doctor.XXXXXX",
		     base ? base : home, base ? "" : ".") >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmp))
		return -errno;
	if (!realpath(tmp, dir)) {
		rmdir(tmp);
		return -errno;
	}
	return 0;
}

static int
remove_one(const char *path, const struct stat *st, int type,
	   struct FTW *ftw)
{
	remove(path);
	return 0;
}

static const struct option opts[] = {
	{ "scratch", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_doctor(const struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *base = NULL;
	struct doctor_daemon dd = { 0 };
	struct client c = { .fd = -1 };
	char dir[PATH_MAX];
	struct doctor *d;
	json_t *o;
	int opt, r;

	while ((opt = getopt_long(argc, argv, cmd_doctor_entry.shortopts, opts,
				   NULL)) != -1) {
		if (opt == 's')
			base = optarg;
		else
			break;
	}
	if (opt != -1 || optind != argc) {
		client_err("usage: sbxctl %s", cmd_doctor_entry.usage);
		return EXIT_SBX;
	}
	if ((r = scratch_dir(base, dir)) < 0) {
		client_err("doctor: no scratch directory in %s: %s",
			   base ? base : "$HOME", strerror(-r));
		return EXIT_SBX;
	}
	if (!(d = calloc(1, sizeof(*d)))) {
		rmdir(dir);
		return EXIT_SBX;
	}
	daemon_info(ctx, &c, &dd);
	doctor_host(d, &dd, dir);
	check_daemon(d, ctx, &c, &dd);
	if (dd.up)
		doctor_proof(d, &c, dir);
	else
		doctor_fix(doctor_add(d, DOCTOR_FAIL, "sandbox", "not tried: "
				      "no sbxd"), "see the daemon line");
	client_close(&c);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if (ctx->json) {
		o = doctor_json(d);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(o);
	} else
		doctor_print(d, stdout);
	r = doctor_exit_status(d);
	free(d);
	return r;
}

const struct cmd_entry cmd_doctor_entry = {
	.name = "doctor",
	.usage = "doctor [--json] [--scratch DIR]",
	.summary = "Check what this host can enforce, trying each kernel "
		   "feature and a throwaway sandbox.",
	.fn = cmd_doctor,
	.opts = opts,
	.shortopts = "+",
};
