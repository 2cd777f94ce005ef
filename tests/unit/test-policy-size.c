/* Unit tests for policy/size.c: size spellings, bounds, canonical form. */
#include <errno.h>
#include <stdint.h>

#include "daemon/policy/size.h"
#include "unit.h"

static uint64_t
parse_ok(const char *s)
{
	const char *why = NULL;
	uint64_t v = 0;

	CHECK_INT(policy_size_parse(s, strlen(s), &v, &why), 0);
	return v;
}

static void
bad(const char *s, const char *reason)
{
	const char *why = NULL;
	uint64_t v = 7;

	CHECK_INT(policy_size_parse(s, strlen(s), &v, &why), -EINVAL);
	CHECK(v == 7);
	CHECK(why != NULL && strstr(why, reason) != NULL);
}

static void
test_parse(void)
{
	CHECK_INT(parse_ok("0"), 0);
	CHECK_INT(parse_ok("1048576"), 1048576);
	CHECK_INT(parse_ok("100B"), 100);
	CHECK_INT(parse_ok("512M"), 512ULL << 20);
	CHECK_INT(parse_ok("512m"), 512ULL << 20);
	CHECK_INT(parse_ok("2G"), 2ULL << 30);
	CHECK_INT(parse_ok("1GiB"), 1ULL << 30);
	CHECK_INT(parse_ok("1GB"), 1ULL << 30);
	CHECK_INT(parse_ok("4k"), 4096);
	CHECK_INT(parse_ok("3T"), 3ULL << 40);
	CHECK_INT(parse_ok("1P"), 1ULL << 50);
	CHECK_INT(parse_ok("1024T"), 1ULL << 50);
	bad("", "a size is");
	bad("M", "a size is");
	bad("-1", "a size is");
	bad(" 1M", "a size is");
	CHECK_INT(parse_ok("1 M"), 1ULL << 20);
	CHECK_INT(parse_ok("2 GiB"), 2ULL << 30);
	CHECK_INT(parse_ok("1.5G"), 3ULL << 29);
	bad("1.5", "unknown unit");
	bad("1.G", "a fraction");
	bad("1 ", "unknown unit");
	bad("1  M", "unknown unit");
	bad("1X", "unknown unit");
	bad("1MiBx", "unknown unit");
	bad("1Mi", "unknown unit");
	bad("1iB", "unknown unit");
	bad("2P", "too large");
	bad("1025T", "too large");
	bad("1125899906842625", "too large");
	bad("99999999999999999999999", "too large");
}

static void
fmt(uint64_t v, int human, const char *want)
{
	char buf[32];

	CHECK_INT(policy_size_format(v, buf, sizeof(buf), human),
	    (long long)strlen(want));
	CHECK_STR(buf, want);
}

static void
test_format(void)
{
	char small[4];

	fmt(0, 0, "0");
	fmt(100, 0, "100");
	fmt(1536, 0, "1536");
	fmt(512ULL << 20, 0, "512M");
	fmt(1536ULL << 10, 0, "1536K");
	fmt(2ULL << 30, 0, "2G");
	fmt(1ULL << 50, 0, "1P");
	fmt(1ULL << 60, 0, "1024P");
	fmt(512ULL << 20, 1, "512 MiB");
	fmt(100, 1, "100 bytes");
	CHECK_INT(policy_size_format(2ULL << 30, small, 2, 0), -ENOSPC);
	CHECK_INT(policy_size_format(100, small, sizeof(small), 0), 3);
}

/* What format prints, parse reads back as the same number. */
static void
test_roundtrip(void)
{
	static const uint64_t v[] = { 1, 1023, 1024, 4096, 1ULL << 20,
	    3ULL << 30, (1ULL << 50) - 1, 1ULL << 50, 123456789 };
	const char *why;
	char buf[32];
	uint64_t back;
	size_t i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		n = policy_size_format(v[i], buf, sizeof(buf), 0);
		CHECK(n > 0);
		CHECK_INT(policy_size_parse(buf, (size_t)n, &back, &why), 0);
		CHECK_INT(back, v[i]);
	}
}

int
main(void)
{
	test_parse();
	test_format();
	test_roundtrip();
	UNIT_DONE();
}
