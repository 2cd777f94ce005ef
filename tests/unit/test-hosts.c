/* Unit tests for daemon/proxy/hosts.c: a name's addresses in hosts-file
 * text. */
#include <string.h>

#include "daemon/proxy/hosts.h"
#include "unit.h"

static size_t
look(const char *text, const char *name, struct host *out, size_t max)
{
	struct host h;
	const char *why;

	if (host_canon(name, strlen(name), &h, &why) != 0)
		return (size_t)-1;
	return hosts_lookup(text, strlen(text), &h, out, max);
}

int
main(void)
{
	struct host a[4];
	const char *t = "# comment 10.0.0.9 a.test\n"
			"127.0.0.1\tlocalhost\n"
			"10.1.2.3 intra.test other.test # intra.test too\n"
			"::1 ip6-localhost intra.test\r\n"
			"bogus a.test\n"
			"10.0.0.7 INTRA.TEST\n"
			"10.0.0.8";

	CHECK_INT(look(t, "intra.test", a, 4), 3);
	CHECK(!strcmp(a[0].text, "10.1.2.3") && a[0].kind == HOST_IPV4);
	CHECK(!strcmp(a[1].text, "::1") && a[1].kind == HOST_IPV6);
	CHECK(!strcmp(a[2].text, "10.0.0.7"));
	CHECK_INT(look(t, "other.test", a, 4), 1);
	CHECK_INT(look(t, "localhost", a, 4), 1);
	CHECK(!strcmp(a[0].text, "127.0.0.1"));
	/* Commented out, after a bad address, or absent. */
	CHECK_INT(look(t, "a.test", a, 4), 0);
	CHECK_INT(look(t, "none.test", a, 4), 0);
	/* More than fit: counted. */
	CHECK_INT(look(t, "intra.test", a, 1), 3);
	CHECK_INT(look("", "intra.test", a, 4), 0);
	CHECK_INT(look("10.0.0.1 x.test", "x.test", a, 4), 1);
	UNIT_DONE();
}
