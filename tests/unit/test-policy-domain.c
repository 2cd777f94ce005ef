/* Unit tests for domain rules: syntax, canonical hosts, match, meet. */
#include <errno.h>
#include <string.h>

#include "daemon/policy/domain.h"
#include "unit.h"

static void
rule_ok(const char *text, bool any_ok, const char *canon)
{
	struct policy_domain d;
	const char *why = NULL;
	char buf[300];

	CHECK_INT(policy_domain_parse(text, any_ok, &d, &why), 0);
	CHECK(policy_domain_format(&d, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, canon);
}

static void
rule_bad(const char *text, bool any_ok, const char *want_why)
{
	struct policy_domain d;
	const char *why = NULL;

	CHECK_INT(policy_domain_parse(text, any_ok, &d, &why), -EINVAL);
	CHECK_STR(why, want_why);
}

static void
test_parse(void)
{
	rule_ok("example.com", false, "example.com");
	rule_ok("API.Example.COM", false, "api.example.com");
	rule_ok("*.example.com", false, "*.example.com");
	rule_ok("*.example.com:8443", false, "*.example.com:8443");
	rule_ok("localhost", false, "localhost");
	rule_ok("10.0.0.1:22", false, "10.0.0.1:22");
	rule_ok("[::1]", false, "[::1]");
	rule_ok("[2001:DB8:0:0::1]:443", false, "[2001:db8::1]:443");
	rule_ok("*", true, "*");
	rule_ok("*:22", true, "*:22");
	/* A rule must mean what the canonicalised request means. */
	rule_ok("2130706433", false, "127.0.0.1");
	rule_ok("127.1", false, "127.0.0.1");
	rule_bad("*", false, "a bare * is only accepted in deniedDomains");
	rule_bad("*.com", false, "too broad: *. needs at least two labels "
	    "after it, as in *.example.com");
	rule_bad("foo.*.com", false, "a wildcard is only accepted as a "
	    "leading *.");
	rule_bad("*.", false, "a domain starts or ends with a dot");
	rule_bad("example.com.", false, "a domain starts or ends with a dot");
	rule_bad("intranet", false, "a domain needs at least one dot (or is "
	    "localhost)");
	rule_bad("https://example.com", false, "a domain rule is a host name, "
	    "not a URL");
	rule_bad("example.com:https", false, "port must be a number from 1 "
	    "to 65535");
	rule_bad("example.com/x", false, "invalid character in host name");
	rule_bad("example.com:0", false, "port must be a number from 1 to "
	    "65535");
	rule_bad("example.com:65536", false, "port must be a number from 1 "
	    "to 65535");
	rule_bad("::1", false, "an IPv6 address must be in brackets, as in "
	    "[::1] or [::1]:443");
	rule_bad("[::1", false, "unterminated [IPv6] literal");
	rule_bad("[::g]", false, "invalid IPv6 address");
	rule_bad("*.[::1]", false, "an IPv6 address must be in brackets, as "
	    "in [::1] or [::1]:443");
	rule_bad("*.10.0.0.1", false, "*. cannot be applied to an IP "
	    "address");
	rule_bad("1.2.3.999", false, "numeric host name that is not an IPv4 "
	    "address");
	rule_bad("b\xc3\xbc" "cher.de", false, "non-ASCII host name: write its "
	    "xn-- form");
	rule_bad("a..b", false, "empty label in host name");
}

static void
canon(const char *in, const char *want)
{
	char out[300];
	const char *why = NULL;

	CHECK_INT(policy_domain_canon_host(in, out, sizeof(out), &why), 0);
	CHECK_STR(out, want);
}

static void
test_canon(void)
{
	const char *why;
	char host[300];
	int port;

	canon("Example.COM.", "example.com");
	canon("0x7f.1", "127.0.0.1");
	canon("017700000001", "127.0.0.1");
	canon("[::FFFF:127.0.0.1]", "::ffff:127.0.0.1");
	canon("foo.0xyz", "foo.0xyz");
	CHECK_INT(policy_domain_canon_host("a.b..", host, sizeof(host), &why),
	    -EINVAL);
	CHECK_INT(policy_domain_canon_host("a b.c", host, sizeof(host), &why),
	    -EINVAL);
	CHECK_INT(policy_domain_split("[::1]:8080", true, host, sizeof(host),
	    &port, &why), 0);
	CHECK_STR(host, "[::1]");
	CHECK_INT(port, 8080);
	CHECK_INT(policy_domain_split("::1", true, host, sizeof(host), &port,
	    &why), 0);
	CHECK_STR(host, "::1");
	CHECK_INT(port, 0);
	CHECK_INT(policy_domain_split("a.com:", true, host, sizeof(host),
	    &port, &why), -EINVAL);
	CHECK_INT(policy_domain_split("[::1]x", true, host, sizeof(host),
	    &port, &why), -EINVAL);
}

static bool
matches(const char *rule, const char *host, int port)
{
	struct policy_domain d;
	const char *why;

	return policy_domain_parse(rule, true, &d, &why) == 0 &&
	    policy_domain_match(&d, host, port);
}

static void
test_match(void)
{
	CHECK(matches("example.com", "example.com", 443));
	CHECK(!matches("example.com", "www.example.com", 443));
	CHECK(matches("*.example.com", "www.example.com", 443));
	CHECK(matches("*.example.com", "a.b.example.com", 80));
	CHECK(!matches("*.example.com", "example.com", 443));
	CHECK(!matches("*.example.com", "badexample.com", 443));
	CHECK(matches("example.com:443", "example.com", 443));
	CHECK(!matches("example.com:443", "example.com", 22));
	CHECK(matches("*", "anything.at.all", 1));
	CHECK(matches("*:22", "github.com", 22));
	CHECK(!matches("*:22", "github.com", 443));
	CHECK(matches("[::1]", "::1", 80));
}

static void
meet(const char *a, const char *b, const char *want)
{
	struct policy_domain da, db, out;
	const char *why;
	char buf[300] = "";

	CHECK_INT(policy_domain_parse(a, true, &da, &why), 0);
	CHECK_INT(policy_domain_parse(b, true, &db, &why), 0);
	if (want == NULL) {
		CHECK(!policy_domain_meet(&da, &db, &out));
		return;
	}
	CHECK(policy_domain_meet(&da, &db, &out));
	policy_domain_format(&out, buf, sizeof(buf));
	CHECK_STR(buf, want);
	/* The intersection does not depend on the order. */
	CHECK(policy_domain_meet(&db, &da, &out));
	policy_domain_format(&out, buf, sizeof(buf));
	CHECK_STR(buf, want);
}

static void
test_meet(void)
{
	meet("api.example.com", "*.example.com", "api.example.com");
	meet("*.api.example.com", "*.example.com", "*.api.example.com");
	meet("*.example.com", "*.example.com", "*.example.com");
	meet("example.com", "*.example.com", NULL);
	meet("example.com", "example.org", NULL);
	meet("*.example.com", "*.example.org", NULL);
	meet("a.example.com", "b.example.com", NULL);
	meet("api.example.com", "*.example.com:443", "api.example.com:443");
	meet("*.example.com:443", "*.example.com:80", NULL);
	meet("*", "x.example.com:22", "x.example.com:22");
}

int
main(void)
{
	test_parse();
	test_canon();
	test_match();
	test_meet();
	UNIT_DONE();
}
