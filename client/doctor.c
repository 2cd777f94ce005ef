/* The doctor's report and its two forms, text and JSON. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "client/doctor.h"

static const char *const status_names[] = { "ok", "warn", "fail" };

struct doctor_check *
doctor_add(struct doctor *d, enum doctor_status st, const char *name,
	   const char *fmt, ...)
{
	struct doctor_check *c;
	va_list ap;

	if (d->n >= DOCTOR_MAX)
		return NULL;
	c = &d->checks[d->n++];
	memset(c, 0, sizeof(*c));
	c->status = st;
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

void
doctor_fix(struct doctor_check *c, const char *fmt, ...)
{
	va_list ap;

	if (!c)
		return;
	va_start(ap, fmt);
	vsnprintf(c->fix, sizeof(c->fix), fmt, ap);
	va_end(ap);
}

static void
count(const struct doctor *d, int n[3])
{
	int i;

	n[0] = n[1] = n[2] = 0;
	for (i = 0; i < d->n; i++)
		n[d->checks[i].status]++;
}

void
doctor_print(const struct doctor *d, FILE *f)
{
	int i, n[3];

	for (i = 0; i < d->n; i++) {
		const struct doctor_check *c = &d->checks[i];

		fprintf(f, "%-4s  %s: %s\n", status_names[c->status], c->name,
			c->detail);
		if (c->status != DOCTOR_OK && c->fix[0])
			fprintf(f, "      fix: %s\n", c->fix);
	}
	count(d, n);
	fprintf(f, "%s: %d ok, %d warn, %d fail\n", n[DOCTOR_FAIL] ?
		"the sandbox is NOT enforceable as configured" :
		"the sandbox is enforceable as configured", n[DOCTOR_OK],
		n[DOCTOR_WARN], n[DOCTOR_FAIL]);
}

json_t *
doctor_json(const struct doctor *d)
{
	json_t *arr = json_array(), *o;
	int i;

	for (i = 0; i < d->n; i++) {
		const struct doctor_check *c = &d->checks[i];

		o = json_pack("{s:s, s:s, s:s}", "name", c->name, "status",
			      status_names[c->status], "detail", c->detail);
		if (o && c->fix[0])
			json_object_set_new(o, "fix", json_string(c->fix));
		json_array_append_new(arr, o);
	}
	return json_pack("{s:b, s:o}", "enforceable",
			 !doctor_exit_status(d), "checks", arr);
}

int
doctor_exit_status(const struct doctor *d)
{
	int n[3];

	count(d, n);
	return n[DOCTOR_FAIL] ? 1 : 0;
}

/* Why the kernel refused, and the knob that changes it. */
static void
userns_why(const struct doctor_userns *u, char *why, size_t wlen, char *fix,
	   size_t flen)
{
	if (u->err == ENOSPC || u->sysctl.max == 0) {
		snprintf(why, wlen, "the user namespace limit is reached "
			 "(user.max_user_namespaces is %ld here; the limit of "
			 "an enclosing namespace counts too)", u->sysctl.max);
		snprintf(fix, flen, "sudo sysctl -w user.max_user_namespaces="
			 "15000, and put user.max_user_namespaces = 15000 in "
			 "/etc/sysctl.d/50-sbx.conf to keep it");
	} else if (u->sysctl.clone == 0) {
		snprintf(why, wlen, "unprivileged user namespaces are "
			 "disabled (kernel.unprivileged_userns_clone = 0)");
		snprintf(fix, flen, "sudo sysctl -w kernel.unprivileged_userns_"
			 "clone=1, and put kernel.unprivileged_userns_clone = 1 "
			 "in /etc/sysctl.d/50-sbx.conf to keep it");
	} else if (u->sysctl.apparmor == 1) {
		snprintf(why, wlen, "AppArmor restricts unprivileged user "
			 "namespaces (kernel.apparmor_restrict_unprivileged_"
			 "userns = 1)");
		snprintf(fix, flen, "install the AppArmor profile shipped in "
			 "packaging/apparmor/sbxd (the .deb installs it): sudo "
			 "install -m 644 packaging/apparmor/sbxd /etc/apparmor.d/"
			 "sbxd && sudo apparmor_parser -r /etc/apparmor.d/sbxd "
			 "(it names /usr/bin/sbxd: edit the path for another "
			 "install)");
	} else {
		snprintf(why, wlen, "the kernel refuses them");
		snprintf(fix, flen, "use a kernel built with CONFIG_USER_NS=y "
			 "that lets unprivileged users create user namespaces");
	}
}

const char *
doctor_privileged(unsigned uid, const char *user, char *buf, size_t len)
{
	snprintf(buf, len, "run sbxd in privileged mode: sudo systemctl enable "
		 "--now sbxd@%u.socket (or sudo sbxd --user %s)", uid, user);
	return buf;
}

void
doctor_userns(struct doctor *d, const struct doctor_userns *u,
	      const struct doctor_daemon *dd)
{
	char why[256], fix[320], priv[160];
	struct doctor_check *c;
	bool apparmor;

	if (!u->failed) {
		doctor_add(d, DOCTOR_OK, "userns", "unprivileged user "
			   "namespaces work (unshare(CLONE_NEWUSER), then mnt, "
			   "pid, ipc, uts and a tmpfs in it)");
		return;
	}
	userns_why(u, why, sizeof(why), fix, sizeof(fix));
	apparmor = strstr(why, "AppArmor") != NULL;
	if (dd->up && dd->privileged) {
		doctor_add(d, DOCTOR_OK, "userns", "not needed: sbxd runs in "
			   "privileged mode (here %s: %s)", u->failed, why);
	} else if (dd->up && dd->userns) {
		/* sbxd's AppArmor profile grants what this process lacks;
		 * otherwise sbxd started before the host changed. */
		c = doctor_add(d, apparmor ? DOCTOR_OK : DOCTOR_WARN, "userns",
			       "sbxd makes them, this process cannot (%s: %s)",
			       u->failed, why);
		if (!apparmor)
			doctor_fix(c, "%s; a restarted sbxd would not start",
				   fix);
	} else {
		c = doctor_add(d, DOCTOR_FAIL, "userns", "%s: %s", u->failed,
			       why);
		doctor_fix(c, "%s; or %s", fix, doctor_privileged(u->uid,
			   u->user, priv, sizeof(priv)));
	}
}
