/* Unit tests for session-id.c's parser of the session-ids file: a decimal
 * number and a newline, nothing else, no overflow. */
#include <errno.h>
#include <string.h>

#include "daemon/session.h"
#include "unit.h"

static int
parse(const char *s, uint64_t *v)
{
	return session_id_parse(s, strlen(s), v);
}

int
main(void)
{
	uint64_t v = 7;

	CHECK_INT(parse("1024\n", &v), 0);
	CHECK(v == 1024);
	CHECK_INT(parse("0\n", &v), 0);
	CHECK(v == 0);
	CHECK_INT(parse("18446744073709551615\n", &v), 0);
	CHECK(v == UINT64_MAX);
	v = 7;
	CHECK_INT(parse("18446744073709551616\n", &v), -EINVAL);
	CHECK_INT(parse("99999999999999999999\n", &v), -EINVAL);
	CHECK_INT(parse("1024", &v), -EINVAL);     /* no newline: cut short */
	CHECK_INT(parse("\n", &v), -EINVAL);
	CHECK_INT(parse("", &v), -EINVAL);
	CHECK_INT(parse("-1\n", &v), -EINVAL);
	CHECK_INT(parse("12a\n", &v), -EINVAL);
	CHECK_INT(parse("12\n\n", &v), -EINVAL);
	CHECK_INT(parse(" 12\n", &v), -EINVAL);
	CHECK_INT(session_id_parse("12\n", 2, &v), -EINVAL);
	CHECK(v == 7); /* untouched on failure */
	UNIT_DONE();
}
