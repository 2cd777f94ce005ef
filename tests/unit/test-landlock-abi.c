/* Unit tests for daemon/linux/landlock-abi.c. */
#include "daemon/linux/landlock-abi.h"
#include "unit.h"

int
main(void)
{
	char buf[256], small[12];

	CHECK_INT(landlock_abi_missing(7, 7, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_INT(landlock_abi_missing(6, 6, buf, sizeof(buf)), 0);
	CHECK_INT(landlock_abi_missing(6, 7, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "no audit logging (ABI 7)");
	CHECK_INT(landlock_abi_missing(3, 6, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "no TCP rules (ABI 4), no IOCTL_DEV (ABI 5), no "
		  "scoping of abstract sockets and signals (ABI 6)");
	CHECK_INT(landlock_abi_missing(1, 3, buf, sizeof(buf)), 2);
	CHECK_STR(buf, "no REFER (ABI 2), no TRUNCATE (ABI 3)");
	/* Truncated, still terminated, still counted. */
	CHECK_INT(landlock_abi_missing(1, 7, small, sizeof(small)), 6);
	CHECK_STR(small, "no REFER (A");
	CHECK_INT(landlock_abi_missing(1, 7, NULL, 0), 6);
	UNIT_DONE();
}
