/* Unit tests for audit-record.c: Landlock access and domain records as the
 * kernel writes them, hex-encoded strings, barrier messages, bad input. */
#include <string.h>
#include <errno.h>

#include "daemon/linux/audit-record.h"
#include "unit.h"

static int
parse(int type, const char *text, struct audit_record *r)
{
	return audit_record_parse(type, text, strlen(text), r);
}

static void
test_access(void)
{
	struct audit_record r;

	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1795331838.712:2"
			"): domain=185fa2713 blockers=fs.make_reg path=\"/dev/"
			"shm\" dev=\"tmpfs\" ino=1171545", &r), 0);
	CHECK_INT(r.serial, 2);
	CHECK(r.domain == 0x185fa2713ULL);
	CHECK_STR(r.blockers, "fs.make_reg");
	CHECK_STR(r.path, "/dev/shm");
	/* Untrusted strings with spaces or quotes come hex-encoded. */
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:77): domain="
			"a blockers=fs.write_file,fs.truncate path=2F746D702F"
			"6120622022 dev=\"vda\" ino=1", &r), 0);
	CHECK_INT(r.serial, 77);
	CHECK_STR(r.blockers, "fs.write_file,fs.truncate");
	CHECK_STR(r.path, "/tmp/a b \"");
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:3): domain=b "
			"blockers=scope.signal opid=4242 ocomm=\"sbx-init\"",
			&r), 0);
	CHECK_STR(r.blockers, "scope.signal");
	CHECK_INT(r.opid, 4242);
	CHECK_STR(r.ocomm, "sbx-init");
	CHECK_STR(r.path, "");
	/* Control bytes never come through. */
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:3): domain=b "
			"blockers=fs.write_file path=2F610A62", &r), 0);
	CHECK_STR(r.path, "/a?b");
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:3): domain=b "
			"blockers=net.connect_tcp daddr=10.0.0.1 dest=443",
			&r), 0);
	CHECK_STR(r.addr, "10.0.0.1:443");
}

static void
test_domain(void)
{
	struct audit_record r;

	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_DOMAIN, "audit(1.712:2): domain="
			"185fa2713 status=allocated mode=enforcing pid=26442 "
			"uid=0 exe=\"/usr/bin/sh\" comm=\"sh\"", &r), 0);
	CHECK(r.allocated && !r.deallocated);
	CHECK_INT(r.pid, 26442);
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_DOMAIN, "audit(1.760:3): domain="
			"185fa2713 status=deallocated denials=1", &r), 0);
	CHECK(r.deallocated && !r.allocated);
	CHECK_INT(r.pid, -1);
}

static void
test_barrier_and_bad(void)
{
	struct audit_record r;

	CHECK_INT(parse(AUDIT_RECORD_TRUSTED_APP, "audit(1.2:9): pid=1 uid=0 "
			"auid=4294967295 ses=4294967295 msg='sbx-barrier=12'",
			&r), 0);
	CHECK_STR(r.msg, "sbx-barrier=12");
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "", &r), -EINVAL);
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:x): domain=1",
			&r), -EINVAL);
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:3): blockers="
			"fs.write_file", &r), -EINVAL);
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS, "audit(1.2:3): domain="
			"zz", &r), -EINVAL);
	/* Truncated anywhere: no crash, no overread (ASan checks). */
	CHECK_INT(parse(AUDIT_RECORD_LANDLOCK_ACCESS,
			"audit(1.2:3): domain=1 path=\"/x", &r), 0);
	CHECK_STR(r.path, "/x");
	CHECK_INT(audit_record_parse(AUDIT_RECORD_LANDLOCK_ACCESS,
				     "audit(1.2:3): domain=1 path=\"/x", 29,
				     &r), 0);
	CHECK_STR(r.path, "");
}

int
main(void)
{
	test_access();
	test_domain();
	test_barrier_and_bad();
	UNIT_DONE();
}
