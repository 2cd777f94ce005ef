/* Unit tests for proxy/upstream-parse.c: upstream URLs, noProxy, the CONNECT exchange. */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/upstream-parse.h"
#include "host-unit.h"
#include "unit.h"

static int
url(const char *s, struct upstream_url *u, const char **why)
{
	*why = NULL;
	return upstream_url_parse(s, strlen(s), u, why);
}

static void
test_url(void)
{
	struct upstream_url u;
	const char *why;
	char buf[300];

	CHECK_INT(url("http://proxy.corp:3128", &u, &why), 0);
	CHECK_STR(u.host.text, "proxy.corp");
	CHECK_INT(u.port, 3128);
	CHECK_STR(u.auth, "");
	CHECK_INT(url("HTTP://10.0.0.1/", &u, &why), 0);
	CHECK_INT(u.port, 80);
	CHECK_INT(u.host.kind, HOST_IPV4);
	CHECK_INT(url("http://[fd00::1]:8080", &u, &why), 0);
	CHECK_STR(u.host.text, "fd00::1");
	CHECK(upstream_url_format(&u, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "http://[fd00::1]:8080");
	/* RFC 7617's example; '@' and ':' in the password percent-encoded. */
	CHECK_INT(url("http://Aladdin:open%20sesame@p:1", &u, &why), 0);
	CHECK_STR(u.auth, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
	CHECK_INT(url("http://u:p%40ss%3A@p:1", &u, &why), 0);
	CHECK_STR(u.auth, "Basic dTpwQHNzOg==");
	CHECK_INT(url("http://user@p:1", &u, &why), 0);
	CHECK_STR(u.auth, "Basic dXNlcjo=");
	/* The last '@' ends the user info. */
	CHECK_INT(url("http://a@b@p:1", &u, &why), 0);
	CHECK_STR(u.auth, "Basic YUBiOg==");
	CHECK(upstream_url_format(&u, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "http://p:1");

	CHECK_INT(url("https://p:1", &u, &why), -EINVAL);
	CHECK(strstr(why, "TLS") != NULL);
	CHECK_INT(url("socks5://p:1", &u, &why), -EINVAL);
	CHECK_INT(url("p:3128", &u, &why), -EINVAL);
	CHECK_INT(url("http://p:1/path", &u, &why), -EINVAL);
	CHECK_INT(url("http://p:1?x", &u, &why), -EINVAL);
	CHECK_INT(url("http://p:0", &u, &why), -EINVAL);
	CHECK_INT(url("http://p:65536", &u, &why), -EINVAL);
	CHECK_INT(url("http://", &u, &why), -EINVAL);
	CHECK_INT(url("http://:pw@p:1", &u, &why), -EINVAL);
	CHECK_INT(url("http://u:p%0d%0aX: y@p:1", &u, &why), -EINVAL);
	CHECK_INT(url("http://u:%4@p:1", &u, &why), -EINVAL);
	CHECK_INT(url("http://u:%@p:1", &u, &why), -EINVAL);
	CHECK_INT(url("http://p\r\n:1", &u, &why), -EINVAL);
	/* No reason repeats the URL, which may hold a password. */
	CHECK_INT(url("http://u:secret@bad host:1", &u, &why), -EINVAL);
	CHECK(strstr(why, "secret") == NULL);
}

static bool
np(const struct noproxy *l, const char *host, uint16_t port)
{
	struct host h = H(host);

	return noproxy_match(l, &h, port);
}

static void
test_noproxy(void)
{
	static const char list[] = "corp.example, .internal.test,*.svc.test "
	    "10.0.0.0/8\tfd00::/8,192.168.1.1 git.test:8443,[::1]:9, 1.2.3.4/32";
	struct noproxy *l = NULL;
	const char *why = NULL;

	CHECK_INT(noproxy_parse(list, strlen(list), &l, &why), 0);
	CHECK(l != NULL && !l->all);
	CHECK_INT(l->n, 9);
	CHECK(np(l, "corp.example", 443));
	CHECK(np(l, "a.b.corp.example", 80));
	CHECK(!np(l, "xcorp.example", 80));
	CHECK(!np(l, "example", 80));
	CHECK(np(l, "internal.test", 80));
	CHECK(np(l, "x.internal.test", 80));
	CHECK(np(l, "svc.test", 80));
	CHECK(np(l, "10.1.2.3", 80));
	CHECK(!np(l, "11.1.2.3", 80));
	CHECK(np(l, "fd12::5", 80));
	CHECK(!np(l, "fe80::1", 80));
	CHECK(np(l, "192.168.1.1", 22));
	CHECK(!np(l, "192.168.1.2", 22));
	CHECK(np(l, "git.test", 8443));
	CHECK(!np(l, "git.test", 443));
	CHECK(np(l, "::1", 9));
	CHECK(!np(l, "::1", 10));
	CHECK(np(l, "1.2.3.4", 1));
	CHECK(!np(l, "1.2.3.5", 1));
	/* A name is never matched by the range its address may be in. */
	CHECK(!np(l, "ten.test", 80));
	CHECK(!noproxy_match(NULL, &(struct host){ .kind = HOST_NAME }, 1));
	noproxy_free(l);

	CHECK_INT(noproxy_parse("a.test, *", 9, &l, &why), 0);
	CHECK(l->all);
	CHECK(np(l, "anything.test", 1));
	noproxy_free(l);
	CHECK_INT(noproxy_parse("", 0, &l, &why), 0);
	CHECK(!np(l, "a.test", 1));
	noproxy_free(l);

	CHECK_INT(noproxy_parse("10.0.0.0/33", 11, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("a.test/8", 8, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("10.0.0.0/", 9, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("fd00::/129", 10, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("a.*.test", 8, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("a.test:0", 8, &l, &why), -EINVAL);
	CHECK_INT(noproxy_parse("a\x01.test", 7, &l, &why), -EINVAL);
}

static void
test_connect(void)
{
	struct host h = H("api.example.com"), v6 = H("::1");
	char buf[512];
	unsigned st = 0;
	const char *why;
	int n;

	n = upstream_connect_request(&h, 443, "", buf, sizeof(buf));
	CHECK_STR(buf, "CONNECT api.example.com:443 HTTP/1.1\r\n"
	    "Host: api.example.com:443\r\n\r\n");
	CHECK_INT(n, (int)strlen(buf));
	upstream_connect_request(&v6, 22, "Basic eA==", buf, sizeof(buf));
	CHECK_STR(buf, "CONNECT [::1]:22 HTTP/1.1\r\nHost: [::1]:22\r\n"
	    "Proxy-Authorization: Basic eA==\r\n\r\n");
	CHECK_INT(upstream_connect_request(&h, 443, "", buf, 40), -ENOSPC);

#define REPLY(s) upstream_connect_reply(s, sizeof(s) - 1, &st, &why)
	CHECK_INT(REPLY("HTTP/1.1 200 Connection established\r\n\r\nSSH-2.0"),
	    39);
	CHECK_INT(st, 200);
	CHECK_INT(REPLY("HTTP/1.0 407 Proxy Authentication Required\r\n"
	    "Proxy-Authenticate: Basic\r\n\r\n"), 73);
	CHECK_INT(st, 407);
	CHECK_INT(REPLY("HTTP/1.1 200\r\n\r\n"), 16);
	CHECK_INT(REPLY("HTTP/1.1 200 OK\r\n"), 0);
	CHECK_INT(REPLY("HTTP/1."), 0);
	CHECK_INT(REPLY("SSH-2.0-x\r\n\r\n"), -EBADMSG);
	CHECK_INT(REPLY("HTTP/2 200\r\n\r\n"), -EBADMSG);
	CHECK_INT(REPLY("HTTP/1.1 20x OK\r\n\r\n"), -EBADMSG);
	CHECK_INT(REPLY("HTTP/1.1 200OK\r\n\r\n"), -EBADMSG);
#undef REPLY
	{
		static char big[UPSTREAM_REPLY_MAX + 10];

		memset(big, 'x', sizeof(big));
		memcpy(big, "HTTP/1.1 200 OK\r\n", 17);
		CHECK_INT(upstream_connect_reply(big, sizeof(big), &st, &why),
		    -EBADMSG);
	}
}

int
main(void)
{
	test_url();
	test_noproxy();
	test_connect();
	UNIT_DONE();
}
