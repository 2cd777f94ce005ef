/* Unit tests for client/signame.c. */
#include <signal.h>

#include "client/signame.h"
#include "unit.h"

int
main(void)
{
	CHECK_INT(signame_parse("TERM"), SIGTERM);
	CHECK_INT(signame_parse("SIGTERM"), SIGTERM);
	CHECK_INT(signame_parse("sigint"), SIGINT);
	CHECK_INT(signame_parse("kill"), SIGKILL);
	CHECK_INT(signame_parse("9"), 9);
	CHECK_INT(signame_parse("0"), -1);
	CHECK_INT(signame_parse("65"), -1);
	CHECK_INT(signame_parse("9x"), -1);
	CHECK_INT(signame_parse(""), -1);
	CHECK_INT(signame_parse("NOPE"), -1);
	CHECK_INT(signame_parse(NULL), -1);
	UNIT_DONE();
}
