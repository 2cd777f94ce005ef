/* Unit tests for daemon/envfilter.c. */
#include "daemon/envfilter.h"
#include "unit.h"

int
main(void)
{
	CHECK(envfilter_pass("PATH=/usr/bin"));
	CHECK(envfilter_pass("HOME=/home/a"));
	CHECK(envfilter_pass("LANG=C.UTF-8"));
	CHECK(envfilter_pass("EMPTY="));
	CHECK(!envfilter_pass("GITHUB_TOKEN=x"));
	CHECK(!envfilter_pass("github_token=x"));
	CHECK(!envfilter_pass("NPM_TOKEN=x"));
	CHECK(!envfilter_pass("AWS_SECRET_ACCESS_KEY=x"));
	CHECK(!envfilter_pass("AWS_PROFILE=x"));
	CHECK(!envfilter_pass("DB_PASSWORD=x"));
	CHECK(!envfilter_pass("OPENAI_API_KEY=x"));
	CHECK(!envfilter_pass("SSH_AUTH_SOCK=/run/x"));
	CHECK(!envfilter_pass("DBUS_SESSION_BUS_ADDRESS=unix:x"));
	CHECK(!envfilter_pass("NOTIFY_SOCKET=/run/x"));
	CHECK(!envfilter_pass("=x"));
	CHECK(!envfilter_pass("NOEQUALS"));
	CHECK(envfilter_valid("A=b"));
	CHECK(envfilter_valid("A=b=c"));
	CHECK(!envfilter_valid("=b"));
	CHECK(!envfilter_valid("ab"));
	UNIT_DONE();
}
