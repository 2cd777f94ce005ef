/* Unit tests for client/doctor.c: the report's lines, JSON and exit
 * status, and the user-namespace check's diagnosis and fix. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "client/doctor.h"
#include "unit.h"

static char *
text(const struct doctor *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	doctor_print(d, f);
	fclose(f);
	return buf;
}

static void
test_report(void)
{
	struct doctor *d = calloc(1, sizeof(*d));
	json_t *o, *c;
	char *t;
	int i;

	doctor_add(d, DOCTOR_OK, "userns", "works %d", 1);
	doctor_fix(doctor_add(d, DOCTOR_WARN, "audit", "off"), "turn it %s",
		   "on");
	CHECK_INT(doctor_exit_status(d), 0);
	t = text(d);
	CHECK_STR(t, "ok    userns: works 1\n"
		  "warn  audit: off\n"
		  "      fix: turn it on\n"
		  "the sandbox is enforceable as configured: 1 ok, 1 warn, "
		  "0 fail\n");
	free(t);
	doctor_fix(doctor_add(d, DOCTOR_FAIL, "daemon", "down"), "start it");
	CHECK_INT(doctor_exit_status(d), 1);
	o = doctor_json(d);
	CHECK(json_is_false(json_object_get(o, "enforceable")));
	CHECK_INT(json_array_size(json_object_get(o, "checks")), 3);
	c = json_array_get(json_object_get(o, "checks"), 2);
	CHECK_STR(json_string_value(json_object_get(c, "name")), "daemon");
	CHECK_STR(json_string_value(json_object_get(c, "status")), "fail");
	CHECK_STR(json_string_value(json_object_get(c, "fix")), "start it");
	c = json_array_get(json_object_get(o, "checks"), 0);
	CHECK(json_object_get(c, "fix") == NULL);
	json_decref(o);
	t = text(d);
	CHECK(strstr(t, "NOT enforceable as configured: 1 ok, 1 warn, 1 fail"));
	free(t);
	/* A full report drops what comes after, and says nothing wrong. */
	for (i = d->n; i < DOCTOR_MAX; i++)
		doctor_add(d, DOCTOR_OK, "x", "y");
	CHECK(doctor_add(d, DOCTOR_FAIL, "z", "lost") == NULL);
	doctor_fix(NULL, "ignored");
	CHECK_INT(d->n, DOCTOR_MAX);
	free(d);
}

/* The userns check for u against dd; returns the one check. */
static struct doctor_check
userns(struct doctor_userns u, const struct doctor_daemon *dd)
{
	struct doctor d = { .n = 0 };

	doctor_userns(&d, &u, dd);
	CHECK_INT(d.n, 1);
	CHECK_STR(d.checks[0].name, "userns");
	return d.checks[0];
}

static void
test_userns(void)
{
	struct doctor_userns u = { NULL, 0, { -1, 15000, -1 }, 1001, "ann" };
	struct doctor_daemon none = { .up = false };
	struct doctor_daemon priv = { .up = true, .privileged = true };
	struct doctor_daemon user = { .up = true, .userns = true };
	struct doctor_check c;

	c = userns(u, &none);
	CHECK_INT(c.status, DOCTOR_OK);
	CHECK_STR(c.fix, "");

	/* Exhausted or zero limit: the sysctl, and privileged mode. */
	u.failed = "unshare(CLONE_NEWUSER): No space left on device";
	u.err = ENOSPC;
	c = userns(u, &none);
	CHECK_INT(c.status, DOCTOR_FAIL);
	CHECK(strstr(c.detail, "No space left on device: the user namespace "
		     "limit is reached (user.max_user_namespaces is 15000"));
	CHECK(strstr(c.fix, "sudo sysctl -w user.max_user_namespaces=15000"));
	CHECK(strstr(c.fix, "sbxd@1001.socket (or sudo sbxd --user ann)"));
	u.err = EPERM;
	u.sysctl.max = 0;
	c = userns(u, &none);
	CHECK(strstr(c.fix, "user.max_user_namespaces="));

	/* Debian's switch. */
	u.sysctl.max = 15000;
	u.sysctl.clone = 0;
	c = userns(u, &none);
	CHECK_INT(c.status, DOCTOR_FAIL);
	CHECK(strstr(c.detail, "kernel.unprivileged_userns_clone = 0"));
	CHECK(strstr(c.fix, "sudo sysctl -w kernel.unprivileged_userns_"
		     "clone=1"));

	/* Ubuntu's AppArmor restriction: the shipped profile. */
	u.sysctl.clone = 1;
	u.sysctl.apparmor = 1;
	u.failed = "unshare(mnt, pid, net, ipc, uts) in it: Operation not "
		   "permitted";
	c = userns(u, &none);
	CHECK_INT(c.status, DOCTOR_FAIL);
	CHECK(strstr(c.detail, "AppArmor restricts unprivileged user "
		     "namespaces"));
	CHECK(strstr(c.fix, "install the AppArmor profile shipped in "
		     "packaging/apparmor/sbxd"));
	CHECK(strstr(c.fix, "apparmor_parser -r /etc/apparmor.d/sbxd"));
	/* ... which sbxd (confined by it) has and sbxctl does not. */
	c = userns(u, &user);
	CHECK_INT(c.status, DOCTOR_OK);
	CHECK(strstr(c.detail, "sbxd makes them, this process cannot"));

	/* Nothing to explain it. */
	u.sysctl.apparmor = -1;
	c = userns(u, &none);
	CHECK(strstr(c.detail, "the kernel refuses them"));
	CHECK(strstr(c.fix, "CONFIG_USER_NS=y"));
	/* sbxd had them, the host changed since. */
	c = userns(u, &user);
	CHECK_INT(c.status, DOCTOR_WARN);
	CHECK(strstr(c.fix, "a restarted sbxd would not start"));
	/* Privileged mode needs none. */
	c = userns(u, &priv);
	CHECK_INT(c.status, DOCTOR_OK);
	CHECK(strstr(c.detail, "not needed: sbxd runs in privileged mode"));
}

int
main(void)
{
	test_report();
	test_userns();
	UNIT_DONE();
}
