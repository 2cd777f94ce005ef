/* Unit tests for violation.c: event fields, remediation defaults, the token
 * bucket and its "N more suppressed" event, grouping and its bound. */
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/violation.h"
#include "unit.h"

static struct violation
sys_v(const char *target)
{
	struct violation v = { VIOLATION_SYSCALL, target, "io_uring_setup",
			       "builtin seccomp deny set", "seccomp.io_uring",
			       POLICY_LAYER_BUILTIN, NULL, NULL, "EPERM", false };
	return v;
}

static void
test_event(void)
{
	Sbx__ViolationEvent ev = SBX__VIOLATION_EVENT__INIT;
	struct violation v = { VIOLATION_FS_WRITE, "/etc/hosts", "write_file",
			       "filesystem.allowWrite", "fs.write",
			       POLICY_LAYER_ORG, "/etc/sbx/policy.d/base.json",
			       NULL, "outside writable paths", false };

	violation_event(&v, 7, 1234, &ev);
	CHECK_INT(ev.session_id, 7);
	CHECK_INT(ev.time_unix_ms, 1234);
	CHECK_STR(ev.kind, "fs-write");
	CHECK_STR(ev.target, "/etc/hosts");
	CHECK_STR(ev.operation, "write_file");
	CHECK_STR(ev.rule_id, "fs.write");
	CHECK_STR(ev.layer, "org");
	CHECK_STR(ev.file, "/etc/sbx/policy.d/base.json");
	CHECK_STR(ev.remediation,
		  "write inside the workspace, or ask the user to allow it");
	CHECK_STR(ev.detail, "outside writable paths");

	v.reason = "ask the security team";
	v.layer = VIOLATION_NO_LAYER;
	v.file = NULL;
	violation_event(&v, 7, 1234, &ev);
	CHECK_STR(ev.remediation, "ask the security team");
	CHECK_STR(ev.layer, "");
	CHECK_STR(ev.file, "");
}

static void
test_kinds(void)
{
	struct violation v = { 0 };
	int k;

	for (k = 0; k < VIOLATION_NKINDS; k++) {
		v.kind = (enum violation_kind)k;
		CHECK(violation_kind_name(v.kind) != NULL);
		CHECK(strlen(violation_remediation(&v)) > 10);
	}
	CHECK_STR(violation_kind_name(VIOLATION_FS_CREATE), "fs-create");
	CHECK_STR(violation_kind_name(VIOLATION_IPC), "ipc");
	CHECK_STR(violation_kind_name(VIOLATION_SIGNAL), "signal");
	CHECK(violation_kind_name(VIOLATION_NKINDS) == NULL);
}

/* A tight loop: the burst goes out, the rest is held and reported as one
 * event when a token comes back, and nothing is lost from the counts. */
static void
test_rate(void)
{
	struct violation_log *l = violation_log_new(1000);
	Sbx__ViolationEvent held = SBX__VIOLATION_EVENT__INIT;
	struct violation v = sys_v("io_uring_setup");
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	unsigned sent = 0, reported = 0, i;
	int r;

	for (i = 0; i < 100000; i++) {
		r = violation_log_add(l, &v, 3, 1000, &held);
		CHECK(r == 0 || r == VIOLATION_SEND_THIS);
		sent += (r & VIOLATION_SEND_THIS) != 0;
	}
	CHECK_INT(sent, VIOLATION_BURST);
	/* 100 ms later one token is back: the held ones come first. */
	r = violation_log_add(l, &v, 3, 1100, &held);
	CHECK_INT(r, VIOLATION_SEND_HELD | VIOLATION_SEND_THIS);
	CHECK_INT(held.suppressed, 100000 - VIOLATION_BURST);
	CHECK_INT(held.session_id, 3);
	CHECK_STR(held.kind, "syscall");
	CHECK_STR(held.rule_id, "seccomp.io_uring");
	reported = sent + 1 + held.suppressed;
	CHECK_INT(reported, 100001);
	/* Nothing held now. */
	CHECK(!violation_log_flush(l, &held));
	r = violation_log_add(l, &v, 3, 1100, &held);
	CHECK_INT(r, 0);
	CHECK(violation_log_flush(l, &held));
	CHECK_INT(held.suppressed, 1);
	/* The bucket refills to the burst, not beyond. */
	for (sent = 0, i = 0; i < 1000; i++)
		sent += (violation_log_add(l, &v, 3, 1000000, &held) &
			 VIOLATION_SEND_THIS) != 0;
	CHECK_INT(sent, VIOLATION_BURST);
	violation_log_summary(l, &es);
	CHECK_INT(es.violations, 100000 + 2 + 1000);
	CHECK_INT(es.violations_suppressed,
		  100000 - VIOLATION_BURST + 1 + 1000 - VIOLATION_BURST);
	CHECK_INT(es.n_violation_groups, 1);
	CHECK_INT(es.violation_groups[0]->count, 101002);
	CHECK_INT(es.violations_ungrouped, 0);
	violation_log_free(l);
}

static void
test_groups(void)
{
	struct violation_log *l = violation_log_new(0);
	Sbx__ViolationEvent held = SBX__VIOLATION_EVENT__INIT;
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	char target[32], huge[4 * VIOLATION_TEXT_MAX];
	struct violation v;
	unsigned i;

	for (i = 0; i < VIOLATION_GROUPS_MAX + 10; i++) {
		snprintf(target, sizeof(target), "t%u", i);
		v = sys_v(target);
		violation_log_add(l, &v, 1, 0, &held);
		violation_log_add(l, &v, 1, 0, &held);
	}
	/* Strings are cut: a long target costs VIOLATION_TEXT_MAX. */
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	v = sys_v(huge);
	violation_log_add(l, &v, 1, 0, &held);
	violation_log_summary(l, &es);
	CHECK_INT(es.n_violation_groups, VIOLATION_GROUPS_MAX);
	CHECK_INT(es.violations, 2 * (VIOLATION_GROUPS_MAX + 10) + 1);
	CHECK_INT(es.violations_ungrouped, 2 * 10 + 1);
	CHECK_STR(es.violation_groups[0]->target, "t0");
	CHECK_INT(es.violation_groups[0]->count, 2);
	CHECK_INT(violation_log_total(l), es.violations);
	CHECK(violation_log_flush(l, &held));
	CHECK_INT(strlen(held.target), VIOLATION_TEXT_MAX);
	violation_log_free(l);

	/* Different rules on one target are different groups. */
	l = violation_log_new(0);
	v = sys_v("socket(AF_UNIX, SOCK_STREAM)");
	violation_log_add(l, &v, 1, 0, &held);
	v.rule_id = "seccomp.socket";
	violation_log_add(l, &v, 1, 0, &held);
	violation_log_summary(l, &es);
	CHECK_INT(es.n_violation_groups, 2);
	violation_log_free(l);
}

int
main(void)
{
	test_event();
	test_kinds();
	test_rate();
	test_groups();
	UNIT_DONE();
}
