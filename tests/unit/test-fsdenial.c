/* Unit tests for fsdenial.c: a kernel-reported denial named by the rule
 * `policy explain` finds, or by sbx's builtin Landlock scoping. */
#include <string.h>

#include "daemon/policy/fsdenial.h"
#include "daemon/policy/merge.h"
#include "policy-unit.h"
#include "unit.h"

static struct policy *
effective(void)
{
	static const char user_json[] =
		"{\"filesystem\": {\"allowWrite\": [{\"path\": \".\", "
		"\"id\": \"ws\"}],\n"
		"  \"denyWrite\": [{\"path\": \"./vendor\", \"id\": \"vendor\","
		" \"reason\": \"vendored code is read-only\"}]}}\n";
	struct policy_diags d = { 0 };
	struct policy *doc = NULL, *eff = NULL;

	CHECK_INT(parse_as(user_json, POLICY_LAYER_USER, &doc, &d), 0);
	CHECK_INT(policy_merge((const struct policy *const *)&doc, 1, HOME,
	    &eff, &d), 0);
	policy_free(doc);
	policy_diag_free(&d);
	return eff;
}

static void
test_paths(void)
{
	struct policy *p = effective();
	struct fsdenial f;
	struct violation v;

	fsdenial_describe(p, HOME, HOME, WS, VIOLATION_FS_CREATE, "fs.make_reg",
	    "/dev/shm", &f, &v);
	CHECK_INT(v.kind, VIOLATION_FS_CREATE);
	CHECK_STR(v.target, "/dev/shm");
	CHECK_STR(v.operation, "make_reg");
	CHECK_STR(v.rule, "filesystem.allowWrite");
	CHECK_INT(v.layer, VIOLATION_NO_LAYER);
	CHECK(v.detail && strstr(v.detail, "allowWrite"));

	fsdenial_describe(p, HOME, HOME, WS, VIOLATION_FS_WRITE, "fs.write_file",
	    WS "/vendor/lib.c", &f, &v);
	CHECK_STR(v.rule, "filesystem.denyWrite \"" WS "/vendor\"");
	CHECK_STR(v.rule_id, "vendor");
	CHECK_INT(v.layer, POLICY_LAYER_USER);
	CHECK_STR(v.file, "t.json");
	CHECK_STR(violation_remediation(&v), "vendored code is read-only");

	/* No policy (a session before its spawn finished): still named. */
	fsdenial_describe(NULL, HOME, HOME, WS, VIOLATION_FS_WRITE, "fs.truncate",
	    "/etc/hosts", &f, &v);
	CHECK_STR(v.rule, "filesystem.allowWrite");
	CHECK_STR(v.operation, "truncate");
	policy_free(p);
}

static void
test_scopes(void)
{
	struct fsdenial f;
	struct violation v;

	fsdenial_describe(NULL, HOME, HOME, WS, VIOLATION_SIGNAL, "scope.signal",
	    "process sbx-init (pid 7)", &f, &v);
	CHECK_STR(v.rule, "builtin Landlock scope");
	CHECK_STR(v.rule_id, "landlock.scope.signal");
	CHECK_INT(v.layer, POLICY_LAYER_BUILTIN);
	CHECK_STR(v.operation, "signal");
	fsdenial_describe(NULL, HOME, HOME, WS, VIOLATION_IPC,
	    "scope.abstract_unix_socket", "@x", &f, &v);
	CHECK_STR(v.rule_id, "landlock.scope.abstract_unix_socket");
	CHECK_INT(v.kind, VIOLATION_IPC);
}

int
main(void)
{
	test_paths();
	test_scopes();
	UNIT_DONE();
}
