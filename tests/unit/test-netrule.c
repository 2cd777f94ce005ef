/* Unit tests for netrule.c: rule syntax, wildcard semantics, deny over allow. */
#include <errno.h>

#include "daemon/policy/netrule.h"
#include "unit.h"

static const char *why;

static int
parse(const char *s, struct netrule *r)
{
	why = NULL;
	return netrule_parse(s, strlen(s), r, &why);
}

/* Parses rule, formats it back: the canonical spelling. */
#define CANON(rule, want)                                                    \
	do {                                                                 \
		struct netrule r_;                                           \
		char b_[300];                                                \
		CHECK_INT(parse(rule, &r_), 0);                              \
		CHECK(netrule_format(&r_, b_, sizeof(b_)) > 0);              \
		CHECK_STR(b_, want);                                         \
	} while (0)

#define BAD(rule, reason)                                                    \
	do {                                                                 \
		struct netrule r_;                                           \
		CHECK_INT(parse(rule, &r_), -EINVAL);                        \
		CHECK(why != NULL && strstr(why, reason) != NULL);           \
	} while (0)

static void
test_syntax(void)
{
	CANON("example.com", "example.com");
	CANON("Example.COM.", "example.com");
	CANON("*.Example.com", "*.example.com");
	CANON("example.com:443", "example.com:443");
	CANON("*.example.com:8080", "*.example.com:8080");
	CANON("10.0.0.1", "10.0.0.1");
	CANON("2130706433", "127.0.0.1");
	CANON("0x7f.1:22", "127.0.0.1:22");
	CANON("::1", "::1");
	CANON("[::1]", "::1");
	CANON("[::1]:80", "[::1]:80");
	CANON("[::ffff:10.1.2.3]:80", "10.1.2.3:80");
	CANON("*.com", "*.com");

	BAD("", "empty host");
	BAD("*", "bare '*'");
	BAD("*.", "empty host");
	BAD("*.*.example.com", "whole first label");
	BAD("**.example.com", "whole first label");
	BAD("*example.com", "whole first label");
	BAD("foo.*.com", "whole first label");
	BAD("example.*", "whole first label");
	BAD("https://example.com", "not a URL");
	BAD("example.com/path", "'/' in rule");
	BAD("10.0.0.0/8", "'/' in rule");
	BAD("*.10.0.0.1", "not an address");
	BAD("*.[::1]", "not an address");
	BAD("example.com:0", "port out of range");
	BAD("example.com:99999", "port out of range");
	BAD("example.com:", "empty port");
	BAD("example.com:https", "decimal");
	BAD(" example.com", "space");
	BAD("exa mple.com", "space");
	BAD("example..com", "empty label");
	BAD("b\xc3\xbc" "cher.de", "non-ASCII");
	BAD("1.2.3.999", "numeric last label");
}

static struct host
H(const char *s)
{
	struct host h;

	memset(&h, 0, sizeof(h));
	if (host_canon(s, strlen(s), &h, &why) < 0)
		fprintf(stderr, "bad test host %s: %s\n", s, why);
	return h;
}

static bool
match(const char *rule, const char *host, uint16_t port)
{
	struct netrule r;
	struct host h = H(host);

	if (parse(rule, &r) < 0)
		return false;
	return netrule_match(&r, &h, port);
}

static void
test_match(void)
{
	CHECK(match("example.com", "example.com", 443));
	CHECK(match("example.com", "EXAMPLE.com.", 80));
	CHECK(!match("example.com", "www.example.com", 443));
	CHECK(!match("example.com", "example.com.evil", 443));
	CHECK(!match("example.com", "xexample.com", 443));

	/* Wildcards: subdomains only, at any depth, never the apex. */
	CHECK(match("*.example.com", "www.example.com", 443));
	CHECK(match("*.example.com", "a.b.c.example.com", 443));
	CHECK(!match("*.example.com", "example.com", 443));
	CHECK(!match("*.example.com", "badexample.com", 443));
	CHECK(!match("*.example.com", "www.example.com.evil.net", 443));
	CHECK(!match("*.com", "com", 443));
	CHECK(match("*.com", "a.com", 443));
	/* Even a non-canonical ".example.com" is not a subdomain. */
	{
		struct netrule r;
		struct host h;

		memset(&h, 0, sizeof(h));
		h.kind = HOST_NAME;
		strcpy(h.text, ".example.com");
		h.len = strlen(h.text);
		CHECK_INT(parse("*.example.com", &r), 0);
		CHECK(!netrule_match(&r, &h, 443));
		strcpy(h.text, "x.example.com");
		h.len = strlen(h.text);
		CHECK(netrule_match(&r, &h, 443));
	}

	/* Ports: a rule without one matches any, with one only that one. */
	CHECK(match("example.com:443", "example.com", 443));
	CHECK(!match("example.com:443", "example.com", 80));
	CHECK(match("*.example.com:8080", "a.example.com", 8080));
	CHECK(!match("*.example.com:8080", "a.example.com", 8081));

	/* Addresses match in every spelling, never by name. */
	CHECK(match("127.0.0.1", "2130706433", 80));
	CHECK(match("0x7f.1", "127.0.0.1", 80));
	CHECK(match("127.0.0.1", "[::ffff:127.0.0.1]", 80));
	CHECK(match("[::1]:80", "0:0:0:0:0:0:0:1", 80));
	CHECK(!match("[::1]:80", "::1", 81));
	CHECK(!match("::1", "::2", 80));
	CHECK(!match("localhost", "127.0.0.1", 80));
	CHECK(!match("127.0.0.1", "localhost", 80));
	CHECK(!match("10.0.0.1", "10.0.0.2", 80));
}

static void
test_decide(void)
{
	static const char *const deny_src[] = {
		"evil.example.com", "*.ads.example.com", "example.com:25",
	};
	static const char *const allow_src[] = {
		"github.com", "*.example.com", "example.com", "[::1]:8080",
		"*.ads.example.com",
	};
	static const struct {
		const char		*host;
		uint16_t		 port;
		enum netrule_verdict	 verdict;
		size_t			 index;	/* 77: left alone */
	} cases[] = {
		{ "github.com", 443, NETRULE_ALLOW, 0 },
		{ "www.example.com", 443, NETRULE_ALLOW, 1 },
		{ "example.com", 443, NETRULE_ALLOW, 2 },
		/* Deny wins over an allow that also matches. */
		{ "Evil.Example.com.", 443, NETRULE_DENY, 0 },
		{ "x.ads.example.com", 443, NETRULE_DENY, 1 },
		{ "example.com", 25, NETRULE_DENY, 2 },
		{ "::1", 8080, NETRULE_ALLOW, 3 },
		{ "::1", 8081, NETRULE_UNKNOWN, 77 },
		{ "gitlab.com", 443, NETRULE_UNKNOWN, 77 },
	};
	struct netrule_list *deny = NULL, *allow = NULL;
	enum netrule_verdict v;
	struct host h;
	size_t idx = 99, bad = 99, i;

	CHECK_INT(netrule_compile(deny_src, 3, &deny, &bad, &why), 0);
	CHECK_INT(netrule_compile(allow_src, 5, &allow, &bad, &why), 0);
	CHECK_INT(bad, 99);
	if (deny == NULL || allow == NULL)
		return;
	CHECK_INT(deny->n, 3);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		h = H(cases[i].host);
		idx = 77;
		v = netrule_decide(deny, allow, &h, cases[i].port, &idx);
		if (v != cases[i].verdict || idx != cases[i].index)
			fprintf(stderr, "decide %s port %u\n", cases[i].host,
			    cases[i].port);
		CHECK_INT(v, cases[i].verdict);
		CHECK_INT(idx, cases[i].index);
	}
	/* NULL lists are empty lists. */
	CHECK_INT(netrule_decide(NULL, NULL, &h, 443, &idx), NETRULE_UNKNOWN);
	h = H("github.com");
	CHECK_INT(netrule_decide(NULL, allow, &h, 443, &idx), NETRULE_ALLOW);
	CHECK_INT(netrule_find(NULL, &h, 443), -ENOENT);
	CHECK_INT(netrule_find(deny, &h, 443), -ENOENT);
	netrule_free(deny);
	netrule_free(allow);
	netrule_free(NULL);
}

static void
test_compile_errors(void)
{
	static const char *const src[] = { "ok.com", "*.ok.com", "bad rule" };
	static const char *const empty[] = { NULL };
	struct netrule_list *list = (struct netrule_list *)&why;
	size_t bad = 99;

	CHECK_INT(netrule_compile(src, 3, &list, &bad, &why), -EINVAL);
	CHECK_INT(bad, 2);
	CHECK_STR(why, "space in host");
	CHECK(list == (struct netrule_list *)&why);	/* untouched */
	CHECK_INT(netrule_compile(empty, 0, &list, &bad, &why), 0);
	CHECK_INT(list->n, 0);
	netrule_free(list);
}

static void
test_names(void)
{
	char buf[8];
	struct netrule r;

	CHECK_STR(netrule_verdict_name(NETRULE_ALLOW), "allow");
	CHECK_STR(netrule_verdict_name(NETRULE_DENY), "deny");
	CHECK_STR(netrule_verdict_name(NETRULE_UNKNOWN), "unknown");
	CHECK_INT(parse("*.example.com", &r), 0);
	CHECK_INT(netrule_format(&r, buf, sizeof(buf)), -ENOSPC);
	CHECK_INT(netrule_format(&r, buf, 2), -ENOSPC);
}

int
main(void)
{
	test_syntax();
	test_match();
	test_decide();
	test_compile_errors();
	test_names();
	UNIT_DONE();
}
