/* Unit tests for daemon/proxy/dns-msg.c (the stub's queries and replies)
 * and daemon/proxy/fakeip.c (made-up addresses). */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/dns-msg.h"
#include "daemon/proxy/fakeip.h"
#include "unit.h"

/* A query for name (dotted) of qtype, id 0x1234, RD set. */
static size_t
query(const char *name, uint16_t qtype, uint8_t *out)
{
	size_t n = 12, l;
	const char *p = name, *dot;

	memset(out, 0, 12);
	out[0] = 0x12;
	out[1] = 0x34;
	out[2] = 0x01;
	out[5] = 1;
	while (*p) {
		dot = strchr(p, '.');
		l = dot ? (size_t)(dot - p) : strlen(p);
		out[n++] = (uint8_t)l;
		memcpy(out + n, p, l);
		n += l;
		p += l + (dot != NULL);
	}
	out[n++] = 0;
	out[n++] = (uint8_t)(qtype >> 8);
	out[n++] = (uint8_t)qtype;
	out[n++] = 0;
	out[n++] = 1;
	return n;
}

static void
test_parse(void)
{
	uint8_t m[600];
	struct dns_query q;
	size_t n = query("Pub.Example.com", DNS_TYPE_A, m);

	CHECK_INT(dns_query_parse(m, n, &q), 0);
	CHECK_STR(q.name, "Pub.Example.com");
	CHECK_INT(q.qtype, DNS_TYPE_A);
	CHECK_INT(q.qclass, DNS_CLASS_IN);
	CHECK_INT(q.id, 0x1234);
	CHECK_INT(q.qend, n);
	/* Cut anywhere: never read past the end. */
	for (size_t k = 12; k < n; k++)
		CHECK_INT(dns_query_parse(m, k, &q), -EBADMSG);
	CHECK_INT(dns_query_parse(m, 11, &q), -EINVAL);
	/* A response is never answered. */
	m[2] |= 0x80;
	CHECK_INT(dns_query_parse(m, n, &q), -EINVAL);
	m[2] &= 0x7f;
	/* Another opcode: NOTIMP. */
	m[2] |= 0x10;
	CHECK_INT(dns_query_parse(m, n, &q), -EOPNOTSUPP);
	m[2] &= (uint8_t)~0x10;
	/* Two questions. */
	m[5] = 2;
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	m[5] = 1;
	/* A compression pointer, a '.' or a control byte in a label. */
	n = query("a.b", DNS_TYPE_A, m);
	m[12] = 0xc0;
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	n = query("a.b", DNS_TYPE_A, m);
	m[13] = '.';
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	m[13] = 0x01;
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	/* The root. */
	n = query("", DNS_TYPE_A, m);
	CHECK_INT(dns_query_parse(m, n, &q), 0);
	CHECK_STR(q.name, "");
}

static void
test_long_name(void)
{
	char name[300];
	uint8_t m[600];
	struct dns_query q;
	size_t n, i;

	/* 4 labels of 63: 255 bytes dotted, past HOST_TEXT_MAX. */
	for (i = 0; i < 4 * 64 - 1; i++)
		name[i] = (i % 64 == 63) ? '.' : 'a';
	name[i] = '\0';
	n = query(name, DNS_TYPE_A, m);
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	name[HOST_TEXT_MAX] = '\0';	/* 253: the longest name */
	n = query(name, DNS_TYPE_A, m);
	CHECK_INT(dns_query_parse(m, n, &q), 0);
	CHECK_INT(q.name_len, HOST_TEXT_MAX);
}

static void
test_reply(void)
{
	static const uint8_t a4[4] = { 198, 18, 0, 1 };
	uint8_t m[600], out[DNS_UDP_MAX];
	struct dns_query q;
	size_t n = query("x.test", DNS_TYPE_A, m);
	int r;

	CHECK_INT(dns_query_parse(m, n, &q), 0);
	r = dns_reply(&q, m, DNS_NOERROR, a4, 4, 60, out, sizeof(out));
	CHECK_INT(r, (int)n + 16);
	CHECK(out[0] == 0x12 && out[1] == 0x34);
	CHECK_INT(out[2], 0x81);	/* QR, RD */
	CHECK_INT(out[3], 0x80);	/* RA, NOERROR */
	CHECK_INT(out[5], 1);
	CHECK_INT(out[7], 1);
	CHECK(memcmp(out + 12, m + 12, n - 12) == 0);
	CHECK(out[n] == 0xc0 && out[n + 1] == 12);
	CHECK(memcmp(out + n + 12, a4, 4) == 0);
	r = dns_reply(&q, m, DNS_NXDOMAIN, NULL, 0, 0, out, sizeof(out));
	CHECK_INT(r, (int)n);
	CHECK_INT(out[3] & 15, DNS_NXDOMAIN);
	CHECK_INT(out[7], 0);
	CHECK_INT(dns_reply(&q, m, 0, a4, 4, 60, out, n + 10), -ENOSPC);
	CHECK_INT(dns_reply(&q, m, 0, a4, 3, 60, out, sizeof(out)), -EINVAL);
	/* FORMERR to a query whose question could not be read: header. */
	m[5] = 2;
	CHECK_INT(dns_query_parse(m, n, &q), -EBADMSG);
	r = dns_reply(&q, m, DNS_FORMERR, NULL, 0, 0, out, sizeof(out));
	CHECK_INT(r, 12);
	CHECK_INT(out[5], 0);
	CHECK_INT(out[3] & 15, DNS_FORMERR);
}

static void
test_fakeip(void)
{
	struct fakeip f;
	struct host a, b;
	const char *why;
	uint8_t v4[4], v6[16];
	uint32_t i, j, k;
	char name[32];

	fakeip_init(&f);
	CHECK_INT(host_canon("a.test", 6, &a, &why), 0);
	CHECK_INT(host_canon("b.test", 6, &b, &why), 0);
	CHECK_INT(fakeip_get(&f, &a, &i), 0);
	CHECK_INT(fakeip_get(&f, &b, &j), 0);
	CHECK_INT(fakeip_get(&f, &a, &k), 0);
	CHECK_INT(i, 1);
	CHECK_INT(j, 2);
	CHECK_INT(k, i);
	fakeip_v4(j, v4);
	CHECK(v4[0] == 198 && v4[1] == 18 && v4[2] == 0 && v4[3] == 2);
	CHECK_INT(fakeip_index(v4, 4, &k), 0);
	CHECK_INT(k, j);
	CHECK(host_equal(fakeip_name(&f, k), &b));
	fakeip_v6(i, v6);
	CHECK(v6[0] == 0xfd && v6[15] == 1);
	CHECK_INT(fakeip_index(v6, 16, &k), 0);
	CHECK_INT(k, i);
	CHECK(fakeip_name(&f, 0) == NULL);
	CHECK(fakeip_name(&f, 3) == NULL);
	v4[1] = 20;
	CHECK_INT(fakeip_index(v4, 4, &k), -ENOENT);
	v6[8] = 1;
	CHECK_INT(fakeip_index(v6, 16, &k), -ENOENT);
	/* Many names: the table grows, every one keeps its index. */
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%u.test", i);
		CHECK_INT(host_canon(name, strlen(name), &a, &why), 0);
		CHECK_INT(fakeip_get(&f, &a, &k), 0);
		CHECK_INT(k, i + 3);
	}
	snprintf(name, sizeof(name), "n%u.test", 1234u);
	CHECK_INT(host_canon(name, strlen(name), &a, &why), 0);
	CHECK_INT(fakeip_get(&f, &a, &k), 0);
	CHECK_INT(k, 1237);
	fakeip_free(&f);
}

int
main(void)
{
	test_parse();
	test_long_name();
	test_reply();
	test_fakeip();
	UNIT_DONE();
}
