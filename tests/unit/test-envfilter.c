/* Unit tests for daemon/envfilter.c. */
#include "daemon/envfilter.h"
#include "unit.h"

int
main(void)
{
	CHECK(envfilter_valid("A=b"));
	CHECK(envfilter_valid("A=b=c"));
	CHECK(envfilter_valid("EMPTY="));
	CHECK(!envfilter_valid("=b"));
	CHECK(!envfilter_valid("ab"));
	UNIT_DONE();
}
